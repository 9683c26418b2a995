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
