import Foundation
import Geo
import Listings

/// SeatGeek Platform API v2: `{base}/events?client_id=ID&taxonomies.name=concert
/// &datetime_local.gte=FROMT00:00:00&datetime_local.lte=TOT23:59:59
/// &sort=datetime_local.asc&per_page=S&page=N` (`page` from 1, `meta.total` results).
///
/// - `metro_areas`: SeatGeek has no metro area ids; each entry is a place name resolved
///   by Encore's gazetteer (`Bilbao`, `Columbus, OH`) or a `LAT,LNG` pair, searched with
///   `lat`, `lon` and `range=30mi` (SeatGeek's own default radius).
/// - `venues`: SeatGeek venue ids (`venue.id`).
/// - `artists`: performer slugs (`performers.slug`); a name becomes its slug the way
///   SeatGeek writes them (`Maroon 5` → `maroon-5`), so no lookup request is needed.
///
/// The window is the venue's wall clock (`datetime_local`), so it needs no padding.
/// SeatGeek serves at most 10,000 results of one query: a deeper listing is split by
/// date (``ResultLimit``).
struct SeatGeekCrawlScheme: CrawlScheme {
    let keyParameter = "client_id"
    let defaultPageSize = 100
    let maximumPageSize = 500
    static let limit = ResultLimit(results: 10_000)
    static let range = "30mi"

    /// Resolves place names; nil for the gazetteer bundled with Encore.
    var places: Gazetteer?

    func listings(
        for source: SourcesConfiguration.Source, window: DateWindow,
        lookup: @Sendable (ListingRequest) async -> ListingPage?
    ) async -> (requests: [ListingRequest], errors: [String]) {
        func events(_ scope: String, _ filters: [URLQueryItem]) -> ListingRequest {
            ListingRequest(
                scope: scope, path: "events", query: filters + [URLQueryItem(name: "taxonomies.name", value: "concert")],
                window: window)
        }
        var requests: [ListingRequest] = []
        var errors: [String] = []
        for place in source.metroAreas {
            switch point(place) {
            case .success(let coordinate):
                requests.append(events("places/\(place.lowercased())", [
                    URLQueryItem(name: "lat", value: Self.degrees(coordinate.latitude)),
                    URLQueryItem(name: "lon", value: Self.degrees(coordinate.longitude)),
                    URLQueryItem(name: "range", value: Self.range),
                ]))
            case .failure(let message):
                errors.append("metro area \"\(place)\": \(message.text)")
            }
        }
        for venue in source.venues { requests.append(events("venues/\(venue)", [URLQueryItem(name: "venue.id", value: venue)])) }
        for artist in source.artists {
            let slug = Self.slug(artist)
            guard !slug.isEmpty else {
                errors.append("artist \"\(artist)\" has no SeatGeek slug (letters or digits)")
                continue
            }
            requests.append(events("performers/\(slug)", [URLQueryItem(name: "performers.slug", value: slug)]))
        }
        return (requests, errors)
    }

    private struct Unresolved: Error { let text: String }

    /// A `LAT,LNG` pair, or a place name's city.
    private func point(_ place: String) -> Result<Coordinate, Unresolved> {
        let parts = place.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) {
            guard (-90.0...90.0).contains(latitude), (-180.0...180.0).contains(longitude) else {
                return .failure(Unresolved(text: "\(latitude),\(longitude) is not a point on Earth"))
            }
            return .success(Coordinate(latitude: latitude, longitude: longitude))
        }
        guard let gazetteer = places ?? (try? Gazetteer.bundled()) else {
            return .failure(Unresolved(text: "the gazetteer could not be loaded; give LAT,LNG"))
        }
        do {
            return .success(try gazetteer.resolve(place).chosen.coordinate)
        } catch {
            return .failure(Unresolved(text: error.description))
        }
    }

    /// Four decimals (about 11 m): the same place is the same URL on every run.
    static func degrees(_ value: Double) -> String {
        String(format: "%.4f", value)
    }

    /// `Maroon 5` → `maroon-5`, `Beyoncé` → `beyonce`, `AC/DC` → `ac-dc`.
    static func slug(_ name: String) -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var slug = ""
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if scalar != "'", scalar != "’", !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.lowercased()
    }

    func url(for request: ListingRequest, page: Int, pageSize: Int, base: URL) -> URL {
        var query = request.query
        if let window = request.window {
            query.append(URLQueryItem(name: "datetime_local.gte", value: "\(window.from)T00:00:00"))
            query.append(URLQueryItem(name: "datetime_local.lte", value: "\(window.to)T23:59:59"))
        }
        query += [
            URLQueryItem(name: "sort", value: "datetime_local.asc"),
            URLQueryItem(name: "per_page", value: String(pageSize)), URLQueryItem(name: "page", value: String(page)),
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
