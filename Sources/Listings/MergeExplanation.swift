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

    public var event: EventDetail
    public var records: [Record]

    public init(event: EventDetail, records: [Record]) {
        self.event = event
        self.records = records
    }
}
