import GRDB
import Geo
import Listings

/// Festivals. One source lists a festival once over its span; another lists each act's
/// set as an event of its own, on one day of the span, often at a place named after the
/// festival ("Golden Sound 2027") a few hundred metres from the grounds. A set belongs to
/// the festival when the act is on the festival's bill (or, when one of them names no act,
/// the set is listed under the festival's title: ``FestivalTitle``; so listed, anywhere in
/// the city when a position is only the city's), the two places are within
/// ``festivalKilometres`` and the set's day is within the span. Whichever arrives first,
/// the sets end up as records of the festival's row (a festival arriving after its sets
/// takes their rows in), and each act's day and time is kept as its slot on the bill.
extension PageApplier {
    /// How far a set's place may be from the festival's grounds.
    static let festivalKilometres = 1.0

    /// Whether a listing is a festival as a whole (a festival, or a span of days, with a
    /// bill of several acts or none) rather than one show or one act's set.
    static func isWholeFestival(kind: String, localDate: String, endDate: String?, acts: Int) -> Bool {
        (kind == EventKind.festival.rawValue || (endDate.map { $0 > localDate } ?? false)) && acts != 1
    }

    /// A stored event near a set or a festival, with what the festival rules read.
    struct NearbyEvent: Sendable, Equatable {
        let id: Int64
        let localDate: String
        let endDate: String?
        let kilometres: Double
        /// Its acts' name keys, those of the acts their credits feature, and its title's
        /// (``FestivalTitle``): a set under the festival's title shares it.
        let actKeys: Set<String>
        /// Sources with a record on it, and those among them listing it as a whole festival.
        let sources: Set<String>
        let wholeSources: Set<String>
        /// Its venue's position is only its city's: its distance says little.
        var approximate = false

        /// Within reach of a listing with `acts` (``FestivalTitle/keys(acts:title:)``):
        /// ``festivalKilometres``, or, under the festival's own title, anywhere in the city
        /// when either position is only the city's (`cityWide`: the listing's).
        func within(reachOf acts: Set<String>, cityWide: Bool) -> Bool {
            if kilometres <= PageApplier.festivalKilometres { return true }
            return (cityWide || approximate) && kilometres <= PageApplier.sameCityKilometres
                && actKeys.intersection(acts).contains(where: FestivalTitle.isToken)
        }
    }

    /// Name keys of a bill's acts and of the guests their credits feature.
    static func actKeys(names: some Sequence<String>) -> Set<String> {
        var keys = Set<String>()
        for name in names {
            keys.insert(MatchKey.of(name))
            keys.formUnion(MatchKey.featuredActs(name).map(MatchKey.of))
        }
        return keys
    }

    /// The festival a listing belongs to, and why: among the festival rows within reach
    /// whose span meets the listing's days (a set's one day), whose bill names one of its
    /// acts and that `source` does not list as a whole (a source listing a festival whole
    /// lists its other shows apart), the nearest, then the oldest.
    /// - Parameter cityWide: the listing's position is only its city's.
    static func festival(
        for listing: (start: String, end: String, acts: Set<String>), source: String, among festivals: [NearbyEvent],
        cityWide: Bool = false
    ) -> (festival: NearbyEvent, reason: String)? {
        let fitting = festivals.filter { festival in
            guard let end = festival.endDate, !festival.wholeSources.isEmpty, !festival.wholeSources.contains(source),
                festival.localDate <= listing.end, listing.start <= end, festival.within(reachOf: listing.acts, cityWide: cityWide)
            else { return false }
            return FestivalTitle.billsMeet(festival.actKeys, listing.acts)
        }
        guard let chosen = fitting.min(by: { ($0.kilometres, $0.id) < ($1.kilometres, $1.id) }) else { return nil }
        return (chosen, festivalReason(chosen, days: listing.start == listing.end ? listing.start : nil))
    }

    /// Why a listing joined a festival: its day (a set's) and the distance.
    static func festivalReason(_ festival: NearbyEvent, days set: String?) -> String {
        let metres = Int((festival.kilometres * 1000).rounded())
        let when = set.map { "a set on \($0), a day of the festival" } ?? "the festival"
        return "\(when) (\(festival.localDate) to \(festival.endDate ?? festival.localDate)), \(metres) m from its grounds, "
            + "with an act on its bill"
    }

    /// The stored sets a festival takes in: events no source lists as a whole festival,
    /// within reach on a day of its span, sharing an act with its bill, listed by none of
    /// the sources that list the festival whole.
    static func sets(
        of festival: (localDate: String, endDate: String, acts: Set<String>, wholeSources: Set<String>),
        among events: [NearbyEvent], cityWide: Bool = false
    ) -> [NearbyEvent] {
        events.filter { event in
            event.wholeSources.isEmpty && festival.localDate <= event.localDate && event.localDate <= festival.endDate
                && event.within(reachOf: festival.acts, cityWide: cityWide) && event.sources.isDisjoint(with: festival.wholeSources)
                && FestivalTitle.billsMeet(event.actKeys, festival.acts)
        }
    }

    // MARK: - Reading

    /// A venue's position, even one near its city's centre: a festival's grounds are
    /// often central, and the act and the day must agree too.
    func position(ofVenue id: Int64) throws -> Coordinate? {
        try placing(ofVenue: id)?.position
    }

    /// A venue's position, and whether it is only its city's.
    func placing(ofVenue id: Int64) throws -> (position: Coordinate, approximate: Bool)? {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT latitude, longitude, coordinates_approximate FROM venue WHERE id = ?"),
            arguments: [id]),
            let latitude = row[0] as Double?, let longitude = row[1] as Double?
        else { return nil }
        return (Coordinate(latitude: latitude, longitude: longitude), row[2] as Bool? ?? false)
    }

    /// Events at venues within ``festivalKilometres`` of `position` that `condition`
    /// (SQL over `e`, with `arguments`) selects and whose bill names one of `acts`;
    /// `spansOnly` reads only events with an end date, from their own index (a venue may
    /// hold thousands of events on a day, none of them a festival).
    private func eventsNear(
        _ position: Coordinate, sharing acts: Set<String>, spansOnly: Bool = false, reach: Double = festivalKilometres,
        where condition: String, _ arguments: StatementArguments
    ) throws -> [NearbyEvent] {
        let box = BoundingBox(around: position, radiusKilometres: reach)
        var found: [NearbyEvent] = []
        for range in box.longitudeRanges {
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT e.id, e.local_date, e.end_date, v.latitude, v.longitude, e.title, v.coordinates_approximate
                    FROM venue_location r JOIN venue v ON v.id = r.id
                        JOIN event e \(spansOnly ? "INDEXED BY event_festival" : "") ON e.venue_id = v.id
                    WHERE r.min_lat >= ? AND r.max_lat <= ? AND r.min_lng >= ? AND r.max_lng <= ? AND \(condition)
                    """),
                arguments: [box.minLatitude, box.maxLatitude, range.lowerBound, range.upperBound] + arguments)
            for row in rows {
                let distance = haversineDistance(
                    from: position, to: Coordinate(latitude: row[3], longitude: row[4]))
                guard distance <= reach else { continue }
                let id: Int64 = row[0]
                var bill = Self.actKeys(names: try billNames(ofEvent: id))
                bill.insert(FestivalTitle.token(row[5]))
                guard !bill.isDisjoint(with: acts) else { continue }
                let (sources, whole, wholeUnbilled) = try recordSources(ofEvent: id)
                if wholeUnbilled { bill.insert(FestivalTitle.unbilled) }
                found.append(NearbyEvent(
                    id: id, localDate: row[1], endDate: row[2], kilometres: distance, actKeys: bill, sources: sources,
                    wholeSources: whole, approximate: row[6] as Bool? ?? false))
            }
        }
        return found.sorted { $0.id < $1.id }
    }

    private func billNames(ofEvent id: Int64) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT a.name FROM lineup l JOIN artist a ON a.id = l.artist_id WHERE l.event_id = ?"),
            arguments: [id])
    }

    /// The sources with a record on an event, and those whose record is a whole festival.
    /// - Returns: also whether it is listed whole by records that all name no act.
    private func recordSources(ofEvent id: Int64) throws -> (all: Set<String>, whole: Set<String>, wholeUnbilled: Bool) {
        let records = try Self.recordSnapshots(EventSnapshot.self, kind: .event, entityID: id, in: db)
        let whole = records.filter(\.value.isWholeFestival)
        return (
            try sources(ofRow: id, .event), Set(whole.map(\.source)),
            !whole.isEmpty && whole.allSatisfy(\.value.lineup.isEmpty)
        )
    }

    // MARK: - Writing

    /// The festival row a listing joins (a set, or the festival listed whole at a place
    /// named otherwise), when there is one.
    func festivalCandidate(for event: EventListing, venueID: Int64) throws -> (id: Int64, reason: String)? {
        guard !othersAbsent, let (position, approximate) = try placing(ofVenue: venueID) else { return nil }
        let start = event.start.localDate.description
        let whole = Self.isWholeFestival(
            kind: event.kind.rawValue, localDate: start, endDate: event.endDate?.description, acts: event.lineup.count)
        let end = whole ? event.endDate?.description ?? start : start
        let acts = FestivalTitle.keys(acts: Self.actKeys(names: event.lineup.map(\.artist.name)), title: event.title)
        let festivals = try eventsNear(
            position, sharing: acts, spansOnly: true, reach: Self.sameCityKilometres,
            where: """
                e.end_date IS NOT NULL AND e.local_date <= ? AND e.end_date >= ?
                AND e.local_date >= date(?, '-' || (SELECT max_days FROM event_span_bound WHERE id = 1) || ' days')
                """,
            [end, start, start])
        return Self.festival(for: (start, end, acts), source: source, among: festivals, cityWide: approximate)
            .map { ($0.festival.id, $0.reason) }
    }

    /// The stored sets a festival listing takes in (see ``sets(of:among:)``), joining
    /// `festivalID` when it joins a row already there.
    func setsToTakeIn(_ event: EventListing, venueID: Int64?, joining festivalID: Int64?) throws -> [NearbyEvent] {
        let start = event.start.localDate.description
        guard !othersAbsent, let venueID,
            Self.isWholeFestival(
                kind: event.kind.rawValue, localDate: start, endDate: event.endDate?.description, acts: event.lineup.count),
            let (position, approximate) = try placing(ofVenue: venueID)
        else { return [] }
        let end = event.endDate?.description ?? start
        var acts = FestivalTitle.keys(acts: Self.actKeys(names: event.lineup.map(\.artist.name)), title: event.title)
        var whole: Set<String> = [source]
        if let festivalID {
            acts.formUnion(Self.actKeys(names: try billNames(ofEvent: festivalID)))
            whole.formUnion(try recordSources(ofEvent: festivalID).whole)
        }
        let nearby = try eventsNear(
            position, sharing: acts, reach: Self.sameCityKilometres, where: "e.local_date BETWEEN ? AND ? AND e.id <> ?",
            [start, end, festivalID ?? 0])
        return Self.sets(of: (start, end, acts, whole), among: nearby, cityWide: approximate)
    }

    /// The artists on the bills of sets a festival takes in, by name key: the festival's
    /// acts of those names are those artists (a shared event corroborates the name).
    func actKeys(ofSets sets: [NearbyEvent]) throws -> [String: Int64] {
        var keys: [String: Int64] = [:]
        for set in sets { keys.merge(try actKeys(set.id)) { first, _ in first } }
        return keys
    }

    /// Takes sets into a festival's row: their records move to it, their rows go.
    mutating func takeIn(_ sets: [NearbyEvent], into festivalID: Int64) throws {
        guard !sets.isEmpty,
            let row = try Row.fetchOne(db, sql: "SELECT local_date, end_date FROM event WHERE id = ?", arguments: [festivalID])
        else { return }
        for set in sets {
            let festival = NearbyEvent(
                id: festivalID, localDate: row[0], endDate: row[1], kilometres: set.kilometres, actKeys: [], sources: [],
                wholeSources: [])
            try move(eventRow: set.id, into: festivalID, reason: Self.festivalReason(festival, days: set.localDate))
        }
        try rebuildEvent(festivalID)
    }

    /// Makes one event row another's: its records, plans and sightings move, its row goes.
    private mutating func move(eventRow removed: Int64, into kept: Int64, reason: String) throws {
        prefetched[.event] = prefetched[.event]?.mapValues { existing in
            existing.map { $0.entityID == removed ? $0.moved(to: kept) : $0 }
        }
        seen?.recordsMoved(.event, from: removed, to: kept)
        for (sourceID, id) in resolved[.event] ?? [:] where id == removed { resolved[.event]?[sourceID] = kept }
        candidateMemo = [:]
        takenMemo = [:]
        try db.cachedStatement(sql: """
            UPDATE source_record SET entity_id = ?, merge_reason = ?, merged_at = ? WHERE kind = 'event' AND entity_id = ?
            """).execute(arguments: [kept, reason, timestamp, removed])
        for table in ["fan_plan", "fan_seen"] {
            try db.execute(sql: "UPDATE OR IGNORE \(table) SET event_id = ? WHERE event_id = ?", arguments: [kept, removed])
            try db.execute(sql: "DELETE FROM \(table) WHERE event_id = ?", arguments: [removed])
        }
        for table in ["lineup", "offer", "event"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE \(table == "event" ? "id" : "event_id") = ?", arguments: [removed])
        }
    }
}
