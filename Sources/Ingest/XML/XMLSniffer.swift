/// Tells which XML vocabulary some content is in from its first bytes, for format
/// detection: the name of the root element.
enum XMLSniffer {
    /// The root element's name (`resultsPage`, `lfm`), skipping leading white space, the
    /// XML declaration, comments and processing instructions. A DOCTYPE names the root
    /// too, so a page with a hostile DOCTYPE still reaches its reader (which refuses it).
    /// Nil when the sample is not XML or ends first.
    static func rootElementName(in sample: ContentSample) -> String? {
        let bytes = sample.bytes
        var index = 0
        func skipWhiteSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        func starts(with literal: String) -> Bool {
            let pattern = Array(literal.utf8)
            return index + pattern.count <= bytes.count && Array(bytes[index..<index + pattern.count]) == pattern
        }
        func skip(past terminator: String) -> Bool {
            let pattern = Array(terminator.utf8)
            while index + pattern.count <= bytes.count {
                if Array(bytes[index..<index + pattern.count]) == pattern {
                    index += pattern.count
                    return true
                }
                index += 1
            }
            return false
        }
        func name() -> String? {
            let start = index
            while index < bytes.count,
                ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "["), UInt8(ascii: "<")]
                    .contains(bytes[index])
            {
                index += 1
            }
            guard index > start, index < bytes.count else { return nil }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        while true {
            skipWhiteSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { return nil }
            if starts(with: "<?") {
                guard skip(past: "?>") else { return nil }
            } else if starts(with: "<!--") {
                guard skip(past: "-->") else { return nil }
            } else if starts(with: "<!DOCTYPE") {
                index += 9
                skipWhiteSpace()
                return name()
            } else {
                index += 1
                return name()
            }
        }
    }
}
