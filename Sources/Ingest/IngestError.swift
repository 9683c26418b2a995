/// Why a page could not be ingested: where it came from, where in it, and what was wrong.
///
/// Messages name the file (or URL) and the position, so an operator can open the page
/// and see the problem; the page is skipped and the run goes on.
public struct IngestError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The bytes are not well-formed JSON or XML.
        case malformed(String)
        /// Well-formed, but not the shape the format has (a wrong envelope or type).
        case unexpectedShape(String)
        /// A value that cannot be true: latitude 120, 2026-02-30.
        case invalidValue(String)
        /// The source answered with an error page instead of listings.
        case sourceError(String)
        /// Auto-detection could not tell which format the content is in.
        case unrecognizedFormat
        /// The content is a response of an API Encore knows by shape but does not read.
        case unsupportedFormat(String)
        /// The file could not be read at all.
        case unreadable(String)
        /// The catalog could not store the page (its transaction was rolled back).
        case catalogFailure(String)
    }

    /// The file path or URL of the page.
    public var locator: String
    /// Where in the page: a JSON path (`resultsPage.results.event[2].start.date`),
    /// or `line L, column C`. Nil when the problem is the page as a whole.
    public var position: String?
    public var reason: Reason

    public init(locator: String, position: String? = nil, reason: Reason) {
        self.locator = locator
        self.position = position
        self.reason = reason
    }

    public var description: String {
        let place = position.map { "\(locator): at \($0)" } ?? locator
        switch reason {
        case .malformed(let detail): return "\(place): malformed content: \(detail)"
        case .unexpectedShape(let detail): return "\(place): unexpected shape: \(detail)"
        case .invalidValue(let detail): return "\(place): invalid value: \(detail)"
        case .sourceError(let detail): return "\(place): the source reported an error: \(detail)"
        case .unrecognizedFormat:
            return "\(place): could not tell the format from the content; pass --format (see `encore sources`)"
        case .unsupportedFormat(let name):
            return "\(place): looks like a \(name) response; Encore does not read \(name) (see `encore sources`)"
        case .unreadable(let detail): return "\(place): cannot read: \(detail)"
        case .catalogFailure(let detail): return "\(place): not stored, the catalog is unchanged: \(detail)"
        }
    }
}
