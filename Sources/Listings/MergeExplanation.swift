/// Why an event's rows are what they are: every source record behind it, its venue and
/// its acts, and the reason each record was joined to a row another source created.
public struct MergeExplanation: Sendable, Hashable, Encodable {
    public struct Record: Sendable, Hashable, Encodable {
        public var kind: String
        public var entityID: Int64
        public var source: String
        public var sourceID: String
        public var url: String?
        public var firstSeen: String
        public var lastSeen: String
        /// Nil for the record that created the row.
        public var reason: String?
        /// When the record was merged into the row (`YYYY-MM-DDTHH:MM:SSZ`); nil with `reason`.
        public var mergedAt: String?

        public init(
            kind: String, entityID: Int64, source: String, sourceID: String, url: String?, firstSeen: String,
            lastSeen: String, reason: String?, mergedAt: String? = nil
        ) {
            self.kind = kind
            self.entityID = entityID
            self.source = source
            self.sourceID = sourceID
            self.url = url
            self.firstSeen = firstSeen
            self.lastSeen = lastSeen
            self.reason = reason
            self.mergedAt = mergedAt
        }

        enum CodingKeys: String, CodingKey {
            case kind, source, url, reason
            case entityID = "entity_id", sourceID = "source_id", firstSeen = "first_seen", lastSeen = "last_seen"
            case mergedAt = "merged_at"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(entityID, forKey: .entityID)
            try container.encode(source, forKey: .source)
            try container.encode(sourceID, forKey: .sourceID)
            try container.encode(url, forKey: .url)
            try container.encode(firstSeen, forKey: .firstSeen)
            try container.encode(lastSeen, forKey: .lastSeen)
            try container.encode(reason, forKey: .reason)
            try container.encode(mergedAt, forKey: .mergedAt)
        }
    }

    /// Another event on the same local date at this venue or one within 250 m: a listing
    /// an operator might take for the same concert, and the rule that keeps them apart.
    public struct NearMiss: Sendable, Hashable, Encodable {
        public var eventID: Int64
        public var title: String
        public var venue: String?
        public var sources: [String]
        public var keptApartBecause: String

        public init(eventID: Int64, title: String, venue: String?, sources: [String], keptApartBecause: String) {
            self.eventID = eventID
            self.title = title
            self.venue = venue
            self.sources = sources
            self.keptApartBecause = keptApartBecause
        }

        enum CodingKeys: String, CodingKey {
            case title, venue, sources
            case eventID = "event_id", keptApartBecause = "kept_apart_because"
        }
    }

    public var event: EventDetail
    public var records: [Record]
    /// Nearest first; empty when nothing else is on that day nearby.
    public var nearMisses: [NearMiss]
    /// For an act's set listed on its own, the nearest festival within 5 km and a week
    /// that it did not join, and the rule that kept it out; nil otherwise.
    public var festivalNearMiss: NearMiss?
    /// How the place and zone were chosen (``PlaceExplanation``).
    public var place: String

    public init(
        event: EventDetail, records: [Record], nearMisses: [NearMiss] = [], festivalNearMiss: NearMiss? = nil
    ) {
        self.event = event
        self.records = records
        self.nearMisses = nearMisses
        self.festivalNearMiss = festivalNearMiss
        place = PlaceExplanation.of(event)
    }

    enum CodingKeys: String, CodingKey {
        case event, records, place
        case nearMisses = "near_misses"
        case festivalNearMiss = "festival_near_miss"
    }
}
