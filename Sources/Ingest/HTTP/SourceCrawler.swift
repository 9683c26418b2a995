import Foundation
import Listings

/// Crawls one configured source over HTTP with its API's own URL scheme and paging,
/// applying each page as it arrives (one transaction per page, never a whole crawl in
/// memory).
///
/// Songkick (`songkick-json`, `songkick-xml`): `{base}/metro_areas/{id}/calendar.json`,
/// `{base}/artists/{id}/calendar.json`, `{base}/venues/{id}/calendar.json`, with
/// `apikey`, `page` and `per_page` (≤ 50); page 1's `totalEntries` says how many pages
/// follow. Artist names (not ids) are looked up with `{base}/search/artists.json?query=`.
/// Other formats' URL schemes are not crawled yet.
public struct SourceCrawler: Sendable {
    public let source: SourcesConfiguration.Source
    public let apiKey: String?
    public let fetcher: HTTPFetcher
    public let ingestion: FileIngestion
    public let state: any CrawlStateStore

    public init(
        source: SourcesConfiguration.Source, apiKey: String?, fetcher: HTTPFetcher, ingestion: FileIngestion,
        state: any CrawlStateStore
    ) {
        self.source = source
        self.apiKey = apiKey
        self.fetcher = fetcher
        var ingestion = ingestion
        ingestion.format = source.format
        self.ingestion = ingestion
        self.state = state
    }

    /// Formats whose API this crawler knows.
    public static let crawlableFormats: Set<String> = ["songkick-json", "songkick-xml"]

    public func crawl(into sink: any ListingSink, log: @Sendable (String) -> Void = { _ in }) async -> SourceRunSummary {
        var summary = SourceRunSummary(name: source.name)
        guard Self.crawlableFormats.contains(source.format) else {
            summary.errors.append("crawling \(source.format) over HTTP is not supported yet")
            summary.pagesFailed += 1
            return summary
        }
        var calendars: [String] = source.metroAreas.map { "metro_areas/\($0)/calendar" }
        calendars += source.venues.map { "venues/\($0)/calendar" }
        for artist in source.artists {
            if artist.allSatisfy(\.isNumber) {
                calendars.append("artists/\(artist)/calendar")
            } else if let id = await artistID(named: artist, summary: &summary, sink: sink) {
                calendars.append("artists/\(id)/calendar")
            }
        }
        for calendar in calendars {
            await crawlCalendar(calendar, into: sink, summary: &summary, log: log)
        }
        return summary
    }

    private var fileExtension: String { source.format.hasSuffix("xml") ? "xml" : "json" }
    private var pageSize: Int { min(source.pageSize ?? 50, 50) }

    func url(_ path: String, _ query: [(String, String)]) -> URL {
        var components = URLComponents(url: source.baseURL.appendingPathComponent("\(path).\(fileExtension)"), resolvingAgainstBaseURL: false)!
        var items = query.map { URLQueryItem(name: $0.0, value: $0.1) }
        if let apiKey { items.insert(URLQueryItem(name: "apikey", value: apiKey), at: 0) }
        components.queryItems = items
        return components.url!
    }

    private func crawlCalendar(
        _ path: String, into sink: any ListingSink, summary: inout SourceRunSummary, log: @Sendable (String) -> Void
    ) async {
        var page = 1
        var pages = 1
        while page <= pages {
            let pageURL = url(path, [("page", String(page)), ("per_page", String(pageSize))])
            let key = fetcher.redacted(pageURL.absoluteString)
            let known = try? state.crawlState(for: key)
            summary.requests += 1
            switch await fetcher.fetch(pageURL, requestsPerSecond: source.requestsPerSecond,
                                       validators: known.map { CacheValidators(etag: $0.etag, lastModified: $0.lastModified) }) {
            case .notModified:
                summary.pagesUnchanged += 1
                if page == 1, let total = known?.totalPages { pages = total }
            case .failed(let failure):
                summary.pagesFailed += 1
                summary.errors.append(failure.description)
                log("error: \(failure)")
                // Without page 1 the number of pages is unknown; later pages still count.
            case .fetched(let data, let validators):
                let (result, parsed) = ingestion.ingestPage(data: data, locator: key, into: sink)
                switch result {
                case .success(let outcome):
                    if outcome.skippedAsUnchanged { summary.pagesUnchanged += 1 } else { summary.pagesFetched += 1 }
                    summary.eventsNew += outcome.eventsNew
                    summary.eventsMerged += outcome.eventsMerged
                    summary.eventsUpdated += outcome.eventsUpdated
                    summary.eventsUnchanged += outcome.eventsUnchanged
                    if page == 1, let paging = parsed?.paging, let total = paging.totalEntries {
                        let perPage = max(1, paging.perPage ?? pageSize)
                        pages = max(1, (total + perPage - 1) / perPage)
                        if let limit = source.maxPages { pages = min(pages, limit) }
                    }
                    try? state.saveCrawlState(
                        CrawlPageState(etag: validators.etag, lastModified: validators.lastModified, totalPages: page == 1 ? pages : nil),
                        for: key)
                case .failure(let error):
                    summary.pagesFailed += 1
                    summary.errors.append(fetcher.redacted(error.description))
                    log("error: \(fetcher.redacted(error.description))")
                }
            }
            page += 1
        }
    }

    /// The source's id for an artist name: the first result of an artist search, whose
    /// artists are ingested too.
    private func artistID(named name: String, summary: inout SourceRunSummary, sink: any ListingSink) async -> String? {
        let searchURL = url("search/artists", [("query", name)])
        summary.requests += 1
        guard case .fetched(let data, _) = await fetcher.fetch(searchURL, requestsPerSecond: source.requestsPerSecond) else {
            summary.errors.append("artist search for \"\(name)\" failed")
            return nil
        }
        let (_, page) = ingestion.ingestPage(data: data, locator: fetcher.redacted(searchURL.absoluteString), into: sink)
        guard let id = page?.artists.first?.sourceID else {
            summary.errors.append("no artist called \"\(name)\" at \(source.name)")
            return nil
        }
        return id
    }
}
