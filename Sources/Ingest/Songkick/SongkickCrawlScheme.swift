import Foundation
import Listings

/// Songkick API v3: `{base}/metro_areas/{id}/calendar.json`, `{base}/artists/{id}/calendar.json`,
/// `{base}/venues/{id}/calendar.json` with `apikey`, `page` and `per_page` (≤ 50), and
/// `min_date`/`max_date` for the window; page 1's `totalEntries` says how many pages
/// follow. Names are looked up first: artists with `search/artists`, places with
/// `search/locations` (the first result's metro area).
struct SongkickCrawlScheme: CrawlScheme {
    /// `json` or `xml`.
    let fileExtension: String

    let keyParameter = "apikey"
    let defaultPageSize = 50
    let maximumPageSize = 50

    func listings(
        for source: SourcesConfiguration.Source, window: DateWindow,
        lookup: @Sendable (ListingRequest) async -> ListingPage?
    ) async -> (requests: [ListingRequest], errors: [String]) {
        var requests: [ListingRequest] = []
        var errors: [String] = []
        let dates = [
            URLQueryItem(name: "min_date", value: window.from.description),
            URLQueryItem(name: "max_date", value: window.to.description),
        ]
        func calendar(_ kind: String, _ id: String) -> ListingRequest {
            ListingRequest(scope: "\(kind)/\(id)/calendar", path: "\(kind)/\(id)/calendar.\(fileExtension)", query: dates)
        }
        for metro in source.metroAreas {
            if metro.allSatisfy(\.isNumber) {
                requests.append(calendar("metro_areas", metro))
            } else if let id = await lookup(search("locations", metro))?.metroAreas.first?.sourceID {
                requests.append(calendar("metro_areas", id))
            } else {
                errors.append("no Songkick metro area for \"\(metro)\"")
            }
        }
        for venue in source.venues { requests.append(calendar("venues", venue)) }
        for artist in source.artists {
            if artist.allSatisfy(\.isNumber) {
                requests.append(calendar("artists", artist))
            } else if let id = await lookup(search("artists", artist))?.artists.first?.sourceID {
                requests.append(calendar("artists", id))
            } else {
                errors.append("no Songkick artist called \"\(artist)\"")
            }
        }
        return (requests, errors)
    }

    private func search(_ kind: String, _ query: String) -> ListingRequest {
        ListingRequest(
            scope: "search/\(kind)", path: "search/\(kind).\(fileExtension)", query: [URLQueryItem(name: "query", value: query)],
            paged: false, listsEvents: false)
    }

    func url(for request: ListingRequest, page: Int, pageSize: Int, base: URL) -> URL {
        var query = request.query
        if request.paged {
            query += [URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "per_page", value: String(pageSize))]
        }
        return Self.url(base: base, path: request.path, query: query)
    }

    func pageCount(firstPage: ListingPage, pageSize: Int) -> PageCount {
        PageCount(firstPage: firstPage, pageSize: pageSize)
    }
}
