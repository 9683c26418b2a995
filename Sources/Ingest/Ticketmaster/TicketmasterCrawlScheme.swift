import Foundation
import Listings

/// Ticketmaster Discovery API v2: `{base}/events.json?apikey=KEY&classificationName=music
/// &startDateTime=…&endDateTime=…&sort=date,asc&page=N&size=S` (`page` from 0, `size`
/// ≤ 200). Metro areas are DMA ids (`dmaId`) or city names (`city`), artists attraction
/// ids (`attractionId`) or names (`keyword`), venues venue ids (`venueId`).
///
/// Deep paging stops at the 1,000th item (`size × page < 1000`): a listing that holds
/// more is split by date (``ResultLimit``).
struct TicketmasterCrawlScheme: CrawlScheme {
    let keyParameter = "apikey"
    let defaultPageSize = 200
    let maximumPageSize = 200
    static let limit = ResultLimit(results: 1000)

    func listings(
        for source: SourcesConfiguration.Source, window: DateWindow,
        lookup: @Sendable (ListingRequest) async -> ListingPage?
    ) async -> (requests: [ListingRequest], errors: [String]) {
        func events(_ scope: String, _ parameter: String, _ value: String) -> ListingRequest {
            ListingRequest(
                scope: scope, path: "events.json",
                query: [URLQueryItem(name: parameter, value: value), URLQueryItem(name: "classificationName", value: "music")],
                window: window)
        }
        var requests: [ListingRequest] = []
        for metro in source.metroAreas {
            requests.append(metro.allSatisfy(\.isNumber) ? events("dma/\(metro)", "dmaId", metro) : events("city/\(metro)", "city", metro))
        }
        for artist in source.artists {
            let isID = !artist.contains(" ") && artist.count >= 10 && artist.hasPrefix("K")
            requests.append(isID ? events("attraction/\(artist)", "attractionId", artist) : events("keyword/\(artist)", "keyword", artist))
        }
        for venue in source.venues { requests.append(events("venue/\(venue)", "venueId", venue)) }
        return (requests, [])
    }

    func url(for request: ListingRequest, page: Int, pageSize: Int, base: URL) -> URL {
        var query = request.query
        if let window = request.window {
            // The window's local days, padded by a day each side: Ticketmaster compares UTC
            // instants, and a show late on the last day is the next day in UTC.
            query.append(URLQueryItem(name: "startDateTime", value: "\(window.from.adding(days: -1))T00:00:00Z"))
            query.append(URLQueryItem(name: "endDateTime", value: "\(window.to.adding(days: 1))T23:59:59Z"))
        }
        query += [
            URLQueryItem(name: "sort", value: "date,asc"),
            URLQueryItem(name: "page", value: String(page - 1)), URLQueryItem(name: "size", value: String(pageSize)),
        ]
        return Self.url(base: base, path: request.path, query: query)
    }

    func pageCount(firstPage: ListingPage, pageSize: Int) -> PageCount {
        Self.limit.pageCount(firstPage: firstPage, pageSize: pageSize)
    }

    func narrower(_ request: ListingRequest, firstPage: ListingPage, pageSize: Int) -> [ListingRequest]? {
        Self.limit.narrower(request, firstPage: firstPage)
    }
}
