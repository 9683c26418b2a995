import GRDB
import Listings

extension CatalogDatabase {
    /// Every source record behind an event, its venue and its acts, with the reason
    /// each was merged; nil when there is no such event.
    public func explain(eventID: Int64) throws -> MergeExplanation? {
        try writer.read { db in
            guard let event = try EventDetailLoader.load(db, where: "e.id = ?", arguments: [eventID]).first else {
                return nil
            }
            var targets: [(String, Int64)] = [("event", eventID)]
            if let venue = event.venue { targets.append(("venue", venue.id)) }
            targets += event.lineup.map { ("artist", $0.artistID) }
            var records: [MergeExplanation.Record] = []
            for (kind, id) in targets {
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT r.source, r.source_id, r.url, r.first_seen, r.last_seen, r.merge_reason, r.merged_at
                        FROM source_record r
                        WHERE r.kind = ? AND r.entity_id = ?
                        ORDER BY r.id
                        """,
                    arguments: [kind, id])
                records += rows.map {
                    MergeExplanation.Record(
                        kind: kind, entityID: id, source: $0[0], sourceID: $0[1], url: $0[2], firstSeen: $0[3],
                        lastSeen: $0[4], reason: $0[5], mergedAt: $0[6])
                }
            }
            return MergeExplanation(event: event, records: records)
        }
    }
}
