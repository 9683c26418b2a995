import Foundation

/// One rule for bytes that are not UTF-8, in every format: each invalid sequence becomes
/// U+FFFD and the page is applied, its summary counting the replacements ("invalid UTF-8
/// sequences (replaced with U+FFFD)"). The JSON readers used to replace them silently and
/// the XML readers to refuse the page; one stray byte in a calendar of hundreds of events
/// now costs one character, said once, in every format.
///
/// An XML page that declares another encoding (`<?xml ... encoding="ISO-8859-1"?>`) is
/// left alone: its reader refuses it.
enum UTF8Repair {
    static let reason = "invalid UTF-8 sequences (replaced with U+FFFD)"

    /// The data with each invalid sequence replaced, and how many there were; nil when
    /// the data is valid (or declares another encoding).
    static func repaired(_ data: Data) -> (data: Data, replaced: Int)? {
        let invalid = data.withUnsafeBytes { invalidSequences(in: $0.bindMemory(to: UInt8.self)) }
        guard invalid > 0, !declaresAnotherEncoding(data) else { return nil }
        return (Data(String(decoding: data, as: UTF8.self).utf8), invalid)
    }

    /// Invalid sequences in `bytes` (0 for valid UTF-8), as the standard library's decoder
    /// counts replacements.
    static func invalidSequences(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        let count = bytes.count
        // Most pages are valid: a plain walk finds out; only then the decoder counts.
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch byte {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return replacements(in: bytes)
            }
            guard index + length <= count, (lower...upper).contains(bytes[index + 1]) else { return replacements(in: bytes) }
            for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[index + offset]) {
                return replacements(in: bytes)
            }
            index += length
        }
        return 0
    }

    private static func replacements(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: break loop
            case .error: count += 1
            }
        }
        return count
    }

    private static func declaresAnotherEncoding(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(200), as: UTF8.self).lowercased()
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>"),
            let encoding = head[..<end.lowerBound].range(of: "encoding=")
        else { return false }
        let value = head[encoding.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
        return value != "utf-8" && value != "utf8"
    }
}
