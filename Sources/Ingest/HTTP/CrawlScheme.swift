import Foundation
import Listings

/// One listing an API serves page by page: a metro area's calendar, an artist's events.
public struct ListingRequest: Sendable, Hashable {
    /// Names what is listed, stable across runs (`metro_areas/24426/calendar`): the
    /// listing lifecycle counts the crawls of a scope an event was missing from.
    public var scope: String
    /// Path below the source's `base_url` (empty for APIs with one endpoint, like Last.fm).
    public var path: String
    public var query: [URLQueryItem]
    /// Whether the API pages this listing (else one request gives all of it).
    public var paged: Bool
    /// Whether it lists events (lookups such as artist searches do not count toward the
    /// listing lifecycle).
    public var listsEvents: Bool
    /// For APIs queried by date window (Ticketmaster), the local dates covered.
    public var window: DateWindow?

    public init(
        scope: String, path: String, query: [URLQueryItem] = [], paged: Bool = true, listsEvents: Bool = true,
        window: DateWindow? = nil
    ) {
        self.scope = scope
        self.path = path
        self.query = query
        self.paged = paged
        self.listsEvents = listsEvents
        self.window = window
    }
}

/// How many pages a listing has, from its first page.
public struct PageCount: Sendable, Hashable {
    public var pages: Int
    /// False when the API will not serve every page (Ticketmaster's 1,000-item limit), so
    /// the crawl cannot tell a missing event from an unreachable one.
    public var reachesEveryPage: Bool

    public init(pages: Int, reachesEveryPage: Bool = true) {
        self.pages = pages
        self.reachesEveryPage = reachesEveryPage
    }
}

/// An API's URL scheme and paging: what ``SourceCrawler`` needs to crawl a source whose
/// pages an ``Ingester`` reads. An ingester offers one through ``Ingester/crawlScheme``.
public protocol CrawlScheme: Sendable {
    /// The query parameter that carries the API key (`apikey`, `app_id`, `api_key`).
    var keyParameter: String { get }
    var defaultPageSize: Int { get }
    var maximumPageSize: Int { get }

    /// The listings to crawl for a configured source. `lookup` fetches, applies and
    /// returns one page (for searches that turn names into ids).
    func listings(
        for source: SourcesConfiguration.Source, window: DateWindow,
        lookup: @Sendable (ListingRequest) async -> ListingPage?
    ) async -> (requests: [ListingRequest], errors: [String])

    /// The URL of page `page` (counted from 1) of a listing, without the API key.
    func url(for request: ListingRequest, page: Int, pageSize: Int, base: URL) -> URL

    /// The listing's page count, from its first page.
    func pageCount(firstPage: ListingPage, pageSize: Int) -> PageCount

    /// Narrower listings to crawl instead, when the first page shows this one is too deep
    /// to page through (Ticketmaster); nil to go on paging.
    func narrower(_ request: ListingRequest, firstPage: ListingPage, pageSize: Int) -> [ListingRequest]?
}

extension CrawlScheme {
    public func narrower(_ request: ListingRequest, firstPage: ListingPage, pageSize: Int) -> [ListingRequest]? { nil }

    /// Pages of `perPage` entries for `totalEntries`, at least one.
    static func pages(totalEntries: Int?, perPage: Int?, pageSize: Int) -> Int {
        guard let total = totalEntries else { return 1 }
        let size = max(1, perPage ?? pageSize)
        return max(1, (total + size - 1) / size)
    }

    /// `base` + `path`, with the query.
    static func url(base: URL, path: String, query: [URLQueryItem]) -> URL {
        let joined = path.isEmpty ? base : base.appendingPathComponent(path)
        var components = URLComponents(url: joined, resolvingAgainstBaseURL: false)!
        components.percentEncodedQueryItems = query.map {
            URLQueryItem(name: $0.name, value: $0.value?.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed))
        }
        return components.url!
    }
}

extension CharacterSet {
    /// Unreserved characters (RFC 3986): everything else in a query value is escaped.
    static let urlQueryValueAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension Ingester {
    /// How to crawl this source over HTTP; nil when it is read from files only.
    public var crawlScheme: (any CrawlScheme)? { nil }
}
