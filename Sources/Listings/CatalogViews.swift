/// An artist as the band page and search show it.
public struct ArtistSummary: Sendable, Hashable, Encodable {
    public var id: Int64
    public var name: String
    public var musicBrainzID: String?
    public var onTourUntil: LocalDate?
    public var sources: [SourceLink]

    public init(id: Int64, name: String, musicBrainzID: String?, onTourUntil: LocalDate?, sources: [SourceLink]) {
        self.id = id
        self.name = name
        self.musicBrainzID = musicBrainzID
        self.onTourUntil = onTourUntil
        self.sources = sources
    }

    enum CodingKeys: String, CodingKey {
        case id, name, sources
        case musicBrainzID = "mbid", onTourUntil = "on_tour_until"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(musicBrainzID, forKey: .musicBrainzID)
        try container.encode(onTourUntil, forKey: .onTourUntil)
        try container.encode(sources, forKey: .sources)
    }
}

/// The band page: an artist and its events in chronological order.
public struct ArtistPage: Sendable, Hashable, Encodable {
    public var artist: ArtistSummary
    public var similar: [ArtistReference]
    public var events: [EventDetail]

    public init(artist: ArtistSummary, similar: [ArtistReference], events: [EventDetail]) {
        self.artist = artist
        self.similar = similar
        self.events = events
    }
}

/// A pointer to an artist, for lists of related artists.
public struct ArtistReference: Sendable, Hashable, Encodable {
    public var id: Int64
    public var name: String

    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// One result of `encore search`.
public struct SearchHit: Sendable, Hashable, Encodable {
    public enum Kind: String, Sendable, Hashable, Encodable { case artist, venue, metroArea = "metro_area" }

    public var kind: Kind
    public var id: Int64
    public var name: String
    /// Where it is (venues, metro areas), for telling namesakes apart.
    public var place: String?
    public var upcomingEvents: Int

    public init(kind: Kind, id: Int64, name: String, place: String?, upcomingEvents: Int) {
        self.kind = kind
        self.id = id
        self.name = name
        self.place = place
        self.upcomingEvents = upcomingEvents
    }

    enum CodingKeys: String, CodingKey {
        case kind, id, name, place
        case upcomingEvents = "upcoming_events"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(place, forKey: .place)
        try container.encode(upcomingEvents, forKey: .upcomingEvents)
    }
}

/// Row counts of the catalog: `encore stats --json`.
public struct CatalogStats: Sendable, Hashable, Encodable {
    public var events: Int
    public var upcomingEvents: Int
    public var cancelledEvents: Int
    public var artists: Int
    public var venues: Int
    public var metroAreas: Int
    public var sourceRecords: Int
    /// Source records per source name.
    public var sources: [String: Int]

    public init(
        events: Int, upcomingEvents: Int, cancelledEvents: Int, artists: Int, venues: Int,
        metroAreas: Int, sourceRecords: Int, sources: [String: Int]
    ) {
        self.events = events
        self.upcomingEvents = upcomingEvents
        self.cancelledEvents = cancelledEvents
        self.artists = artists
        self.venues = venues
        self.metroAreas = metroAreas
        self.sourceRecords = sourceRecords
        self.sources = sources
    }

    enum CodingKeys: String, CodingKey {
        case events, artists, venues, sources
        case upcomingEvents = "upcoming_events", cancelledEvents = "cancelled_events"
        case metroAreas = "metro_areas", sourceRecords = "source_records"
    }
}

/// The band page with its events as ids (chronological): what the static feeds read,
/// since they render each event once and splice it into every page that lists it.
public struct ArtistPageOutline: Sendable, Hashable {
    public var artist: ArtistSummary
    public var similar: [ArtistReference]
    /// Events on or after today.
    public var upcoming: [Int64]
    /// Events before today (and on or after the `pastSince` asked for).
    public var past: [Int64]
    /// How many upcoming shows each similar artist has (absent: none).
    public var similarUpcoming: [Int64: Int]

    public init(
        artist: ArtistSummary, similar: [ArtistReference], upcoming: [Int64], past: [Int64], similarUpcoming: [Int64: Int] = [:]
    ) {
        self.artist = artist
        self.similar = similar
        self.upcoming = upcoming
        self.past = past
        self.similarUpcoming = similarUpcoming
    }
}

/// Rows written since a catalog revision (ascending ids), for incremental feed builds.
public struct CatalogChanges: Sendable, Equatable {
    /// Events whose own row, venue, metro area or acts changed.
    public var events: [Int64]
    /// Artists that changed, and artists whose similar artists did.
    public var artists: [Int64]
    /// Venues that changed, and venues whose metro area did.
    public var venues: [Int64]
    public var metroAreas: [Int64]

    public init(events: [Int64], artists: [Int64], venues: [Int64], metroAreas: [Int64]) {
        self.events = events
        self.artists = artists
        self.venues = venues
        self.metroAreas = metroAreas
    }
}

/// The lists an event can appear on: its venue's, its metro area's and its acts'.
public struct EventOwners: Sendable, Equatable {
    public var eventID: Int64
    public var venueID: Int64?
    public var metroAreaID: Int64?
    public var artistIDs: [Int64]

    public init(eventID: Int64, venueID: Int64?, metroAreaID: Int64?, artistIDs: [Int64]) {
        self.eventID = eventID
        self.venueID = venueID
        self.metroAreaID = metroAreaID
        self.artistIDs = artistIDs
    }
}
