import GRDB
import Geo
import Listings

extension CatalogDatabase {
    /// Every source record behind an event, its venue and its acts, with the reason
    /// each was merged; nil when there is no such event.
    public func explain(eventID: Int64) throws -> MergeExplanation? {
        try reader.read { db in
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
            return MergeExplanation(
                event: event, records: records, nearMisses: try Self.nearMisses(of: event, db),
                festivalNearMiss: try Self.festivalNearMiss(of: event, db))
        }
    }

    /// The other events on the event's local date at its venue or within 250 m of it, and
    /// the merge rule that keeps each apart (see ``PageApplier/candidate(for:venueID:among:)``).
    static func nearMisses(of event: EventDetail, _ db: Database) throws -> [MergeExplanation.NearMiss] {
        guard let venue = event.venue else { return [] }
        var venueIDs: Set<Int64> = [venue.id]
        let here = venue.latitude.flatMap { latitude in venue.longitude.map { Coordinate(latitude: latitude, longitude: $0) } }
        if let here {
            let box = BoundingBox(around: here, radiusKilometres: PageApplier.venueMergeRadiusKilometres)
            for range in box.longitudeRanges {
                venueIDs.formUnion(
                    try Int64.fetchAll(
                        db,
                        sql: "SELECT id FROM venue_location WHERE min_lat >= ? AND max_lat <= ? AND min_lng >= ? AND max_lng <= ?",
                        arguments: [box.minLatitude, box.maxLatitude, range.lowerBound, range.upperBound]))
            }
        }
        let others = try EventDetailLoader.load(
            db,
            where: "e.local_date = ? AND e.id <> ? AND e.venue_id IN (SELECT value FROM json_each(?))",
            arguments: [event.start.localDate.description, event.id, CatalogDatabase.jsonArray(venueIDs.sorted())])
        func distance(_ other: EventDetail) -> Double {
            guard let here, let latitude = other.venue?.latitude, let longitude = other.venue?.longitude else { return 0 }
            return haversineDistance(from: here, to: Coordinate(latitude: latitude, longitude: longitude))
        }
        return others.sorted { (distance($0), $0.id) < (distance($1), $1.id) }.map { other in
            MergeExplanation.NearMiss(
                eventID: other.id, title: other.title, venue: other.venue?.name,
                sources: other.sources.map(\.source), keptApartBecause: keptApart(event, other, metres: Int(distance(other) * 1000)))
        }
    }

    /// How far from a set a festival is looked for, wider than the rule's reach so that
    /// one just too far is shown.
    static let festivalSearchKilometres = 5.0

    /// For an act's set that is a row of its own, the nearest festival within
    /// ``festivalSearchKilometres`` and a week of its day, and the rule of
    /// ``PageApplier/festival(for:source:among:)`` that kept it out.
    static func festivalNearMiss(of event: EventDetail, _ db: Database) throws -> MergeExplanation.NearMiss? {
        let day = event.start.localDate
        guard !PageApplier.isWholeFestival(
            kind: event.kind.rawValue, localDate: day.description, endDate: event.endDate?.description,
            acts: event.lineup.count),
            let venue = event.venue, let latitude = venue.latitude, let longitude = venue.longitude
        else { return nil }
        let here = Coordinate(latitude: latitude, longitude: longitude)
        let box = BoundingBox(around: here, radiusKilometres: festivalSearchKilometres)
        var ids: [Int64] = []
        for range in box.longitudeRanges {
            ids += try Int64.fetchAll(
                db,
                sql: """
                    SELECT e.id FROM venue_location r JOIN event e ON e.venue_id = r.id
                    WHERE r.min_lat >= ? AND r.max_lat <= ? AND r.min_lng >= ? AND r.max_lng <= ?
                    AND e.id <> ? AND e.end_date > e.local_date AND e.local_date <= ? AND e.end_date >= ?
                    """,
                arguments: [
                    box.minLatitude, box.maxLatitude, range.lowerBound, range.upperBound, event.id,
                    day.adding(days: 7).description, day.adding(days: -7).description,
                ])
        }
        func distance(_ other: EventDetail) -> Double {
            guard let latitude = other.venue?.latitude, let longitude = other.venue?.longitude else { return .infinity }
            return haversineDistance(from: here, to: Coordinate(latitude: latitude, longitude: longitude))
        }
        let festivals = try EventDetailLoader.load(db, ids: ids.sorted()).filter { distance($0) <= festivalSearchKilometres }
        guard let nearest = festivals.min(by: { (distance($0), $0.id) < (distance($1), $1.id) }) else { return nil }
        let metres = Int((distance(nearest) * 1000).rounded())
        return MergeExplanation.NearMiss(
            eventID: nearest.id, title: nearest.title, venue: nearest.venue?.name,
            sources: nearest.sources.map(\.source), keptApartBecause: keptFromFestival(event, nearest, metres: metres))
    }

    /// The first festival rule a set and a festival fail, in the order the catalog applies them.
    static func keptFromFestival(_ set: EventDetail, _ festival: EventDetail, metres: Int) -> String {
        let shared = Set(set.sources.map(\.source)).intersection(festival.sources.map(\.source)).sorted()
        let end = festival.endDate ?? festival.start.localDate
        if !shared.isEmpty {
            return "both listed by \(shared.joined(separator: ", ")), which lists the festival whole and other shows apart"
        }
        if set.start.localDate < festival.start.localDate || end < set.start.localDate {
            return "its day (\(set.start.localDate)) is not a day of the festival (\(festival.start.localDate) to \(end))"
        }
        if metres > Int(PageApplier.festivalKilometres * 1000) {
            return "\(metres) m from the festival's grounds, more than \(Int(PageApplier.festivalKilometres * 1000)) m"
        }
        func keys(_ detail: EventDetail) -> Set<String> { PageApplier.actKeys(names: detail.lineup.map(\.name)) }
        if keys(set).isDisjoint(with: keys(festival)) {
            return "no act of its bill (\(set.lineup.map(\.name).joined(separator: ", "))) is on the festival's"
        }
        return "no rule keeps them apart now; they were listed before a rule that joins them (ingesting the pages again merges them)"
    }

    /// The first merge rule two listings on one day fail, in the order the catalog applies them.
    static func keptApart(_ event: EventDetail, _ other: EventDetail, metres: Int) -> String {
        let shared = Set(event.sources.map(\.source)).intersection(other.sources.map(\.source)).sorted()
        if !shared.isEmpty {
            return "both listed by \(shared.joined(separator: ", ")), and records of one source with different ids are never merged"
        }
        if let mine = event.venue, let theirs = other.venue, mine.id != theirs.id {
            let agree = MatchKey.venueNamesAgree(mine.name, theirs.name)
            return "at another venue (#\(theirs.id) \(theirs.name), \(metres) m away)"
                + (agree ? " that was not merged with this one" : " whose name does not agree with \(mine.name)")
        }
        if let mine = event.start.localTime, let theirs = other.start.localTime,
            abs(mine.secondsSinceMidnight - theirs.secondsSinceMidnight) > PageApplier.sameShowMinutes * 60
        {
            return "starts at \(theirs), more than \(PageApplier.sameShowMinutes) minutes from \(mine): another show"
        }
        func keys(_ detail: EventDetail) -> Set<String> {
            Set(detail.lineup.flatMap { [MatchKey.of($0.name)] + MatchKey.featuredActs($0.name).map(MatchKey.of) })
        }
        if keys(event).isDisjoint(with: keys(other)) {
            return "no act in common (\(event.lineup.map(\.name).joined(separator: ", ")) / \(other.lineup.map(\.name).joined(separator: ", ")))"
        }
        return "no rule keeps them apart now; they were listed before a rule that joins them (ingesting the pages again merges them)"
    }
}
