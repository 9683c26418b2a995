import GRDB
import Geo
import Listings

/// One source's two listings at a venue on a day, and another source's one concert there
/// that both share an act with: the concert belongs to the better of the two (the same
/// time, then more acts in common), whichever arrived first. A listing that finds the
/// concert already taken by a worse one of its own source takes it over, and the worse
/// one stands alone, as it would have had the better one come first.
extension PageApplier {
    /// How well a listing (its acts, title and local time) matches another source's
    /// listing of a concert: how close the times are, then how many acts they share (a
    /// listing with an empty bill shares the acts its title names); nil when nothing is
    /// shared or the times say two shows.
    static func matchRank(
        _ listing: (names: [String], title: String, time: String?),
        against other: (names: [String], title: String, time: String?)
    ) -> (time: Int, shared: Int)? {
        var shared = actKeys(names: listing.names).intersection(actKeys(names: other.names)).count
        if shared == 0, listing.names.isEmpty {
            shared = other.names.filter { MatchKey.title(listing.title, names: $0) }.count
        } else if shared == 0, other.names.isEmpty {
            shared = listing.names.filter { MatchKey.title(other.title, names: $0) }.count
        }
        guard shared > 0, let agreement = timeAgreement(listing.time, other.time) else { return nil }
        return (agreement, shared)
    }

    /// 3 for the same local time, 2 for times a show's doors apart, 1 when either is
    /// unknown; nil for two known times further apart (two shows).
    static func timeAgreement(_ time: String?, _ otherTime: String?) -> Int? {
        switch (minutes(time), minutes(otherTime)) {
        case let (mine?, theirs?) where mine == theirs: 3
        case let (mine?, theirs?) where abs(mine - theirs) <= sameShowMinutes: 2
        case (_?, _?): nil
        default: 1
        }
    }

    /// Takes a concert at the listing's venue and date from this source's record on it
    /// when the listing matches the other sources' records better (see
    /// ``matchRank(_:against:)``): that record moves to a row of its own. Festivals and
    /// rows holding several of this source's records are left alone.
    /// - Returns: whether a record gave way (the concert is then a candidate).
    mutating func displaceWorseRecord(for event: EventListing, venueID: Int64) throws -> Bool {
        guard !othersAbsent else { return false }
        let listing = (
            names: event.lineup.map(\.artist.name), title: event.title, time: event.start.localTime?.description
        )
        let key = "\(venueID) \(event.start.localDate)"
        let taken = try takenMemo[key] ?? Int64.fetchAll(
            db.cachedStatement(sql: """
                SELECT e.id FROM event e WHERE e.venue_id = ? AND e.local_date = ? AND e.end_date IS NULL
                AND EXISTS (SELECT 1 FROM source_record r WHERE r.kind = 'event' AND r.entity_id = e.id AND r.source = ?)
                AND EXISTS (SELECT 1 FROM source_record r WHERE r.kind = 'event' AND r.entity_id = e.id AND r.source <> ?)
                ORDER BY e.id
                """),
            arguments: [venueID, event.start.localDate.description, source, source])
        takenMemo[key] = taken
        for id in taken {
            let records = try snapshots(EventSnapshot.self, kind: .event, entityID: id)
            let mine = records.filter { $0.source == source }
            let others = records.filter { $0.source != source }
            guard mine.count == 1, let record = mine.first, !others.isEmpty,
                !records.contains(where: { $0.value.isWholeFestival })
            else { continue }
            let bill = (
                names: others.flatMap { $0.value.lineup.map(\.name) }, title: others[0].value.title,
                time: others.lazy.compactMap(\.value.localTime).first
            )
            guard let rank = Self.matchRank(listing, against: bill) else { continue }
            let held = Self.matchRank(
                (record.value.lineup.map(\.name), record.value.title, record.value.localTime), against: bill)
            guard held.map({ rank > $0 }) ?? true else { continue }
            try standAlone(record, from: id)
            return true
        }
        return false
    }

    /// Moves this source's record off a row onto a new row of its own, and rebuilds the
    /// row it left.
    private mutating func standAlone(_ record: (source: String, sourceID: String, value: EventSnapshot), from id: Int64)
        throws
    {
        let merged = try merge([record]) { [db] source, artistSourceID in
            try Self.row(ofRecord: source, .artist, artistSourceID, in: db)
        }
        let newID = try write(merged, into: nil)
        try db.cachedStatement(sql: """
            UPDATE source_record SET entity_id = ?, merge_reason = NULL, merged_at = NULL
            WHERE source = ? AND kind = 'event' AND source_id = ?
            """).execute(arguments: [newID, record.source, record.sourceID])
        if let known = prefetched[.event]?[record.sourceID] { prefetched[.event]?[record.sourceID] = known?.moved(to: newID) }
        if resolved[.event]?[record.sourceID] != nil { resolved[.event]?[record.sourceID] = newID }
        candidateMemo = [:]
        takenMemo = [:]
        try rebuildEvent(id)
    }
}
