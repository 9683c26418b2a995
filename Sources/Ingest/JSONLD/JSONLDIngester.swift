import Foundation
import Listings

/// Reads schema.org events written as JSON-LD: `MusicEvent`, `Event`, `Festival`, and
/// `EventSeries` (listed as its `subEvent`s), from a `.jsonld`/`.json` document or from
/// the `<script type="application/ld+json">` blocks of an HTML page.
///
/// Shapes read: one node, an array of nodes, an `@graph` of mixed nodes whose `@id`
/// references are resolved across the page, an `ItemList`, a Place or act listing
/// `event`s, and an API envelope whose values hold event nodes (see ``JSONLDGraph``).
/// Blocks that are not events (BreadcrumbList, Organization, WebSite) are ignored, so an
/// HTML page with no event block is an empty page. A block that is not JSON is an error
/// at its line and column in the page. Values are judged by ``JSONLDNormalizer``.
///
/// ```swift
/// let page = try JSONLDIngester().parse(html, context: PageContext(locator: "lantern-rooms.html"))
/// ```
public struct JSONLDIngester: Ingester {
    public let format = "jsonld"
    public let source = ListingSource.jsonld
    public var fileExtensions: Set<String> { ["jsonld", "json", "html", "htm"] }
    public var readsWebPages: Bool { true }

    public init() {}

    /// JSON that declares a schema.org `@context` or an event `@type`; an HTML page
    /// with an `application/ld+json` block, or any HTML document (blocks often sit past
    /// the sample, below a long `<head>`). Never other sources' JSON: Songkick's
    /// `"resultsPage"`, Ticketmaster's `"_embedded"`, Last.fm's `"@attr"`/`"#text"`,
    /// Bandsintown's `"artist_id"`/`"on_sale_datetime"`.
    public func recognizes(_ sample: ContentSample) -> Bool {
        guard let first = sample.firstSignificantByte else { return false }
        let text = sample.text
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let otherSources = ["\"resultsPage\"", "\"_embedded\"", "\"@attr\"", "\"#text\"", "\"artist_id\"", "\"on_sale_datetime\""]
            if otherSources.contains(where: { sample.contains($0) }) { return false }
            if sample.contains("\"@context\""), sample.contains("schema.org") { return true }
            return Self.namesEventType(text)
        case UInt8(ascii: "<"):
            return sample.contains("application/ld+json", ignoringCase: true)
                || sample.contains("<!doctype html", ignoringCase: true) || sample.contains("<html", ignoringCase: true)
        default:
            return false
        }
    }

    public func parse(_ data: Data, context: PageContext) throws(IngestError) -> ListingPage {
        let locator = context.locator
        let bytes = [UInt8](data)
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let isHTML = start < bytes.count && bytes[start] == UInt8(ascii: "<")

        var roots: [JSONLDNode] = []
        if isHTML {
            let blocks = JSONLDHTML.scriptBlocks(in: bytes)
            if blocks.isEmpty, !Self.looksLikeHTML(bytes) {
                throw IngestError(
                    locator: locator, position: "top level",
                    reason: .unexpectedShape("markup that is neither JSON nor an HTML page"))
            }
            for block in blocks {
                roots.append(try Self.parseJSON(bytes, start: block.start, end: block.end, locator: locator, inHTML: true))
            }
        } else {
            let root = try Self.parseJSON(bytes, start: start, end: bytes.count, locator: locator, inHTML: false)
            roots.append(root)
        }
        let graph = JSONLDGraph(roots: roots)
        if !isHTML, !graph.hasNodes, !Self.isList(roots[0]) {
            throw IngestError(
                locator: locator, position: "top level",
                reason: .unexpectedShape("no \"@type\" or \"@graph\": not schema.org JSON-LD"))
        }

        let normalizer = JSONLDNormalizer(
            locator: locator, bytes: bytes, isHTML: isHTML, graph: graph, classifier: NonConcertClassifier(keeping: context.keptKinds))
        var events: [JSONLDNormalizer.Normalized] = []
        var page = ListingPage(source: source, locator: locator)
        for site in graph.eventSites() {
            let event = try normalizer.event(site)
            if let kind = event.nonConcert {
                page.skipped[kind.skippedKey, default: 0] += 1
                continue
            }
            events.append(event)
        }
        page.events = Self.distinctIDs(events)
        page.warnings = events.flatMap(\.warnings)
        return page
    }

    // MARK: - Parts

    static func parseJSON(
        _ bytes: [UInt8], start: Int, end: Int, locator: String, inHTML: Bool
    ) throws(IngestError) -> JSONLDNode {
        do {
            return try JSONLDParser.parse(bytes, start: start, end: end)
        } catch {
            let (line, column) = JSONLDNormalizer.lineAndColumn(of: error.offset, in: bytes)
            let (blockLine, _) = JSONLDNormalizer.lineAndColumn(of: start, in: bytes)
            let detail = inHTML ? "in the ld+json block starting on line \(blockLine): \(error.message)" : error.message
            throw IngestError(locator: locator, position: "line \(line), column \(column)", reason: .malformed(detail))
        }
    }

    /// Whether markup is an HTML page (not, say, another source's XML).
    private static func looksLikeHTML(_ bytes: [UInt8]) -> Bool {
        let openings: [StaticString] = ["<!doctype html", "<html", "<head", "<body", "<script"]
        return openings.contains { JSONLDHTML.find(bytes, $0, from: 0) != nil }
    }

    /// An array, or an object holding one (an empty API envelope): a list with no events.
    private static func isList(_ root: JSONLDNode) -> Bool {
        if root.elements != nil { return true }
        return root.members?.contains { $0.node.elements != nil } == true
    }

    /// Ids unique within the page. Different events sharing an id (a venue page that
    /// gives every event its own URL) each take their derived key; the same event given
    /// twice (in two blocks) is listed once.
    static func distinctIDs(_ events: [JSONLDNormalizer.Normalized]) -> [EventListing] {
        var indicesByID: [String: [Int]] = [:]
        for (index, event) in events.enumerated() { indicesByID[event.listing.sourceID, default: []].append(index) }
        var listings = events.map(\.listing)
        for indices in indicesByID.values where indices.count > 1 {
            let keys = Set(indices.map { events[$0].derivedKey })
            if keys.count > 1 {
                for index in indices { listings[index].sourceID = events[index].derivedKey }
            }
        }
        var seen: Set<String> = []
        return listings.filter { seen.insert($0.sourceID).inserted }
    }

    /// Whether some `"@type"` in the text names an event type (`"MusicEvent"`,
    /// `["Event", "schema:Festival"]`).
    static func namesEventType(_ text: String) -> Bool {
        var rest = Substring(text)
        func skipSpace() { rest = rest.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" } }
        func quoted() -> Substring? {
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { return nil }
            let name = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            return name
        }
        func isEventType(_ name: Substring) -> Bool {
            JSONLDGraph.eventTypes.contains(JSONLDText.localName(String(name)).lowercased())
        }
        while let range = rest.range(of: "\"@type\"") {
            rest = rest[range.upperBound...]
            skipSpace()
            guard rest.first == ":" else { continue }
            rest = rest.dropFirst()
            skipSpace()
            if rest.first == "[" {
                rest = rest.dropFirst()
                skipSpace()
                while let name = quoted() {
                    if isEventType(name) { return true }
                    skipSpace()
                    guard rest.first == "," else { break }
                    rest = rest.dropFirst()
                    skipSpace()
                }
            } else if let name = quoted(), isEventType(name) {
                return true
            }
        }
        return false
    }
}

extension ListingSource {
    /// A venue's or promoter's own pages: after the APIs, ahead of feeds of plain text.
    public static let jsonld = ListingSource(name: "jsonld", rank: 4)
}
