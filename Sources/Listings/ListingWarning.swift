/// A value a page gave that Encore could not use: the value is dropped, the page lands.
///
/// Only a record's identity or date is worth failing a page for; anything else (a time
/// zone written as an abbreviation, an impossible on-sale date) costs that value and is
/// reported with the page and position, so an operator can see what was left out.
public struct ListingWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file path or URL of the page.
    public var locator: String
    /// Where in the page (a JSON path, or `line L, column C`), when known.
    public var position: String?
    /// What was dropped and why: `"JST" is not an IANA time zone; the venue's zone is used`.
    public var message: String

    public init(locator: String, position: String? = nil, message: String) {
        self.locator = locator
        self.position = position
        self.message = message
    }

    public var description: String {
        (position.map { "\(locator): at \($0)" } ?? locator) + ": " + message
    }
}
