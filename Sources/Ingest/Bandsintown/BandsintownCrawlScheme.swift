import Foundation
import Listings

/// Bandsintown REST API v3: `{base}/artists/{name}/events?app_id=KEY&date=FROM,TO` answers
/// an artist's events as one list (no paging), and `{base}/artists/{name}` the artist
/// (for its MusicBrainz id). Bandsintown's public API lists artists' events only, so a
/// configuration gives it `artists`, never metro areas or venues.
struct BandsintownCrawlScheme: CrawlScheme {
    let keyParameter = "app_id"
    let defaultPageSize = 1
    let maximumPageSize = 1
    let unsupportedKeys = Dictionary(uniqueKeysWithValues: ["metro_areas", "venues"].map { key in
        (key, "Bandsintown's API lists artists' events only; list artists, not \(key)")
    })

    func listings(
        for source: SourcesConfiguration.Source, window: DateWindow,
        lookup: @Sendable (ListingRequest) async -> ListingPage?
    ) async -> (requests: [ListingRequest], errors: [String]) {
        var requests: [ListingRequest] = []
        for artist in source.artists {
            let name = Self.pathSegment(artist)
            requests.append(ListingRequest(scope: "artists/\(artist.lowercased())", path: "artists/\(name)", paged: false, listsEvents: false))
            requests.append(ListingRequest(
                scope: "artists/\(artist.lowercased())/events", path: "artists/\(name)/events",
                query: [URLQueryItem(name: "date", value: "\(window.from),\(window.to)")], paged: false))
        }
        return (requests, [])
    }

    /// Bandsintown wants `/`, `?`, `*` and `"` in names escaped twice (`AC%252FDC`).
    static func pathSegment(_ name: String) -> String {
        var text = ""
        for character in name {
            switch character {
            case "/": text += "%2F"
            case "?": text += "%3F"
            case "*": text += "%2A"
            case "\"": text += "%27C"
            default: text.append(character)
            }
        }
        return text
    }

    func url(for request: ListingRequest, page: Int, pageSize: Int, base: URL) -> URL {
        Self.url(base: base, path: request.path, query: request.query)
    }

    func pageCount(firstPage: ListingPage, pageSize: Int) -> PageCount { PageCount(pages: 1) }
}
