/// What a fan can follow.
public enum TrackedKind: String, Sendable, Hashable, Codable, CaseIterable {
    case artist, venue, city
}

/// What a fan's home feed shows.
public enum FeedMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every concert in her area.
    case all
    /// Concerts with an artist she tracks or at a venue she tracks.
    case tracked
    /// Concerts with an artist she tracks.
    case trackedArtists = "tracked-artists"
}

/// A fan's settings (`encore settings`).
public struct FanSettings: Sendable, Hashable, Encodable {
    public var user: String
    /// Where she lives, as she typed it, and its position.
    public var homeLabel: String?
    public var homeLatitude: Double?
    public var homeLongitude: Double?
    public var radiusKilometres: Double
    public var feedMode: FeedMode

    public init(
        user: String, homeLabel: String? = nil, homeLatitude: Double? = nil, homeLongitude: Double? = nil,
        radiusKilometres: Double = 50, feedMode: FeedMode = .all
    ) {
        self.user = user
        self.homeLabel = homeLabel
        self.homeLatitude = homeLatitude
        self.homeLongitude = homeLongitude
        self.radiusKilometres = radiusKilometres
        self.feedMode = feedMode
    }

    enum CodingKeys: String, CodingKey {
        case user, home, lat, lng
        case radiusKilometres = "radius_km", feedMode = "feed"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        try container.encode(homeLabel, forKey: .home)
        try container.encode(homeLatitude, forKey: .lat)
        try container.encode(homeLongitude, forKey: .lng)
        try container.encode(radiusKilometres, forKey: .radiusKilometres)
        try container.encode(feedMode, forKey: .feedMode)
    }
}

/// Something a fan tracks.
public struct TrackedItem: Sendable, Hashable, Encodable {
    public var kind: TrackedKind
    /// Artist or venue id; the GeoNames id for a city.
    public var id: Int64
    public var name: String
    public var latitude: Double?
    public var longitude: Double?

    public init(kind: TrackedKind, id: Int64, name: String, latitude: Double? = nil, longitude: Double? = nil) {
        self.kind = kind
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }

    enum CodingKeys: String, CodingKey { case kind, id, name, lat, lng }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(latitude, forKey: .lat)
        try container.encode(longitude, forKey: .lng)
    }
}

/// A concert a fan said she is going to, with what she should know about it.
public struct PlanEntry: Sendable, Hashable, Encodable {
    public var event: EventDetail
    /// When she said she was going.
    public var addedAt: String
    /// Her other plans on the same evening (venue-local date).
    public var conflicts: [Int64]
    /// "cancelled", "postponed", "rescheduled" or "moved" (date or venue changed since
    /// she planned); nil when nothing changed.
    public var alert: String?

    public init(event: EventDetail, addedAt: String, conflicts: [Int64], alert: String?) {
        self.event = event
        self.addedAt = addedAt
        self.conflicts = conflicts
        self.alert = alert
    }

    enum CodingKeys: String, CodingKey {
        case event, conflicts, alert
        case addedAt = "added_at"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event, forKey: .event)
        try container.encode(addedAt, forKey: .addedAt)
        try container.encode(conflicts, forKey: .conflicts)
        try container.encode(alert, forKey: .alert)
    }
}

/// One concert in a fan's home feed.
public struct FeedEntry: Sendable, Hashable, Encodable {
    public var event: EventDetail
    public var distanceKilometres: Double
    /// True when it was not in her feed the last time she looked.
    public var isNew: Bool
    /// The ranked feed's score and its parts; nil in date or distance order.
    public var score: FeedScore?

    public init(event: EventDetail, distanceKilometres: Double, isNew: Bool, score: FeedScore? = nil) {
        self.event = event
        self.distanceKilometres = distanceKilometres
        self.isNew = isNew
        self.score = score
    }

    enum CodingKeys: String, CodingKey {
        case event, score
        case distanceKilometres = "distance_km", isNew = "new"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event, forKey: .event)
        try container.encode((distanceKilometres * 1000).rounded() / 1000, forKey: .distanceKilometres)
        try container.encode(isNew, forKey: .isNew)
        try container.encodeIfPresent(score, forKey: .score)
    }
}
