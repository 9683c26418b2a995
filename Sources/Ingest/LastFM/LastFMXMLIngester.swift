import Foundation
import Listings

/// Reads Last.fm 2.0 XML event responses: `geo.getEvents`, `artist.getEvents`,
/// `artist.getPastEvents`, `venue.getEvents` (`<lfm status="ok"><events ...><event>`)
/// and `event.getInfo` (`<lfm status="ok"><event>`). `<lfm status="failed">` pages
/// are source errors.
///
/// The XML is streamed one `<event>` at a time through ``SafeXMLReader`` (which also
/// repairs the two defects seen in recorded Last.fm XML: white space before `<?xml`
/// and unescaped `&`), and normalized by ``LastFMNormalizer``, shared with
/// ``LastFMJSONIngester``, so both formats give identical pages for the same data.
///
/// ```swift
/// let page = try LastFMXMLIngester().parse(data, context: PageContext(locator: "toronto-p1.xml"))
/// ```
public struct LastFMXMLIngester: Ingester {
    public let format = "lastfm-xml"
    public let source = ListingSource.lastfm
    public var fileExtensions: Set<String> { ["xml"] }
    public var crawlScheme: (any CrawlScheme)? { LastFMCrawlScheme(json: false) }

    public init() {}

    public func recognizes(_ sample: ContentSample) -> Bool {
        XMLSniffer.rootElementName(in: sample) == "lfm"
    }

    public func parse(_ data: Data, context: PageContext) throws(IngestError) -> ListingPage {
        let reader = LastFMXMLReader(source: source, locator: context.locator)
        try SafeXMLReader(locator: context.locator).read(data, into: reader)
        return try reader.finish()
    }
}
