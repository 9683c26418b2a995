/// Finding text by its UTF-8 bytes. Foundation's `String.range(of:)` and
/// `String.contains(_:)` (which win over the standard library's when Foundation is
/// imported) go through NSString and UTF-16: called once a listing, they were a twelfth
/// of reading a JSON-LD page.
public enum TextSearch {
    /// Where `pattern` first occurs in `bytes`, comparing ASCII letters in either case
    /// when `ignoringASCIICase` (other bytes, as they are).
    public static func firstOffset(
        of pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, ignoringASCIICase: Bool = false
    ) -> Int? {
        guard let first = pattern.first else { return 0 }
        guard pattern.count <= bytes.count else { return nil }
        func fold(_ byte: UInt8) -> UInt8 {
            ignoringASCIICase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        }
        let lead = fold(first)
        for start in 0...(bytes.count - pattern.count) where fold(bytes[start]) == lead {
            var offset = 1
            while offset < pattern.count, fold(bytes[start + offset]) == fold(pattern[offset]) { offset += 1 }
            if offset == pattern.count { return start }
        }
        return nil
    }
}

extension String {
    /// The first range where `needle` is written (see ``TextSearch``).
    public func range(ofText needle: String, ignoringASCIICase: Bool = false) -> Range<String.Index>? {
        var text = self
        let offset = text.withUTF8 { bytes in
            TextSearch.firstOffset(of: Array(needle.utf8), in: bytes, ignoringASCIICase: ignoringASCIICase)
        }
        guard let offset else { return nil }
        let start = utf8.index(utf8.startIndex, offsetBy: offset)
        return start..<utf8.index(start, offsetBy: needle.utf8.count)
    }

    /// Whether `needle` is written in the text (see ``TextSearch``).
    public func containsText(_ needle: String, ignoringASCIICase: Bool = false) -> Bool {
        range(ofText: needle, ignoringASCIICase: ignoringASCIICase) != nil
    }
}
