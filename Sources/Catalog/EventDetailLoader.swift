import GRDB
import Listings

/// Loads full event details (venue, metro area, lineup, sources) for a set of events
/// in three queries, however many events there are.
enum EventDetailLoader {
    /// Events matching `condition` (SQL over alias `e` for event), chronological:
    /// by local date, then local time (unknown times last), then id.
    static func load(
        _ db: Database, where condition: String, arguments: StatementArguments, limit: Int? = nil
    ) throws -> [EventDetail] {
        let limitClause = limit.map { " LIMIT \($0)" } ?? ""
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT e.id, e.title, e.kind, e.status, e.local_date, e.local_time, e.timezone, e.start_utc,
                    e.end_date, e.popularity, e.age_restriction,
                    v.id, v.name, v.street, v.postal_code, v.city, v.region, v.country, v.latitude, v.longitude,
                    v.coordinates_approximate, v.timezone,
                    m.id, m.name, m.country, m.region, e.unlisted_since
                FROM event e
                LEFT JOIN venue v ON v.id = e.venue_id
                LEFT JOIN metro_area m ON m.id = v.metro_area_id
                WHERE \(condition)
                ORDER BY e.local_date, e.local_time IS NULL, e.local_time, e.id\(limitClause)
                """,
            arguments: arguments)
        guard !rows.isEmpty else { return [] }
        let ids = rows.map { $0[0] as Int64 }
        let lineups = try lineups(db, eventIDs: ids)
        let sources = try sources(db, eventIDs: ids)
        return rows.map { row in
            let id: Int64 = row[0]
            let localDate: String = row[4]
            let localTime: String? = row[5]
            let utc: String? = row[7]
            let endDate: String? = row[8]
            var venue: VenueSummary?
            if let venueID = row[11] as Int64? {
                venue = VenueSummary(
                    id: venueID, name: row[12], street: row[13], postalCode: row[14], city: row[15], region: row[16],
                    country: row[17], latitude: row[18], longitude: row[19], coordinatesApproximate: row[20],
                    timeZone: row[21])
            }
            var metro: MetroAreaSummary?
            if let metroID = row[22] as Int64? {
                metro = MetroAreaSummary(id: metroID, name: row[23], country: row[24], region: row[25])
            }
            var detail = EventDetail(
                id: id, title: row[1], kind: EventKind(rawValue: row[2]) ?? .concert,
                status: EventStatus(rawValue: row[3]) ?? .scheduled,
                start: EventStart(
                    localDate: LocalDate(iso: localDate)!, localTime: localTime.flatMap { LocalTime(iso: $0) },
                    timeZone: row[6], utc: utc.flatMap { UTCInstant(iso: $0) }),
                endDate: endDate.flatMap { LocalDate(iso: $0) }, venue: venue, metroArea: metro,
                lineup: lineups[id] ?? [], sources: sources[id] ?? [], popularity: row[9], ageRestriction: row[10])
            detail.unlistedSince = row[26]
            return detail
        }
    }

    private static func chunks(_ ids: [Int64]) -> [[Int64]] {
        stride(from: 0, to: ids.count, by: 500).map { Array(ids[$0..<min($0 + 500, ids.count)]) }
    }

    private static func lineups(_ db: Database, eventIDs: [Int64]) throws -> [Int64: [LineupEntry]] {
        var result: [Int64: [LineupEntry]] = [:]
        for chunk in chunks(eventIDs) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT l.event_id, l.artist_id, a.name, l.billing, l.position FROM lineup l
                    JOIN artist a ON a.id = l.artist_id
                    WHERE l.event_id IN (\(marks))
                    ORDER BY l.event_id, l.position, a.name, a.id
                    """,
                arguments: StatementArguments(chunk))
            for row in rows {
                let entry = LineupEntry(
                    artistID: row[1], name: row[2], billing: Billing(rawValue: row[3]) ?? .support, order: row[4])
                result[row[0], default: []].append(entry)
            }
        }
        return result
    }

    private static func sources(_ db: Database, eventIDs: [Int64]) throws -> [Int64: [SourceLink]] {
        var result: [Int64: [SourceLink]] = [:]
        for chunk in chunks(eventIDs) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT entity_id, source, source_id, url FROM source_record
                    WHERE kind = 'event' AND entity_id IN (\(marks))
                    ORDER BY entity_id, source, source_id
                    """,
                arguments: StatementArguments(chunk))
            for row in rows {
                result[row[0], default: []].append(SourceLink(source: row[1], id: row[2], url: row[3]))
            }
        }
        return result
    }
}
