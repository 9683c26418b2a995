import Foundation
import Geo
import Listings

/// `index.json`.
struct FeedIndex: Encodable {
    struct Metro: Encodable {
        let id: Int64
        let name: String
        let country: String?
        let upcomingEvents: Int
        let path: String
        let geojson: String
        /// Where the metro area is, for a page that finds the nearest ones ("near me").
        let latitude: Double?
        let longitude: Double?

        enum CodingKeys: String, CodingKey {
            case id, name, country, path, geojson
            case upcomingEvents = "upcoming_events"
            case latitude = "lat", longitude = "lng"
        }
    }

    let generatedAt: String
    let today: String
    let counts: CatalogStats
    let metros: [Metro]

    enum CodingKeys: String, CodingKey {
        case today, counts, metros
        case generatedAt = "generated_at"
    }
}

/// Where a list document sits among the pages of its list: the first page at the list's
/// own path (`artists/{slug}.json`), the others beside it (`artists/{slug}/page-2.json`).
struct FeedPaging: Sendable, Equatable {
    let page: Int
    let pages: Int
    /// Entries in the whole list.
    let total: Int
    let next: String?
    let previous: String?

    /// The one page of a list that fits on it.
    static func single(total: Int) -> FeedPaging {
        FeedPaging(page: 1, pages: 1, total: total, next: nil, previous: nil)
    }

    /// The pages of a list of `total` entries, `size` a page (at least one page).
    static func pages(of total: Int, size: Int, firstPath: String) -> [(path: String, paging: FeedPaging, range: Range<Int>)] {
        let count = max(1, (total + size - 1) / size)
        let stem = firstPath.hasSuffix(".json") ? String(firstPath.dropLast(5)) : firstPath
        func path(_ page: Int) -> String { page == 1 ? firstPath : "\(stem)/page-\(page).json" }
        return (1...count).map { page in
            let paging = FeedPaging(
                page: page, pages: count, total: total, next: page < count ? path(page + 1) : nil,
                previous: page > 1 ? path(page - 1) : nil)
            return (path(page), paging, ((page - 1) * size)..<min(page * size, total))
        }
    }
}

/// `metros/{id}.json` and its further pages.
struct MetroFeed: Encodable, Sendable {
    let metroArea: MetroAreaSummary
    let latitude: Double?
    let longitude: Double?
    /// This page's share of the upcoming events; `paging.total` counts them all.
    let events: EventList
    let paging: FeedPaging
    /// Links to tonight's, this weekend's and each month's concerts (the page only).
    var calendar: MetroCalendar? = nil

    /// The page with its records read (``EventList/loaded()``), for its JSON and its HTML.
    func loaded() -> MetroFeed {
        MetroFeed(
            metroArea: metroArea, latitude: latitude, longitude: longitude, events: events.loaded(), paging: paging,
            calendar: calendar)
    }

    /// The list is called `upcoming` so that, with keys sorted, the metro area and
    /// paging come first and a person opening the file sees what it is.
    enum CodingKeys: String, CodingKey {
        case page, pages, next, previous, lat, lng
        case events = "upcoming"
        case metroArea = "metro_area", totalEvents = "total_events"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(metroArea, forKey: .metroArea)
        try container.encode(latitude, forKey: .lat)
        try container.encode(longitude, forKey: .lng)
        try container.encode(paging.total, forKey: .totalEvents)
        try container.encode(paging.page, forKey: .page)
        try container.encode(paging.pages, forKey: .pages)
        try container.encode(paging.next, forKey: .next)
        try container.encode(paging.previous, forKey: .previous)
        try container.encode(events, forKey: .events)
    }
}

/// A list document with a page for people beside its JSON.
protocol SiteDocument: Encodable, Sendable {
    /// The page written at `path`.
    func html(path: String) -> Data
    /// The document with its lists' records read (``EventList/loaded()``), for its JSON
    /// and its page.
    func loaded() -> Self
}

/// `artists/{slug}.json`.
struct ArtistFeed: SiteDocument {
    struct Similar: Encodable {
        let id: Int64
        let name: String
        /// Nil when the similar artist has no page (no recent or upcoming events).
        let slug: String?
        /// Its upcoming shows: the page lists those that have some.
        var upcoming = 0

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(slug, forKey: .slug)
            try container.encode(upcoming, forKey: .upcoming)
        }

        enum CodingKeys: String, CodingKey { case id, name, slug, upcoming }
    }

    let artist: ArtistSummary
    let slug: String
    /// This page's share of the upcoming events.
    let upcoming: EventList
    /// On the first page; empty on the others.
    let recentPast: EventList
    let similar: [Similar]
    /// Upcoming events are paginated; `total` counts them all.
    let paging: FeedPaging

    init(
        artist: ArtistSummary, slug: String, upcoming: EventList, recentPast: EventList, similar: [Similar],
        paging: FeedPaging? = nil
    ) {
        self.artist = artist
        self.slug = slug
        self.upcoming = upcoming
        self.recentPast = recentPast
        self.similar = similar
        self.paging = paging ?? .single(total: upcoming.count)
    }

    func loaded() -> ArtistFeed {
        ArtistFeed(
            artist: artist, slug: slug, upcoming: upcoming.loaded(), recentPast: recentPast.loaded(), similar: similar,
            paging: paging)
    }

    enum CodingKeys: String, CodingKey {
        case artist, slug, upcoming, similar, next, page, pages, previous
        case recentPast = "recent_past", totalUpcoming = "total_upcoming"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(artist, forKey: .artist)
        try container.encode(paging.next, forKey: .next)
        try container.encode(paging.page, forKey: .page)
        try container.encode(paging.pages, forKey: .pages)
        try container.encode(paging.previous, forKey: .previous)
        try container.encode(recentPast, forKey: .recentPast)
        try container.encode(similar, forKey: .similar)
        try container.encode(slug, forKey: .slug)
        try container.encode(paging.total, forKey: .totalUpcoming)
        try container.encode(upcoming, forKey: .upcoming)
    }
}

/// `venues/{id}.json`: a ``VenuePage`` whose events may be spliced.
struct VenueFeed: SiteDocument {
    let venue: VenueSummary
    let metroArea: MetroAreaSummary?
    let sources: [SourceLink]
    /// This page's share of the venue's upcoming events.
    let events: EventList
    /// Events are paginated; `total` counts them all.
    let paging: FeedPaging

    init(
        venue: VenueSummary, metroArea: MetroAreaSummary?, sources: [SourceLink], events: EventList,
        paging: FeedPaging? = nil
    ) {
        self.venue = venue
        self.metroArea = metroArea
        self.sources = sources
        self.events = events
        self.paging = paging ?? .single(total: events.count)
    }

    init(_ page: VenuePage) {
        self.init(venue: page.venue, metroArea: page.metroArea, sources: page.sources, events: .details(page.events))
    }

    func loaded() -> VenueFeed {
        VenueFeed(venue: venue, metroArea: metroArea, sources: sources, events: events.loaded(), paging: paging)
    }

    enum CodingKeys: String, CodingKey {
        case venue, sources, events, next, page, pages, previous
        case metroArea = "metro_area", totalEvents = "total_events"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(venue, forKey: .venue)
        try container.encode(metroArea, forKey: .metroArea)
        try container.encode(sources, forKey: .sources)
        try container.encode(events, forKey: .events)
        try container.encode(paging.next, forKey: .next)
        try container.encode(paging.page, forKey: .page)
        try container.encode(paging.pages, forKey: .pages)
        try container.encode(paging.previous, forKey: .previous)
        try container.encode(paging.total, forKey: .totalEvents)
    }
}

/// `events/{id}.json`: the concert page, with directions.
struct EventFeed: Encodable, Sendable {
    let event: EventDetail

    enum CodingKeys: String, CodingKey { case directions }

    struct Directions: Encodable {
        let openStreetMap: String
        let geo: String

        enum CodingKeys: String, CodingKey {
            case geo
            case openStreetMap = "openstreetmap"
        }
    }

    /// How to get there, when the venue has coordinates.
    var directions: Directions? {
        guard let lat = event.venue?.latitude, let lng = event.venue?.longitude else { return nil }
        return Directions(
            openStreetMap: "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lng)#map=17/\(lat)/\(lng)",
            geo: "geo:\(lat),\(lng)")
    }

    func encode(to encoder: any Encoder) throws {
        try event.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(directions, forKey: .directions)
    }
}

/// `users/{name}/plans.json`: each plan with its event's summary (``EventSummary``).
struct UserPlansFeed: Encodable {
    let user: String
    let plans: [PlanEntry]
}

/// `users/{name}/feed.json`: each suggestion with its event's summary.
struct UserFeed: Encodable {
    let user: String
    let entries: [FeedEntry]
}

/// One row of `search/artists.json`.
struct SearchEntry: Encodable {
    let name: String
    /// The folded name a client matches typed text against.
    let key: String
    let slug: String
}

/// `search/artists.json`: a bare array of ``SearchEntry``, sorted by key then slug.
struct ArtistSearchIndex: Encodable {
    let entries: [SearchEntry]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries)
    }
}

/// One row of `search/venues.json`.
struct VenueSearchEntry: Encodable {
    let name: String
    /// The folded name a client matches typed text against.
    let key: String
    let id: Int64
    let city: String?
}

/// `search/venues.json`: a bare array of ``VenueSearchEntry``, sorted by key then id.
struct VenueSearchIndex: Encodable {
    let entries: [VenueSearchEntry]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries)
    }
}

/// RFC 7946 GeoJSON: one point per venue, its events in properties.
enum GeoJSON {
    struct FeatureCollection: Encodable {
        let type = "FeatureCollection"
        let features: [Feature]
    }

    struct Feature: Encodable {
        let type = "Feature"
        let id: Int64
        let geometry: Point
        let properties: Properties
    }

    struct Point: Encodable {
        let type = "Point"
        /// Longitude first, as RFC 7946 requires.
        let coordinates: [Double]
    }

    struct Properties: Encodable {
        let name: String
        let city: String?
        let approximate: Bool
        let events: [EventStub]
    }

    struct EventStub: Encodable {
        let id: Int64
        let title: String
        let date: String
        let time: String?
        let status: String

        init(id: Int64, title: String, date: String, time: String?, status: String) {
            self.id = id
            self.title = title
            self.date = date
            self.time = time
            self.status = status
        }

        init(_ event: EventPin) {
            self.init(
                id: event.id, title: event.title, date: event.start.localDate.description,
                time: event.start.localTime.map { String($0.description.prefix(5)) }, status: event.status.rawValue)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(date, forKey: .date)
            try container.encode(time, forKey: .time)
            try container.encode(status, forKey: .status)
        }

        enum CodingKeys: String, CodingKey { case id, title, date, time, status }
    }

    static func venues(of events: [EventDetail]) -> FeatureCollection {
        venues(of: events.map { EventPin(id: $0.id, title: $0.title, start: $0.start, status: $0.status, venue: $0.venue) })
    }

    static func venues(of events: [EventPin]) -> FeatureCollection {
        var byVenue: [Int64: (VenueSummary, [EventStub])] = [:]
        for event in events {
            guard let venue = event.venue, venue.latitude != nil, venue.longitude != nil else { continue }
            byVenue[venue.id, default: (venue, [])].1.append(EventStub(event))
        }
        let features = byVenue.keys.sorted().map { id -> Feature in
            let (venue, stubs) = byVenue[id]!
            return Feature(
                id: id, geometry: Point(coordinates: [venue.longitude!, venue.latitude!]),
                properties: Properties(name: venue.name, city: venue.city, approximate: venue.coordinatesApproximate, events: stubs))
        }
        return FeatureCollection(features: features)
    }
}
