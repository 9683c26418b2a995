import Geo

/// A metro area as a source names it (Songkick's `metroArea`).
public struct MetroAreaListing: Sendable, Hashable {
    /// The source's own id, as a string.
    public var sourceID: String
    public var name: String
    /// The country as the source wrote it ("US", "UK", "Spain").
    public var country: String?
    /// State, province or region, as the source wrote it.
    public var region: String?
    public var coordinate: Coordinate?
    public var url: String?
    /// The gazetteer city it is linked to (filled in by geo enrichment).
    public var place: PlaceLink?
    /// The place, and the centre when the source gave none, were taken from the city of a
    /// venue the page lists in the metro area (no city bears its name, as with "SF Bay
    /// Area"). Another page may list another venue first, so the catalog keeps what it
    /// has rather than move the metro area's centre page by page.
    public var placeIsGuessed = false

    public init(
        sourceID: String, name: String, country: String? = nil, region: String? = nil,
        coordinate: Coordinate? = nil, url: String? = nil, place: PlaceLink? = nil
    ) {
        self.sourceID = sourceID
        self.name = name
        self.country = country
        self.region = region
        self.coordinate = coordinate
        self.url = url
        self.place = place
    }
}

/// A link from a listing to a gazetteer city: which one, where, and its time zone.
public struct PlaceLink: Sendable, Hashable {
    public var geonameID: Int
    public var name: String
    /// ISO 3166-1 alpha-2.
    public var countryCode: String
    public var coordinate: Coordinate
    /// IANA zone.
    public var timeZone: String

    public init(geonameID: Int, name: String, countryCode: String, coordinate: Coordinate, timeZone: String) {
        self.geonameID = geonameID
        self.name = name
        self.countryCode = countryCode
        self.coordinate = coordinate
        self.timeZone = timeZone
    }
}

/// A venue as a source lists it.
public struct VenueListing: Sendable, Hashable {
    /// The source's own id; sources without one get a key derived from name and place.
    public var sourceID: String
    public var name: String
    public var street: String?
    public var postalCode: String?
    public var city: String?
    public var region: String?
    public var country: String?
    public var coordinate: Coordinate?
    /// True when the coordinate is the city's, not the building's.
    public var coordinateIsApproximate: Bool
    /// IANA time zone identifier, when the source gives one.
    public var timeZone: String?
    public var website: String?
    public var capacity: Int?
    public var url: String?
    public var metroArea: MetroAreaListing?
    /// The gazetteer city the venue is in or nearest to (filled in by geo enrichment).
    public var place: PlaceLink?
    /// The most populous gazetteer city within a metro area's reach (filled in by geo
    /// enrichment): what a metro area made for a venue no source places is named after.
    public var metroPlace: PlaceLink? = nil

    public init(
        sourceID: String, name: String, street: String? = nil, postalCode: String? = nil,
        city: String? = nil, region: String? = nil, country: String? = nil,
        coordinate: Coordinate? = nil, coordinateIsApproximate: Bool = false,
        timeZone: String? = nil, website: String? = nil, capacity: Int? = nil,
        url: String? = nil, metroArea: MetroAreaListing? = nil, place: PlaceLink? = nil
    ) {
        self.sourceID = sourceID
        self.name = name
        self.street = street
        self.postalCode = postalCode
        self.city = city
        self.region = region
        self.country = country
        self.coordinate = coordinate
        self.coordinateIsApproximate = coordinateIsApproximate
        self.timeZone = timeZone
        self.website = website
        self.capacity = capacity
        self.url = url
        self.metroArea = metroArea
        self.place = place
    }
}

/// An artist (band, DJ, festival act) as a source lists it.
public struct ArtistListing: Sendable, Hashable {
    public var sourceID: String
    public var name: String
    /// MusicBrainz ids the source links to; the first is taken as the artist's.
    public var musicBrainzIDs: [String]
    public var url: String?
    /// Songkick's `onTourUntil`.
    public var onTourUntil: LocalDate?

    public init(
        sourceID: String, name: String, musicBrainzIDs: [String] = [], url: String? = nil,
        onTourUntil: LocalDate? = nil
    ) {
        self.sourceID = sourceID
        self.name = name
        self.musicBrainzIDs = musicBrainzIDs
        self.url = url
        self.onTourUntil = onTourUntil
    }
}

/// One act on an event's bill.
public struct PerformanceListing: Sendable, Hashable {
    public var artist: ArtistListing
    public var billing: Billing
    /// 1 for the first act listed; the order the source bills them in.
    public var order: Int

    public init(artist: ArtistListing, billing: Billing, order: Int) {
        self.artist = artist
        self.billing = billing
        self.order = order
    }
}

/// When an event starts, in the venue's terms.
public struct EventStart: Sendable, Hashable {
    public var localDate: LocalDate
    /// Nil when the source does not know the time yet.
    public var localTime: LocalTime?
    /// IANA zone of the venue, when known.
    public var timeZone: String?
    /// The instant, when the source gives a time with an offset or a zone is known.
    public var utc: UTCInstant?
    /// The source gave the instant, with a zone that may not be the venue's (an iCalendar
    /// feed's own, or UTC): once geo enrichment knows the venue's zone, the local date and
    /// time are the instant on the venue's clock.
    public var awaitsVenueZone = false

    public init(localDate: LocalDate, localTime: LocalTime? = nil, timeZone: String? = nil, utc: UTCInstant? = nil) {
        self.localDate = localDate
        self.localTime = localTime
        self.timeZone = timeZone
        self.utc = utc
    }
}

/// A concert or festival as one source lists it.
public struct EventListing: Sendable, Hashable {
    public var sourceID: String
    public var title: String
    public var kind: EventKind
    public var status: EventStatus
    public var start: EventStart
    /// Last day, for multi-day events.
    public var endDate: LocalDate?
    public var venue: VenueListing?
    public var lineup: [PerformanceListing]
    public var url: String?
    public var popularity: Double?
    public var ageRestriction: String?
    /// A line the source says about the show beyond its facts ("Doors 19:00, first act
    /// 20:00."): an iCalendar `DESCRIPTION`'s first line.
    public var note: String?
    /// Tickets: links, prices, availability, as the source gives them.
    public var offers: [OfferListing]

    public init(
        sourceID: String, title: String, kind: EventKind = .concert, status: EventStatus = .scheduled,
        start: EventStart, endDate: LocalDate? = nil, venue: VenueListing? = nil,
        lineup: [PerformanceListing] = [], url: String? = nil, popularity: Double? = nil,
        ageRestriction: String? = nil, note: String? = nil, offers: [OfferListing] = []
    ) {
        self.sourceID = sourceID
        self.title = title
        self.kind = kind
        self.status = status
        self.start = start
        self.endDate = endDate
        self.venue = venue
        self.lineup = lineup
        self.url = url
        self.popularity = popularity
        self.ageRestriction = ageRestriction
        self.note = note
        self.offers = offers
    }
}

/// A way to buy tickets, as a source lists it.
public struct OfferListing: Sendable, Hashable {
    public var url: String?
    public var priceMin: Double?
    public var priceMax: Double?
    /// ISO 4217 code ("EUR", "USD").
    public var currency: String?
    /// Availability as the source words it, lower-cased: "available", "sold out", "onsale"...
    public var status: String?
    /// When tickets go on sale, as the source gives it (ISO 8601 text).
    public var onSale: String?

    public init(
        url: String? = nil, priceMin: Double? = nil, priceMax: Double? = nil, currency: String? = nil,
        status: String? = nil, onSale: String? = nil
    ) {
        self.url = url
        self.priceMin = priceMin
        self.priceMax = priceMax
        self.currency = currency
        self.status = status
        self.onSale = onSale
    }
}

/// A source's list of artists similar to one artist, best match first, or one page of it.
public struct SimilarArtistsListing: Sendable, Hashable {
    public var artistSourceID: String
    public var similar: [ArtistListing]
    /// The rank of the first artist listed: 1, but on a later page of the list.
    public var firstRank: Int
    /// How many ranks from ``firstRank`` on the listing replaces (a page's size); nil: all
    /// of them (the whole list, or its last page).
    public var ranksReplaced: Int?
    /// How alike each artist is, 0 to 1, where the source says (Last.fm's `match`,
    /// ListenBrainz's score over its list's best); nil for ranks alone (Songkick).
    public var scores: [Double]?

    public init(
        artistSourceID: String, similar: [ArtistListing], firstRank: Int = 1, ranksReplaced: Int? = nil, scores: [Double]? = nil
    ) {
        self.artistSourceID = artistSourceID
        self.similar = similar
        self.firstRank = firstRank
        self.ranksReplaced = ranksReplaced
        self.scores = scores
    }
}
