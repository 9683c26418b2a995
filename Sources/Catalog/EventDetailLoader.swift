import GRDB
import Listings

/// Loads full event details (venue, metro area, lineup, offers, sources) for a set of
/// events in four queries, however many events there are.
///
/// Lists of ids are joined from a JSON array (`json_each(?) CROSS JOIN …`) rather than
/// matched with `IN (…)`, for which SQLite would first build a temporary index of the ids.
enum EventDetailLoader {
    /// Events matching `condition` (SQL over alias `e` for event), chronological:
    /// by local date, then local time (unknown times last), then id. Callers that put the
    /// events in their own order pass `chronological: false` and save SQLite a sort.
    static func load(_ db: Database, where condition: String, arguments: StatementArguments) throws -> [EventDetail] {
        try load(db, from: "event e", where: condition, arguments: arguments, chronological: true)
    }

    /// The events of `ids` (distinct) that meet `condition`, in the order of `ids`.
    static func load(_ db: Database, ids: [Int64], where condition: String = "1") throws -> [EventDetail] {
        try load(
            db, from: "json_each(?) page CROSS JOIN event e ON e.id = page.value", where: condition,
            arguments: [CatalogDatabase.jsonArray(ids)], chronological: false)
    }

    private static func load(
        _ db: Database, from source: String, where condition: String, arguments: StatementArguments, chronological: Bool
    ) throws -> [EventDetail] {
        // Cached: the same few conditions come back on every query, and preparing this
        // join costs more than running it for a page of events.
        let statement = try db.cachedStatement(sql: """
            SELECT e.id, e.title, e.kind, e.status, e.local_date, e.local_time, e.timezone, e.start_utc,
                e.end_date, e.popularity, e.age_restriction,
                v.id, v.name, v.street, v.postal_code, v.city, v.region, v.country, v.latitude, v.longitude,
                v.coordinates_approximate, v.timezone,
                m.id, m.name, m.country, m.region, e.unlisted_since, e.note, e.changed_at, e.change
            FROM \(source)
            LEFT JOIN venue v ON v.id = e.venue_id
            LEFT JOIN metro_area m ON m.id = v.metro_area_id
            WHERE \(condition)
            \(chronological ? "ORDER BY e.local_date, e.local_time IS NULL, e.local_time, e.id" : "")
            """)
        // A page often has several shows at one venue; its columns are decoded once.
        var venues: [Int64: VenueSummary] = [:]
        var events = try ColumnCursor(statement, arguments: arguments) { row -> EventDetail in
            var venue: VenueSummary?
            if let venueID = row.optionalInt64(11) {
                venue = venues[venueID] ?? VenueSummary(
                    id: venueID, name: row.text(12), street: row.optionalText(13), postalCode: row.optionalText(14),
                    city: row.optionalText(15), region: row.optionalText(16), country: row.optionalText(17),
                    latitude: row.optionalDouble(18), longitude: row.optionalDouble(19),
                    coordinatesApproximate: row.bool(20), timeZone: row.optionalText(21))
                venues[venueID] = venue
            }
            var metro: MetroAreaSummary?
            if let metroID = row.optionalInt64(22) {
                metro = MetroAreaSummary(
                    id: metroID, name: row.text(23), country: row.optionalText(24), region: row.optionalText(25))
            }
            var detail = EventDetail(
                id: row.int64(0), title: row.text(1), kind: row.value(2, else: EventKind.concert),
                status: row.value(3, else: EventStatus.scheduled),
                start: EventStart(
                    localDate: row.localDate(4)!, localTime: row.optionalText(5).flatMap { LocalTime(iso: $0) },
                    timeZone: row.optionalText(6), utc: row.optionalText(7).flatMap { UTCInstant(iso: $0) }),
                endDate: row.localDate(8), venue: venue, metroArea: metro,
                lineup: [], sources: [], popularity: row.optionalDouble(9), ageRestriction: row.optionalText(10))
            detail.unlistedSince = row.optionalText(26)
            detail.note = row.optionalText(27)
            detail.changedAt = row.optionalText(28).flatMap { UTCInstant(iso: $0) }
            detail.change = row.optionalText(29).flatMap(EventChange.init(rawValue:))
            return detail
        }.all()
        guard !events.isEmpty else { return [] }
        // Lineups and sources go straight into their event: no dictionaries of arrays. They
        // are sorted here, per event, rather than by SQLite over the whole page.
        var position: [Int64: Int] = [:]
        position.reserveCapacity(events.count)
        for (index, event) in events.enumerated() { position[event.id] = index }
        let ids = CatalogDatabase.jsonArray(events.map(\.id))
        let lineups = try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT l.event_id, l.artist_id, a.name, l.billing, l.position, l.slot_date, l.slot_time
                FROM json_each(?) page CROSS JOIN lineup l ON l.event_id = page.value
                JOIN artist a ON a.id = l.artist_id
                """),
            arguments: [ids]
        ) { row in
            (row.int64(0), LineupEntry(
                artistID: row.int64(1), name: row.text(2), billing: row.value(3, else: Billing.support),
                order: row.int(4),
                slot: row.optionalText(5).flatMap { LocalDate(iso: $0) }.map { date in
                    LineupEntry.Slot(date: date, time: row.optionalText(6).flatMap { LocalTime(iso: $0) })
                }))
        }
        while let (eventID, entry) = try lineups.next() {
            if let index = position[eventID] { events[index].lineup.append(entry) }
        }
        // Offers were written in their order (`position`); rows come in no particular one.
        var offers: [(event: Int, position: Int, offer: OfferDetail)] = []
        let offerRows = try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT o.event_id, o.position, o.source, o.url, o.price_min, o.price_max, o.currency, o.status, o.on_sale
                FROM json_each(?) page CROSS JOIN offer o ON o.event_id = page.value
                """),
            arguments: [ids]
        ) { row in
            (row.int64(0), row.int(1), OfferDetail(source: row.text(2), offer: OfferListing(
                url: row.optionalText(3), priceMin: row.optionalDouble(4), priceMax: row.optionalDouble(5),
                currency: row.optionalText(6), status: row.optionalText(7), onSale: row.optionalText(8))))
        }
        while let (eventID, offerPosition, offer) = try offerRows.next() {
            if let index = position[eventID] { offers.append((index, offerPosition, offer)) }
        }
        offers.sort { ($0.event, $0.position) < ($1.event, $1.position) }
        for row in offers { events[row.event].offers.append(row.offer) }
        let sources = try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT s.entity_id, s.source, s.source_id, s.url, s.first_seen
                FROM json_each(?) page CROSS JOIN source_record s ON s.kind = 'event' AND s.entity_id = page.value
                """),
            arguments: [ids]
        ) { row in
            (row.int64(0), SourceLink(source: row.text(1), id: row.text(2), url: row.optionalText(3)), UTCInstant(iso: row.text(4)))
        }
        while let (eventID, link, firstSeen) = try sources.next() {
            guard let index = position[eventID] else { continue }
            events[index].sources.append(link)
            if let firstSeen, events[index].firstSeen.map({ firstSeen < $0 }) ?? true { events[index].firstSeen = firstSeen }
        }
        for index in events.indices {
            if events[index].lineup.count > 1 { events[index].lineup.sort(by: Self.billedBefore) }
            if events[index].sources.count > 1 { events[index].sources.sort(by: Self.listedBefore) }
        }
        return events
    }

    /// Lineup order: by position, then name (bytewise, as SQLite compares), then artist id.
    static func billedBefore(_ a: LineupEntry, _ b: LineupEntry) -> Bool {
        if a.order != b.order { return a.order < b.order }
        if a.name != b.name { return a.name.utf8.lexicographicallyPrecedes(b.name.utf8) }
        return a.artistID < b.artistID
    }

    /// Source order: by source name, then the source's id (bytewise).
    static func listedBefore(_ a: SourceLink, _ b: SourceLink) -> Bool {
        if a.source != b.source { return a.source.utf8.lexicographicallyPrecedes(b.source.utf8) }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}
