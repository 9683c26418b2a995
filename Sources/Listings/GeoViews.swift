/// An inclusive range of venue-local dates: `--from` .. `--to`.
///
/// An event is in the window when any of its days is: a festival that started before
/// `from` but is still on counts.
public struct DateWindow: Sendable, Hashable {
    public var from: LocalDate
    public var to: LocalDate

    /// Nil when `from` is after `to`.
    public init?(from: LocalDate, to: LocalDate) {
        guard from <= to else { return nil }
        self.from = from
        self.to = to
    }
}

/// How to order events found near a place.
public enum NearbyOrder: String, Sendable, Hashable, CaseIterable {
    case date, distance
}

/// An event and how far its venue is from where the fan is.
public struct NearbyEvent: Sendable, Hashable, Encodable {
    public var event: EventDetail
    public var distanceKilometres: Double

    public init(event: EventDetail, distanceKilometres: Double) {
        self.event = event
        self.distanceKilometres = distanceKilometres
    }

    enum CodingKeys: String, CodingKey { case distanceKilometres = "distance_km" }

    /// The event's own keys plus `distance_km` (rounded to metres).
    public func encode(to encoder: any Encoder) throws {
        try event.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode((distanceKilometres * 1000).rounded() / 1000, forKey: .distanceKilometres)
    }
}

/// A metro area with what is coming up there: `encore metros`.
public struct MetroAreaOverview: Sendable, Hashable, Encodable {
    public var metroArea: MetroAreaSummary
    public var latitude: Double?
    public var longitude: Double?
    public var upcomingEvents: Int
    public var venues: Int
    /// From the place asked about, when there was one.
    public var distanceKilometres: Double?

    public init(
        metroArea: MetroAreaSummary, latitude: Double?, longitude: Double?, upcomingEvents: Int, venues: Int,
        distanceKilometres: Double?
    ) {
        self.metroArea = metroArea
        self.latitude = latitude
        self.longitude = longitude
        self.upcomingEvents = upcomingEvents
        self.venues = venues
        self.distanceKilometres = distanceKilometres
    }

    enum CodingKeys: String, CodingKey {
        case id, name, country, region, lat, lng, venues
        case upcomingEvents = "upcoming_events", distanceKilometres = "distance_km"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(metroArea.id, forKey: .id)
        try container.encode(metroArea.name, forKey: .name)
        try container.encode(metroArea.country, forKey: .country)
        try container.encode(metroArea.region, forKey: .region)
        try container.encode(latitude, forKey: .lat)
        try container.encode(longitude, forKey: .lng)
        try container.encode(upcomingEvents, forKey: .upcomingEvents)
        try container.encode(venues, forKey: .venues)
        try container.encode(distanceKilometres.map { ($0 * 1000).rounded() / 1000 }, forKey: .distanceKilometres)
    }
}

/// The venue page: where it is and what is on.
public struct VenuePage: Sendable, Hashable, Encodable {
    public var venue: VenueSummary
    public var metroArea: MetroAreaSummary?
    public var sources: [SourceLink]
    public var events: [EventDetail]

    public init(venue: VenueSummary, metroArea: MetroAreaSummary?, sources: [SourceLink], events: [EventDetail]) {
        self.venue = venue
        self.metroArea = metroArea
        self.sources = sources
        self.events = events
    }

    enum CodingKeys: String, CodingKey {
        case venue, sources, events
        case metroArea = "metro_area"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(venue, forKey: .venue)
        try container.encode(metroArea, forKey: .metroArea)
        try container.encode(sources, forKey: .sources)
        try container.encode(events, forKey: .events)
    }
}

/// The venue page with its events as ids (chronological); see ``ArtistPageOutline``.
public struct VenuePageOutline: Sendable, Hashable {
    public var venue: VenueSummary
    public var metroArea: MetroAreaSummary?
    public var sources: [SourceLink]
    public var eventIDs: [Int64]

    public init(venue: VenueSummary, metroArea: MetroAreaSummary?, sources: [SourceLink], eventIDs: [Int64]) {
        self.venue = venue
        self.metroArea = metroArea
        self.sources = sources
        self.eventIDs = eventIDs
    }
}

/// An event as a map shows it: a pin at its venue.
public struct EventPin: Sendable, Hashable {
    public var id: Int64
    public var title: String
    public var start: EventStart
    public var status: EventStatus
    public var venue: VenueSummary?

    public init(id: Int64, title: String, start: EventStart, status: EventStatus, venue: VenueSummary?) {
        self.id = id
        self.title = title
        self.start = start
        self.status = status
        self.venue = venue
    }
}
