extension StringProtocol {
    /// The text without leading and trailing white space and line breaks: what
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives (Unicode's White_Space,
    /// and the zero-width space, as swift-corelibs-foundation counts it), without
    /// Foundation's round trip through NSString and UTF-16 (a quarter of reading a
    /// Bandsintown page), and without a copy when there is nothing to trim.
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        // Most text starts and ends with a printable ASCII character: nothing to trim.
        if let first = scalars.first, let last = scalars.last, (0x21..<0x80).contains(first.value),
            (0x21..<0x80).contains(last.value)
        {
            return self as? String ?? String(self)
        }
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

extension String {
    /// The text without leading and trailing spaces and tabs: what
    /// `trimmingCharacters(in: .whitespaces)` gives (Unicode's space separators, the tab
    /// and the zero-width space, as swift-corelibs-foundation counts them; line breaks
    /// stay), without the round trip through NSString and UTF-16 (a tenth of reading a
    /// Songkick XML page, where every coordinate and number is trimmed).
    public func trimmingSpaces() -> String {
        let trimmed = self[...].trimmingSpacesRange()
        return trimmed.startIndex == startIndex && trimmed.endIndex == endIndex ? self : String(trimmed)
    }
}

extension Substring {
    /// See `String.trimmingSpaces()`.
    public func trimmingSpaces() -> String {
        String(trimmingSpacesRange())
    }

    fileprivate func trimmingSpacesRange() -> Substring {
        // Most text starts and ends with a printable ASCII character: nothing to trim.
        if let first = utf8.first, let last = utf8.last, (0x21..<0x80).contains(first), (0x21..<0x80).contains(last) {
            return self
        }
        let scalars = unicodeScalars
        func kept(_ scalar: Unicode.Scalar) -> Bool {
            scalar != "\t" && scalar != "\u{200B}" && scalar.properties.generalCategory != .spaceSeparator
        }
        guard let first = scalars.firstIndex(where: kept) else { return self[endIndex...] }
        let last = scalars.lastIndex(where: kept)!
        return self[first..<scalars.index(after: last)]
    }
}
