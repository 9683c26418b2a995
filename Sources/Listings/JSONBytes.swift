extension Array where Element == UInt8 {
    /// Appends `value` in decimal ASCII: the JSON writers of the catalog and the feeds
    /// write thousands of ids per query or page, where `String(value)` would allocate.
    public mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for UInt64's 20 digits
        Swift.withUnsafeMutableBytes(of: &digits) { buffer in
            var count = 0
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            while count > 0 {
                count -= 1
                append(buffer[count])
            }
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` as a JSON string literal, escaped as `JSONEncoder` does (`\n`,
    /// `\u001f`); multi-byte UTF-8 passes through unchanged. Runs of bytes that need no
    /// escape are copied whole: most values have none.
    @inlinable public mutating func appendJSONString(_ value: String) {
        append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte)
                case 0x08: append(UInt8(ascii: "b"))
                case 0x09: append(UInt8(ascii: "t"))
                case 0x0A: append(UInt8(ascii: "n"))
                case 0x0C: append(UInt8(ascii: "f"))
                case 0x0D: append(UInt8(ascii: "r"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex.utf8Start[Int(byte >> 4)], hex.utf8Start[Int(byte & 0xF)]])
                }
            }
            append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        append(UInt8(ascii: "\""))
    }
}
