/// One artist's listening, summed over the export files a fan imported.
public struct ListenedArtist: Sendable, Hashable, Encodable {
    public var name: String
    public var musicBrainzID: String?
    public var plays: Int
    public var millisecondsPlayed: Int64
    /// The acts a credit names ("A feat. B", "A & B"), when it names several: each counts
    /// where the catalog knows them as separate artists.
    public var credits: [String]

    public init(name: String, musicBrainzID: String? = nil, plays: Int, millisecondsPlayed: Int64 = 0, credits: [String] = []) {
        self.name = name
        self.musicBrainzID = musicBrainzID
        self.plays = plays
        self.millisecondsPlayed = millisecondsPlayed
        self.credits = credits
    }

    enum CodingKeys: String, CodingKey {
        case name, plays, mbid
        case millisecondsPlayed = "ms_played"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(musicBrainzID, forKey: .mbid)
        try container.encode(plays, forKey: .plays)
        try container.encode(millisecondsPlayed, forKey: .millisecondsPlayed)
    }
}

/// What importing listening did with one artist.
public struct ListeningMatch: Sendable, Hashable, Encodable {
    public enum Outcome: String, Sendable, Hashable, Encodable {
        /// Matched a catalog artist, now followed.
        case followed
        case alreadyFollowed = "already_followed"
        /// No catalog artist yet: followed by name, so a refresh crawls it and a later
        /// catalog artist of that name is followed.
        case notInCatalog = "not_in_catalog"
    }

    public var listened: ListenedArtist
    public var outcome: Outcome
    /// The catalog artists it counted for: one, or each act of a credit.
    public var artists: [ArtistReference]

    public init(listened: ListenedArtist, outcome: Outcome, artists: [ArtistReference]) {
        self.listened = listened
        self.outcome = outcome
        self.artists = artists
    }
}

/// Why a show is recommended, and how strongly.
public struct Recommendation: Sendable, Hashable, Encodable {
    public var event: EventDetail
    public var distanceKilometres: Double
    /// The act recommended, not followed by the fan.
    public var artist: ArtistReference
    /// "because you listen to Mavi Vapur", "shares a bill with Mavi Vapur".
    public var reason: String
    /// similarity × nearness × soonness.
    public var score: Double
    public var similarity: Double
    public var nearness: Double
    public var soonness: Double

    public init(
        event: EventDetail, distanceKilometres: Double, artist: ArtistReference, reason: String, similarity: Double,
        nearness: Double, soonness: Double
    ) {
        self.event = event
        self.distanceKilometres = distanceKilometres
        self.artist = artist
        self.reason = reason
        self.similarity = similarity
        self.nearness = nearness
        self.soonness = soonness
        score = similarity * nearness * soonness
    }

    enum CodingKeys: String, CodingKey {
        case event, artist, reason, score, similarity, nearness, soonness
        case distanceKilometres = "distance_km"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event, forKey: .event)
        try container.encode(Self.rounded(distanceKilometres), forKey: .distanceKilometres)
        try container.encode(artist, forKey: .artist)
        try container.encode(reason, forKey: .reason)
        try container.encode(Self.rounded(score), forKey: .score)
        try container.encode(Self.rounded(similarity), forKey: .similarity)
        try container.encode(Self.rounded(nearness), forKey: .nearness)
        try container.encode(Self.rounded(soonness), forKey: .soonness)
    }

    /// Three decimals: scores printed and compared the same on every machine.
    public static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

/// Tickets going on sale: one offer's public on-sale or presale time.
public struct OnSaleEntry: Sendable, Hashable, Encodable {
    public var event: EventDetail
    public var source: String
    public var url: String?
    /// "presale: …" for a presale, else the offer's status as the source words it.
    public var status: String?
    /// When, in UTC.
    public var onSale: UTCInstant
    /// When, at the venue: its local date, time and zone.
    public var localDate: LocalDate
    public var localTime: LocalTime
    public var timeZone: String?
    /// Why the fan sees it: "you follow Mavi Vapur", "you follow Sala Apolo", "near Bilbao".
    public var reason: String

    public init(
        event: EventDetail, source: String, url: String?, status: String?, onSale: UTCInstant, localDate: LocalDate,
        localTime: LocalTime, timeZone: String?, reason: String
    ) {
        self.event = event
        self.source = source
        self.url = url
        self.status = status
        self.onSale = onSale
        self.localDate = localDate
        self.localTime = localTime
        self.timeZone = timeZone
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case event, source, url, status, reason
        case onSale = "on_sale_utc", localDate = "on_sale_local_date", localTime = "on_sale_local_time", timeZone = "timezone"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event, forKey: .event)
        try container.encode(source, forKey: .source)
        try container.encode(url, forKey: .url)
        try container.encode(status, forKey: .status)
        try container.encode(onSale, forKey: .onSale)
        try container.encode(localDate, forKey: .localDate)
        try container.encode(localTime.description, forKey: .localTime)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encode(reason, forKey: .reason)
    }
}

/// The parts of a ranked feed entry's score (see docs/discovery.md): each a weight times
/// a measure between 0 and 1, summed.
public struct FeedScore: Sendable, Hashable, Encodable {
    /// 3 when an act is followed, 1.5 when the venue is, 0.5 when only a tracked city is near.
    public var follow: Double = 0
    /// Up to 2: the best-listened act's plays, on a log scale against the fan's most played.
    public var listening: Double = 0
    /// Up to 1.5: an unfollowed act's similarity to what the fan follows or listens to.
    public var similarity: Double = 0
    /// Up to 1: 1 at the centre, 0 at the radius.
    public var distance: Double = 0
    /// Up to 1: 1 today, halving every 30 days.
    public var soon: Double = 0
    /// Up to 0.5: the source's popularity (0 to 1).
    public var popularity: Double = 0
    /// What the follow, listening or similarity part is about ("you follow Mavi Vapur").
    public var because: String?

    public init() {}

    public var total: Double { follow + listening + similarity + distance + soon + popularity }

    enum CodingKeys: String, CodingKey { case total, follow, listening, similarity, distance, soon, popularity, because }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        for (key, value) in [
            (CodingKeys.total, total), (.follow, follow), (.listening, listening), (.similarity, similarity), (.distance, distance),
            (.soon, soon), (.popularity, popularity),
        ] {
            try container.encode(Recommendation.rounded(value), forKey: key)
        }
        try container.encode(because, forKey: .because)
    }
}

/// How `encore feed` orders: by score (the default), or as before, by date or distance.
public enum FeedOrder: String, Sendable, Hashable, CaseIterable {
    case score, date, distance
}
