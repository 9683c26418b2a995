import Foundation
import Listings

/// Last.fm 2.0: one endpoint (`base_url`, e.g. `https://ws.audioscrobbler.com/2.0/`) with
/// `method=geo.getEvents&location=NAME`, `method=artist.getEvents&artist=NAME` or
/// `method=venue.getEvents&venue=ID`, plus `api_key`, `page` (from 1), `limit` and, for
/// the JSON shape, `format=json`; the first page's `total` and `perPage` give the pages.
struct LastFMCrawlScheme: CrawlScheme {
    let json: Bool

    let keyParameter = "api_key"
    let defaultPageSize = 50
    let maximumPageSize = 1000

    func listings(
        for source: SourcesConfiguration.Source, window: DateWindow,
        lookup: @Sendable (ListingRequest) async -> ListingPage?
    ) async -> (requests: [ListingRequest], errors: [String]) {
        func events(_ method: String, _ parameter: String, _ value: String) -> ListingRequest {
            var query = [URLQueryItem(name: "method", value: method), URLQueryItem(name: parameter, value: value)]
            if json { query.append(URLQueryItem(name: "format", value: "json")) }
            return ListingRequest(scope: "\(method)/\(value.lowercased())", path: "", query: query)
        }
        let requests = source.metroAreas.map { events("geo.getEvents", "location", $0) }
            + source.artists.map { events("artist.getEvents", "artist", $0) }
            + source.venues.map { events("venue.getEvents", "venue", $0) }
        return (requests, [])
    }

    func url(for request: ListingRequest, page: Int, pageSize: Int, base: URL) -> URL {
        Self.url(
            base: base, path: request.path,
            query: request.query + [URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "limit", value: String(pageSize))])
    }

    func pageCount(firstPage: ListingPage, pageSize: Int) -> PageCount {
        PageCount(firstPage: firstPage, pageSize: pageSize)
    }
}
