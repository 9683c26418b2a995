import GRDB
import Geo
import Listings

/// Read queries: what the CLI and the feeds show.
///
/// "Upcoming" and "past" compare the event's local date at the venue with `today`, a
/// parameter so that callers (and tests) decide what today is.
extension CatalogDatabase {
    /// Row counts, for `encore stats`.
    public func stats(today: LocalDate) throws -> CatalogStats {
        try reader.read { db in
            let count = { (sql: String) throws -> Int in try Int.fetchOne(db, sql: sql) ?? 0 }
            var sources: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT source, COUNT(*) FROM source_record GROUP BY source") {
                sources[row[0]] = row[1]
            }
            // One pass over the events: counted one query each, they were three scans.
            let events = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*), COALESCE(SUM(local_date >= ? AND unlisted_since IS NULL), 0),
                        COALESCE(SUM(status = 'cancelled'), 0)
                    FROM event
                    """,
                arguments: [today.description])
            return CatalogStats(
                events: events?[0] ?? 0,
                upcomingEvents: events?[1] ?? 0,
                cancelledEvents: events?[2] ?? 0,
                artists: try count("SELECT COUNT(*) FROM artist"),
                venues: try count("SELECT COUNT(*) FROM venue"),
                metroAreas: try count("SELECT COUNT(*) FROM metro_area"),
                sourceRecords: try count("SELECT COUNT(*) FROM source_record"),
                sources: sources)
        }
    }

    /// One event with its venue, metro area, lineup and sources; nil when no such id.
    public func event(id: Int64) throws -> EventDetail? {
        try reader.read { db in
            try EventDetailLoader.load(db, where: "e.id = ?", arguments: [id]).first
        }
    }

    /// Artists whose name matches `name` ignoring case, accents and punctuation, most
    /// upcoming events first; empty when none does.
    public func artists(named name: String, today: LocalDate) throws -> [ArtistSummary] {
        try reader.read { db in
            let ids = try Int64.fetchAll(
                db,
                sql: """
                    SELECT a.id FROM artist a
                    WHERE a.folded_name = ?
                    ORDER BY (SELECT COUNT(*) FROM lineup l JOIN event e ON e.id = l.event_id
                              WHERE l.artist_id = a.id AND e.local_date >= ?) DESC, a.id
                    """,
                arguments: [NameFolding.fold(name), today.description])
            return try ids.compactMap { try Self.artistSummary(db, id: $0) }
        }
    }

    /// Names close to `name`, for "did you mean": prefix matches first, then the
    /// nearest spellings, at most `limit`.
    public func artistSuggestions(for name: String, limit: Int = 5) throws -> [String] {
        let folded = NameFolding.fold(name)
        guard !folded.isEmpty else { return [] }
        return try reader.read { db in
            var suggestions: [String] = []
            if let query = Self.prefixQuery(folded) {
                suggestions = try String.fetchAll(
                    db,
                    sql: """
                        SELECT a.name FROM search_index s JOIN artist a ON a.id = s.rowid / 4
                        WHERE search_index MATCH ? AND s.rowid % 4 = 1 ORDER BY s.rank LIMIT ?
                        """,
                    arguments: [query, limit])
            }
            if suggestions.count < limit {
                let threshold = max(2, folded.count / 3)
                var scored: [(Int, String)] = []
                for row in try Row.fetchAll(db, sql: "SELECT name, folded_name FROM artist") {
                    let candidate: String = row[1]
                    guard abs(candidate.count - folded.count) <= threshold else { continue }
                    let distance = NameFolding.editDistance(candidate, folded)
                    if distance <= threshold { scored.append((distance, row[0])) }
                }
                for (_, suggestion) in scored.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) })
                where !suggestions.contains(suggestion) {
                    suggestions.append(suggestion)
                    if suggestions.count == limit { break }
                }
            }
            return suggestions
        }
    }

    /// The band page: an artist, similar artists, and its upcoming (or past) events in
    /// chronological order.
    public func artistPage(artistID: Int64, past: Bool = false, today: LocalDate) throws -> ArtistPage? {
        try reader.read { db in
            guard
                let listing = try Self.artistPageOutlines(
                    db, ids: [artistID], today: today, pastSince: nil, listed: listedEvents
                ).first
            else { return nil }
            let events = try Self.details(db, ids: past ? listing.past : listing.upcoming, listed: "1")
            return ArtistPage(artist: listing.artist, similar: listing.similar, events: events)
        }
    }

    /// The band page with its events as ids: upcoming, and past ones on or after
    /// `pastSince` (all past ones when nil), both chronological.
    public func artistPageOutline(artistID: Int64, today: LocalDate, pastSince: LocalDate? = nil) throws -> ArtistPageOutline? {
        try reader.read { db in
            try Self.artistPageOutlines(db, ids: [artistID], today: today, pastSince: pastSince, listed: listedEvents).first
        }
    }

    /// Artists, venues and metro areas whose names match `text`, and venues whose street
    /// or postal code does ("calle mayor"); the last word may be a prefix ("radioh" finds
    /// Radiohead). Best matches first; a venue found by its address shows it as its place.
    public func search(_ text: String, today: LocalDate, limit: Int = 20) throws -> [SearchHit] {
        guard let query = Self.prefixQuery(NameFolding.fold(text)) else { return [] }
        return try reader.read { db in
            // Twice the limit: a venue can match by name and by address, and is listed once.
            let rows = try Row.fetchAll(
                db, sql: "SELECT rowid FROM search_index WHERE search_index MATCH ? ORDER BY rank, rowid LIMIT ?",
                arguments: [query, limit * 2])
            var seen = Set<Int64>()
            let found = rows.compactMap { row -> (SearchKindCode, Int64)? in
                guard let (kind, id) = SearchKindCode.decode(rowID: row[0]) else { return nil }
                let entry = kind == .venueAddress ? SearchKindCode.venue.rowID(for: id) : row[0] as Int64
                return seen.insert(entry).inserted ? (kind, id) : nil
            }
            return try found.prefix(limit).map { kind, id -> SearchHit in
                let day = today.description
                switch kind {
                case .artist:
                    let name = try String.fetchOne(db, sql: "SELECT name FROM artist WHERE id = ?", arguments: [id]) ?? ""
                    let upcoming = try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM lineup l JOIN event e ON e.id = l.event_id
                            WHERE l.artist_id = ? AND e.local_date >= ? AND e.unlisted_since IS NULL
                            """, arguments: [id, day]) ?? 0
                    return SearchHit(kind: .artist, id: id, name: name, place: nil, upcomingEvents: upcoming)
                case .venue, .venueAddress:
                    let place = try Row.fetchOne(
                        db, sql: "SELECT city, country, name, street FROM venue WHERE id = ?", arguments: [id])
                    let upcoming = try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM event WHERE venue_id = ? AND local_date >= ? AND unlisted_since IS NULL",
                        arguments: [id, day]) ?? 0
                    var shown = Self.place(place?[0], place?[1])
                    if kind == .venueAddress, let street = place?[3] as String? { shown = [street, shown].compactMap { $0 }.joined(separator: ", ") }
                    return SearchHit(kind: .venue, id: id, name: place?[2] ?? "", place: shown, upcomingEvents: upcoming)
                case .metroArea:
                    let place = try Row.fetchOne(
                        db, sql: "SELECT region, country, name FROM metro_area WHERE id = ?", arguments: [id])
                    let upcoming = try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM event e JOIN venue v ON v.id = e.venue_id
                            WHERE v.metro_area_id = ? AND e.local_date >= ? AND e.unlisted_since IS NULL
                            """, arguments: [id, day]) ?? 0
                    return SearchHit(
                        kind: .metroArea, id: id, name: place?[2] ?? "", place: Self.place(place?[0], place?[1]),
                        upcomingEvents: upcoming)
                }
            }
        }
    }

    // MARK: - Helpers

    static func artistSummary(_ db: Database, id: Int64) throws -> ArtistSummary? {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT id, name, mbid, on_tour_until FROM artist WHERE id = ?"), arguments: [id])
        else { return nil }
        let sources = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT source, source_id, url FROM source_record WHERE kind = 'artist' AND entity_id = ? ORDER BY source, source_id"),
            arguments: [id]
        ).map { SourceLink(source: $0[0], id: $0[1], url: $0[2]) }
        let onTour: String? = row[3]
        return ArtistSummary(
            id: row[0], name: row[1], musicBrainzID: row[2], onTourUntil: onTour.flatMap { LocalDate(iso: $0) },
            sources: sources)
    }

    /// An FTS5 query where every word must match and the last may be a prefix.
    static func prefixQuery(_ folded: String) -> String? {
        let words = folded.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0)\"*" }.joined(separator: " ")
    }

    static func place(_ first: String?, _ second: String?) -> String? {
        let parts = [first, second].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

extension CatalogDatabase {
    /// Artists with at least one event on or after `since`, by id: the band pages to build.
    public func artistNames(withEventsSince since: LocalDate) throws -> [(id: Int64, name: String)] {
        try reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT a.id, a.name FROM artist a
                    WHERE EXISTS (SELECT 1 FROM lineup l JOIN event e ON e.id = l.event_id
                                  WHERE l.artist_id = a.id AND COALESCE(e.end_date, e.local_date) >= ?
                                      AND e.unlisted_since IS NULL)
                    ORDER BY a.id
                    """,
                arguments: [since.description]
            ).map { (id: $0[0], name: $0[1]) }
        }
    }

    /// Venues with at least one event on or after `since`, by id.
    /// Venues with at least one listed event on or after `since`, by id, with their cities.
    public func venueNames(withEventsSince since: LocalDate) throws -> [(id: Int64, name: String, city: String?)] {
        try reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT v.id, v.name, v.city FROM venue v
                    WHERE v.id IN (
                        SELECT venue_id FROM event
                        WHERE venue_id IS NOT NULL AND COALESCE(end_date, local_date) >= ? AND unlisted_since IS NULL)
                    ORDER BY v.id
                    """,
                arguments: [since.description]
            ).map { (id: $0[0], name: $0[1], city: $0[2]) }
        }
    }

    public func venueIDs(withEventsSince since: LocalDate) throws -> [Int64] {
        try reader.read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT venue_id FROM event
                    WHERE venue_id IS NOT NULL AND COALESCE(end_date, local_date) >= ? AND unlisted_since IS NULL
                    ORDER BY venue_id
                    """,
                arguments: [since.description])
        }
    }

    /// Events on or after `since`, by id.
    public func eventIDs(since: LocalDate) throws -> [Int64] {
        try reader.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT id FROM event WHERE COALESCE(end_date, local_date) >= ? AND unlisted_since IS NULL ORDER BY id",
                arguments: [since.description])
        }
    }
}

extension CatalogDatabase {
    /// Full details of many events at once, in id order (three queries per call).
    public func events(ids: [Int64]) throws -> [EventDetail] {
        guard !ids.isEmpty else { return [] }
        return try reader.read { db in
            try EventDetailLoader.load(db, where: "e.id IN (SELECT value FROM json_each(?))", arguments: [Self.jsonArray(ids)])
                .sorted { $0.id < $1.id }
        }
    }
}

extension CatalogDatabase {
    /// ``artistPageOutline(artistID:today:pastSince:)`` for many artists at once: four
    /// queries over the range of `ids` instead of four per artist (the feed build reads
    /// every band page). In ascending id order; unknown ids are left out.
    public func artistPageOutlines(ids: [Int64], today: LocalDate, pastSince: LocalDate?) throws -> [ArtistPageOutline] {
        try reader.read { db in
            try Self.artistPageOutlines(db, ids: ids, today: today, pastSince: pastSince, listed: listedEvents)
        }
    }

    static func artistPageOutlines(_ db: Database, ids: [Int64], today: LocalDate, pastSince: LocalDate?, listed: String)
        throws -> [ArtistPageOutline]
    {
        guard let lowest = ids.min(), let highest = ids.max() else { return [] }
        let wanted = Set(ids)
        // A dense batch (the full build's) is read as a range of ids; a sparse one (an
        // incremental build's) by its ids, or the range would read every artist between.
        let sparse = highest - lowest + 1 > Int64(2 * wanted.count)
        func among(_ column: String) -> String {
            sparse ? "\(column) IN (SELECT value FROM json_each(?))" : "\(column) BETWEEN ? AND ?"
        }
        let range: StatementArguments = sparse ? [jsonArray(wanted.sorted())] : [lowest, highest]
        // Each cursor walks the artists in id order; they advance together.
        let artists = try ColumnCursor(
            db.cachedStatement(
                sql: "SELECT id, name, mbid, on_tour_until FROM artist WHERE \(among("id")) ORDER BY id"),
            arguments: range
        ) { row in
            ArtistSummary(
                id: row.int64(0), name: row.text(1), musicBrainzID: row.optionalText(2),
                onTourUntil: row.optionalText(3).flatMap { LocalDate(iso: $0) }, sources: [])
        }
        let sources = PeekingCursor(try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT entity_id, source, source_id, url FROM source_record
                WHERE kind = 'artist' AND \(among("entity_id"))
                ORDER BY entity_id, source, source_id
                """),
            arguments: range
        ) { row in (key: row.int64(0), value: SourceLink(source: row.text(1), id: row.text(2), url: row.optionalText(3))) })
        let events = PeekingCursor(try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT l.artist_id, e.id, e.local_date >= ? FROM lineup l JOIN event e ON e.id = l.event_id
                WHERE \(among("l.artist_id")) AND e.local_date >= ? AND \(listed)
                ORDER BY l.artist_id, e.local_date, e.local_time IS NULL, e.local_time, e.id
                """),
            arguments: [today.description] + range + [pastSince?.description ?? ""]
        ) { row in (key: row.int64(0), value: (id: row.int64(1), upcoming: row.bool(2))) })
        let similar = PeekingCursor(try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT owner, a.id, a.name, MIN(rank) AS best,
                    (SELECT COUNT(*) FROM lineup l JOIN event e ON e.id = l.event_id
                     WHERE l.artist_id = a.id AND e.local_date >= ? AND \(listed)) FROM (
                    SELECT r.entity_id AS owner, s.similar_artist_id AS similar, s.rank AS rank FROM similar_artist s
                    JOIN source_record r ON r.kind = 'artist' AND r.source = s.source AND r.source_id = s.artist_source_id
                    WHERE \(among("r.entity_id"))
                    UNION ALL
                    -- Lists keyed by MusicBrainz id or folded name (ListenBrainz, Last.fm).
                    SELECT o.id, s.similar_artist_id, s.rank FROM artist o
                    JOIN similar_artist s ON s.artist_source_id IN ('mbid:' || o.mbid, 'name:' || o.folded_name)
                    WHERE \(among("o.id"))
                )
                JOIN artist a ON a.id = similar
                WHERE a.id != owner
                GROUP BY owner, a.id ORDER BY owner, best, a.name, a.id
                """),
            arguments: [today.description] + range + range
        ) { row in (key: row.int64(0), value: (artist: ArtistReference(id: row.int64(1), name: row.text(2)), upcoming: Int(row.int64(4)))) })

        var outlines: [ArtistPageOutline] = []
        while var artist = try artists.next() {
            guard wanted.contains(artist.id) else { continue }
            artist.sources = try sources.values(for: artist.id)
            let shows = try events.values(for: artist.id)
            let alike = try similar.values(for: artist.id)
            outlines.append(ArtistPageOutline(
                artist: artist, similar: alike.map(\.artist),
                upcoming: shows.filter(\.upcoming).map(\.id), past: shows.filter { !$0.upcoming }.map(\.id),
                similarUpcoming: Dictionary(alike.filter { $0.upcoming > 0 }.map { ($0.artist.id, $0.upcoming) }, uniquingKeysWith: max)))
        }
        return outlines
    }
}

/// A cursor of `(key, value)` rows in ascending key order, read one key at a time.
final class PeekingCursor<Value> {
    private let cursor: ColumnCursor<(key: Int64, value: Value)>
    private var peeked: (key: Int64, value: Value)?
    private var started = false

    init(_ cursor: ColumnCursor<(key: Int64, value: Value)>) {
        self.cursor = cursor
    }

    /// The values of `key`, skipping rows of smaller keys; keys must be asked in ascending order.
    func values(for key: Int64) throws -> [Value] {
        if !started {
            started = true
            peeked = try cursor.next()
        }
        var values: [Value] = []
        while let row = peeked, row.key <= key {
            if row.key == key { values.append(row.value) }
            peeked = try cursor.next()
        }
        return values
    }
}
