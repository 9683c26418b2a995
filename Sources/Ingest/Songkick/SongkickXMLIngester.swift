import Foundation
import Listings

/// Reads Songkick API v3 XML: the same responses as ``SongkickJSONIngester`` (event
/// lists, event details, artist search, similar artists, location search, venue
/// details), written as `<resultsPage status="ok" ...><results>...</results></resultsPage>`.
///
/// The XML is streamed (one result element at a time), turned into the same
/// `SongkickJSON` values the JSON reader decodes, and normalized by the same
/// ``SongkickNormalizer``, so JSON and XML of the same data give identical pages.
/// Empty and missing attributes both mean null. Errors name `line L, column C` and
/// the JSON-style path of the value (`resultsPage.results.event[1].venue.lat`).
///
/// ```swift
/// let page = try SongkickXMLIngester().parse(data, context: PageContext(locator: "metro-p1.xml"))
/// ```
public struct SongkickXMLIngester: Ingester {
    public let format = "songkick-xml"
    public let source = ListingSource.songkick
    public var fileExtensions: Set<String> { ["xml"] }
    public var crawlScheme: (any CrawlScheme)? { SongkickCrawlScheme(fileExtension: "xml") }

    public init() {}

    public func recognizes(_ sample: ContentSample) -> Bool {
        XMLSniffer.rootElementName(in: sample) == "resultsPage"
    }

    public func parse(_ data: Data, context: PageContext) throws(IngestError) -> ListingPage {
        let reader = SongkickXMLReader(source: source, context: context)
        try SafeXMLReader(locator: context.locator).read(data, into: reader)
        return try reader.finish()
    }
}
