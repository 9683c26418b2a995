extension StringProtocol {
    /// The text without leading and trailing white space and line breaks: what
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives (Unicode's White_Space,
    /// and the zero-width space, as swift-corelibs-foundation counts it), without
    /// Foundation's round trip through NSString and UTF-16 (a quarter of reading a
    /// Bandsintown page), and without a copy when there is nothing to trim.
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        func kept(_ scalar: Unicode.Scalar) -> Bool { !scalar.properties.isWhitespace && scalar != "\u{200B}" }
        guard let first = scalars.firstIndex(where: kept) else { return "" }
        let last = scalars.lastIndex(where: kept)!
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex, let whole = self as? String {
            return whole
        }
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }
}
