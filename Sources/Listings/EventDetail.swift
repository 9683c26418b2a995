/// An event as the catalog shows it: what `encore event --json` prints and feeds embed.
///
/// JSON keys are snake_case and part of the CLI contract; optional values are written
/// as `null` rather than left out, so consumers can rely on every key being there.
public struct EventDetail: Sendable, Hashable, Encodable {
    public var id: Int64
    public var title: String
    public var kind: EventKind
    public var status: EventStatus
    public var start: EventStart
    public var endDate: LocalDate?
    public var venue: VenueSummary?
    public var metroArea: MetroAreaSummary?
    public var lineup: [LineupEntry]
    /// Tickets, as the sources that sell them or point to them list them, in the order
    /// the event's records rank (see `SourcePrecedence`).
    public var offers: [OfferDetail] = []
    public var sources: [SourceLink]
    public var popularity: Double?
    public var ageRestriction: String?
    /// A line a source says about the show (see `EventListing.note`).
    public var note: String?
    /// When every source that listed the event stopped listing it (UTC timestamp);
    /// written only when set, since lists and feeds leave such events out.
    public var unlistedSince: String?
    /// When a source first listed the event (the earliest of its records); not in the
    /// JSON, which has no place for it yet: Atom feeds date their entries with it.
    public var firstSeen: UTCInstant?
    /// When the show was last cancelled, postponed, moved or re-timed, and how (not in
    /// the JSON): Atom entries are dated by it, so that feed readers show the change.
    public var changedAt: UTCInstant?
    public var change: EventChange?

    public init(
        id: Int64, title: String, kind: EventKind, status: EventStatus, start: EventStart,
        endDate: LocalDate?, venue: VenueSummary?, metroArea: MetroAreaSummary?,
        lineup: [LineupEntry], sources: [SourceLink], popularity: Double?, ageRestriction: String?
    ) {
        self.id = id
        self.title = title
        self.kind = kind
        self.status = status
        self.start = start
        self.endDate = endDate
        self.venue = venue
        self.metroArea = metroArea
        self.lineup = lineup
        self.sources = sources
        self.popularity = popularity
        self.ageRestriction = ageRestriction
    }

    enum CodingKeys: String, CodingKey {
        case id, title, kind, status, start, end, venue, lineup, offers, sources, popularity
        case note
        case metroArea = "metro_area", ageRestriction = "age_restriction", unlistedSince = "unlisted_since"
    }

    enum StartKeys: String, CodingKey {
        case localDate = "local_date", localTime = "local_time", timezone, utc
    }

    enum EndKeys: String, CodingKey { case localDate = "local_date" }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(kind, forKey: .kind)
        try container.encode(status, forKey: .status)
        var startContainer = container.nestedContainer(keyedBy: StartKeys.self, forKey: .start)
        try startContainer.encode(start.localDate, forKey: .localDate)
        try startContainer.encode(start.localTime, forKey: .localTime)
        try startContainer.encode(start.timeZone, forKey: .timezone)
        try startContainer.encode(start.utc, forKey: .utc)
        if let endDate {
            var endContainer = container.nestedContainer(keyedBy: EndKeys.self, forKey: .end)
            try endContainer.encode(endDate, forKey: .localDate)
        } else {
            try container.encodeNil(forKey: .end)
        }
        try container.encode(venue, forKey: .venue)
        try container.encode(metroArea, forKey: .metroArea)
        try container.encode(lineup, forKey: .lineup)
        try container.encode(offers, forKey: .offers)
        try container.encode(sources, forKey: .sources)
        try container.encode(popularity, forKey: .popularity)
        try container.encode(ageRestriction, forKey: .ageRestriction)
        try container.encode(note, forKey: .note)
        try container.encodeIfPresent(unlistedSince, forKey: .unlistedSince)
    }
}

/// How a show changed for those going: its status, or a new day, time or venue.
public enum EventChange: String, Sendable, Hashable {
    case cancelled, postponed, rescheduled, reinstated
    case newDate = "new_date", newTime = "new_time", newVenue = "new_venue"

    /// What a feed's entry says first: "Cancelled", "New time".
    public var label: String {
        switch self {
        case .cancelled: "Cancelled"
        case .postponed: "Postponed"
        case .rescheduled: "Moved"
        case .reinstated: "On again"
        case .newDate: "New date"
        case .newTime: "New time"
        case .newVenue: "New venue"
        }
    }
}

/// A venue as events and venue lists show it.
public struct VenueSummary: Sendable, Hashable, Encodable {
    public var id: Int64
    public var name: String
    public var street: String?
    public var postalCode: String?
    public var city: String?
    public var region: String?
    public var country: String?
    public var latitude: Double?
    public var longitude: Double?
    public var coordinatesApproximate: Bool
    public var timeZone: String?

    public init(
        id: Int64, name: String, street: String? = nil, postalCode: String? = nil, city: String? = nil,
        region: String? = nil, country: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
        coordinatesApproximate: Bool = false, timeZone: String? = nil
    ) {
        self.id = id
        self.name = name
        self.street = street
        self.postalCode = postalCode
        self.city = city
        self.region = region
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
        self.coordinatesApproximate = coordinatesApproximate
        self.timeZone = timeZone
    }

    enum CodingKeys: String, CodingKey {
        case id, name, street, city, region, country, lat, lng, timezone
        case postalCode = "postal_code", coordinatesApproximate = "coordinates_approximate"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(street, forKey: .street)
        try container.encode(postalCode, forKey: .postalCode)
        try container.encode(city, forKey: .city)
        try container.encode(region, forKey: .region)
        try container.encode(country, forKey: .country)
        try container.encode(latitude, forKey: .lat)
        try container.encode(longitude, forKey: .lng)
        try container.encode(coordinatesApproximate, forKey: .coordinatesApproximate)
        try container.encode(timeZone, forKey: .timezone)
    }
}

/// A metro area's identity, as events show it.
public struct MetroAreaSummary: Sendable, Hashable, Encodable {
    public var id: Int64
    public var name: String
    public var country: String?
    public var region: String?

    public init(id: Int64, name: String, country: String? = nil, region: String? = nil) {
        self.id = id
        self.name = name
        self.country = country
        self.region = region
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(country, forKey: .country)
        try container.encode(region, forKey: .region)
    }

    enum CodingKeys: String, CodingKey { case id, name, country, region }
}

/// One act on a bill.
public struct LineupEntry: Sendable, Hashable, Encodable {
    /// When a festival's act plays, as a source listing its set gives it: a day of the
    /// festival and, when announced, the local time.
    public struct Slot: Sendable, Hashable, Encodable {
        public var date: LocalDate
        public var time: LocalTime?

        public init(date: LocalDate, time: LocalTime?) {
            self.date = date
            self.time = time
        }

        /// `2027-07-10 15:00`, or the day alone.
        public var text: String {
            date.description + (time.map { " " + $0.description.prefix(5) } ?? "")
        }
    }

    public var artistID: Int64
    public var name: String
    public var billing: Billing
    public var order: Int
    /// Nil unless the act is a festival's and a source listed its set.
    public var slot: Slot?

    public init(artistID: Int64, name: String, billing: Billing, order: Int, slot: Slot? = nil) {
        self.artistID = artistID
        self.name = name
        self.billing = billing
        self.order = order
        self.slot = slot
    }

    enum CodingKeys: String, CodingKey {
        case name, billing, order, slot
        case artistID = "artist_id"
    }
}

/// A way to buy tickets and the source that lists it (see ``OfferListing``).
public struct OfferDetail: Sendable, Hashable, Encodable {
    public var source: String
    public var offer: OfferListing

    public init(source: String, offer: OfferListing) {
        self.source = source
        self.offer = offer
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(offer.currency, forKey: .currency)
        try container.encode(offer.onSale, forKey: .onSale)
        try container.encode(offer.priceMax, forKey: .priceMax)
        try container.encode(offer.priceMin, forKey: .priceMin)
        try container.encode(source, forKey: .source)
        try container.encode(offer.status, forKey: .status)
        try container.encode(offer.url, forKey: .url)
    }

    enum CodingKeys: String, CodingKey {
        case source, url, currency, status
        case priceMin = "price_min", priceMax = "price_max", onSale = "on_sale"
    }
}

/// A source record behind a catalog row: which source, its own id, its page.
public struct SourceLink: Sendable, Hashable, Encodable {
    public var source: String
    public var id: String
    public var url: String?

    public init(source: String, id: String, url: String?) {
        self.source = source
        self.id = id
        self.url = url
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(id, forKey: .id)
        try container.encode(url, forKey: .url)
    }

    enum CodingKeys: String, CodingKey { case source, id, url }
}
