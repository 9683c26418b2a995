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

extension PageCount {
    /// Every page of a listing, from its first page: its `totalEntries` in pages of its
    /// `perPage` (else `pageSize`) entries, at least one.
    init(firstPage: ListingPage, pageSize: Int) {
        guard let total = firstPage.paging?.totalEntries else {
            self.init(pages: 1)
            return
        }
        let size = max(1, firstPage.paging?.perPage ?? pageSize)
        self.init(pages: max(1, (total + size - 1) / size))
    }
}

/// An API's URL scheme and paging: what ``SourceCrawler`` needs to crawl a source whose
/// pages an ``Ingester`` reads. An ingester offers one through ``Ingester/crawlScheme``.
public protocol CrawlScheme: Sendable {
    /// The query parameter that carries the API key (`apikey`, `app_id`, `api_key`).
    var keyParameter: String { get }
    var defaultPageSize: Int { get }
    /// The most a configuration's `page_size` may ask for.
    var maximumPageSize: Int { get }
    /// The `[[source]]` keys (`metro_areas`, `artists`, `venues`) this API cannot crawl,
    /// each with the message that rejects a configuration listing one.
    var unsupportedKeys: [String: String] { get }

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
    public var unsupportedKeys: [String: String] { [:] }

    public func narrower(_ request: ListingRequest, firstPage: ListingPage, pageSize: Int) -> [ListingRequest]? { nil }

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

/// The most results an API serves for one query, however it is paged (Ticketmaster
/// 1,000, SeatGeek 10,000). A listing deeper than that is split into the halves of its
/// date window, again and again, until each fits; a single day that still holds more is
/// crawled as far as the API allows and does not count as complete.
struct ResultLimit: Sendable {
    let results: Int

    /// The pages to ask for: all of them, or as many as the limit lets through.
    func pageCount(firstPage: ListingPage, pageSize: Int) -> PageCount {
        let pages = PageCount(firstPage: firstPage, pageSize: pageSize).pages
        let reachable = max(1, results / max(1, pageSize))
        return PageCount(pages: min(pages, reachable), reachesEveryPage: pages <= reachable)
    }

    /// The two halves of the request's date window when its first page holds more than
    /// the limit; nil when it fits, has no window, or is one day already.
    func narrower(_ request: ListingRequest, firstPage: ListingPage) -> [ListingRequest]? {
        guard let total = firstPage.paging?.totalEntries, total > results, let window = request.window,
            window.from < window.to
        else { return nil }
        let days = window.to.daysSinceEpoch - window.from.daysSinceEpoch
        let middle = window.from.adding(days: days / 2)
        var early = request
        early.window = DateWindow(from: window.from, to: middle)
        var late = request
        late.window = DateWindow(from: middle.adding(days: 1), to: window.to)
        return [early, late]
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
