extension StringProtocol {
    /// The text without leading and trailing white space and line breaks: what
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives (Unicode's White_Space,
    /// and the zero-width space, as swift-corelibs-foundation counts it), without
    /// Foundation's round trip through NSString and UTF-16 (every value of every page is
    /// trimmed), and without a copy when there is nothing to trim.
    public func trimmingWhitespace() -> String {
        func kept(_ scalar: Unicode.Scalar) -> Bool { !scalar.properties.isWhitespace && scalar != "\u{200B}" }
        if let text = self as? String { return text.trimming(keeping: kept) }
        return String((self as? Substring ?? Substring(self)).trimmedRange(keeping: kept))
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs: what
    /// `trimmingCharacters(in: .whitespaces)` gives (Unicode's space separators, the tab
    /// and the zero-width space, as swift-corelibs-foundation counts them; line breaks
    /// stay), without the round trip through NSString and UTF-16 (every coordinate and
    /// number of an XML page is trimmed).
    public func trimmingSpaces() -> String {
        trimming(keeping: Substring.isKeptBySpaceTrimming)
    }

    fileprivate func trimming(keeping kept: (Unicode.Scalar) -> Bool) -> String {
        let trimmed = self[...].trimmedRange(keeping: kept)
        return trimmed.startIndex == startIndex && trimmed.endIndex == endIndex ? self : String(trimmed)
    }
}

extension Substring {
    /// See `String.trimmingSpaces()`.
    public func trimmingSpaces() -> String {
        String(trimmedRange(keeping: Self.isKeptBySpaceTrimming))
    }

    fileprivate static func isKeptBySpaceTrimming(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && scalar != "\u{200B}" && scalar.properties.generalCategory != .spaceSeparator
    }

    /// The text from the first scalar `kept` to the last (empty when there is none).
    fileprivate func trimmedRange(keeping kept: (Unicode.Scalar) -> Bool) -> Substring {
        // Most text starts and ends with a printable ASCII character, which every trim keeps.
        if let first = utf8.first, let last = utf8.last, (0x21..<0x80).contains(first), (0x21..<0x80).contains(last) {
            return self
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: kept) else { return self[endIndex...] }
        let last = scalars.lastIndex(where: kept)!
        return self[first..<scalars.index(after: last)]
    }
}
