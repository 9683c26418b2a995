import Foundation
import Listings

/// A listing source's parser: turns one page of a source's response into listings.
///
/// Ingesters never touch the catalog; they turn bytes into values, and the catalog
/// applies each page in one transaction. To add a source, implement this protocol in
/// one new file or folder and add one line to ``IngesterRegistry/standard``.
public protocol Ingester: Sendable {
    /// The `--format` name, e.g. `songkick-json`.
    var format: String { get }
    /// The source recorded in provenance, e.g. `songkick`, with its standing against the
    /// others (declared in the source's folder: `ListingSource.songkick`).
    var source: ListingSource { get }
    /// Whether the start of some content looks like this format (used when no
    /// `--format` is given). Decide by content, not by file name.
    func recognizes(_ sample: ContentSample) -> Bool
    /// Parses one page.
    /// - Throws: ``IngestError`` naming the position and reason when the page is unusable.
    func parse(_ data: Data, context: PageContext) throws(IngestError) -> ListingPage
    /// The API's URL scheme and paging, for `encore refresh`; nil (the default) for a
    /// format read from files only.
    var crawlScheme: (any CrawlScheme)? { get }
    /// Whether what a page says depends on ``PageContext/window`` (recurring events are
    /// expanded inside it), so the same bytes read in another window are another page.
    var readsWindow: Bool { get }
    /// Whether pages of this format are published as they are on the web (venue pages,
    /// feeds), so `encore refresh` may fetch them from a page source's `urls`.
    var readsWebPages: Bool { get }
    /// The file name endings (lower case, without the dot) of this format's files, read
    /// when `encore ingest` walks a directory; `json` unless said otherwise.
    var fileExtensions: Set<String> { get }
}

extension Ingester {
    public var readsWindow: Bool { false }
    public var readsWebPages: Bool { false }
    public var fileExtensions: Set<String> { ["json"] }
}

/// What a parser knows about a page besides its bytes.
public struct PageContext: Sendable, Hashable {
    /// The file path or URL, for messages and provenance.
    public var locator: String
    /// For similar-artist responses: the source id of the artist they are similar to.
    public var similarToArtist: String?
    /// The dates a recurring listing is expanded over (an iCalendar `RRULE`); nil: from
    /// its first date on, as far as the ingester's cap allows.
    public var window: DateWindow?
    /// Kinds of non-concerts this source keeps (its `keep` setting), which sources that
    /// tell them by their titles would otherwise skip (see ``NonConcertClassifier``).
    public var keptKinds: Set<NonConcertKind>
    /// What the operator said about the source's place (`country`, `place`, `time_zone`).
    public var sourceHint = PlaceEvidence()

    public init(
        locator: String, similarToArtist: String? = nil, window: DateWindow? = nil, keptKinds: Set<NonConcertKind> = [],
        sourceHint: PlaceEvidence = PlaceEvidence()
    ) {
        self.locator = locator
        self.similarToArtist = similarToArtist
        self.window = window
        self.keptKinds = keptKinds
        self.sourceHint = sourceHint
    }

    /// The artist a similar-artists response is for: ``similarToArtist``, or the id in a
    /// file name like `similar-artists-521019.json`. Such a response looks exactly like an
    /// artist search; the artist it is for is only in the request. Part of what a page
    /// says, so part of its hash: two artists' identical lists are two pages.
    public var similarArtistTarget: String? {
        if let similarToArtist { return similarToArtist }
        let name = locator.lastIndex(of: "/").map { locator[locator.index(after: $0)...] } ?? locator[...]
        // Asked of every page (its hash includes the answer): most names are ruled out
        // without the regular expression.
        guard name.utf8.count > 15, name.lowercased().contains("similar"),
            let range = name.range(of: "similar[-_]?artists[-_]", options: [.regularExpression, .caseInsensitive])
        else { return nil }
        let digits = name[range.upperBound...].prefix { $0.isNumber }
        return digits.isEmpty ? nil : String(digits)
    }
}

/// The first bytes of some content, for format detection.
public struct ContentSample: Sendable {
    public let bytes: [UInt8]
    /// The same bytes as text, with invalid UTF-8 repaired (for substring checks).
    public let text: String

    public init(_ data: Data, limit: Int = 4096) {
        var head = Array(data.prefix(limit))
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head.removeFirst(3) }
        bytes = head
        text = String(decoding: head, as: UTF8.self)
    }

    /// Whether the sample holds `needle` (ASCII), byte for byte or ignoring ASCII case.
    /// Detection runs on every file before parsing, so it searches bytes: `String.contains`
    /// goes through NSString, and lowercasing a sample first copies it.
    public func contains(_ needle: String, ignoringCase: Bool = false) -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            TextSearch.firstOffset(of: Array(needle.utf8), in: bytes, ignoringASCIICase: ignoringCase) != nil
        }
    }

    /// The first byte that is not white space, if any.
    public var firstSignificantByte: UInt8? {
        bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// When the sample is a JSON object: its first key, and the first byte of that key's
    /// value (enough to tell most JSON APIs apart).
    public func firstObjectKey() -> (String, UInt8)? {
        var index = 0
        func skipWhiteSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        skipWhiteSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        skipWhiteSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\") { return nil }  // no API's first key needs escapes
            index += 1
        }
        guard index < bytes.count else { return nil }
        let key = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        skipWhiteSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        skipWhiteSpace()
        guard index < bytes.count else { return nil }
        return (key, bytes[index])
    }
}
