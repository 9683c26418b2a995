import GRDB
import Listings

/// What changed since a revision: how a feed build finds the few documents to render
/// again instead of all of them.
extension CatalogDatabase {
    /// The revision of the last write that applied listings (see migration v11).
    public func catalogRevision() throws -> Int64 {
        try reader.read { db in try Int64.fetchOne(db, sql: "SELECT value FROM catalog_revision WHERE id = 1") ?? 0 }
    }

    /// Rows written after `revision`, with what shows them: an event whose venue, metro
    /// area or act changed is listed as changed too, and so is a band page whose similar
    /// artists include a changed artist.
    public func changes(since revision: Int64) throws -> CatalogChanges {
        // INDEXED BY: with no statistics, SQLite would rather scan a table in id order
        // for the UNION than look the few changed rows up (migration v13's indexes).
        try reader.read { db in
            let metros = try Int64.fetchAll(
                db, sql: "SELECT id FROM metro_area INDEXED BY metro_area_revision WHERE revision > ? ORDER BY id",
                arguments: [revision])
            let venues = try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM venue INDEXED BY venue_revision WHERE revision > ?1
                    UNION SELECT v.id FROM metro_area m JOIN venue v ON v.metro_area_id = m.id WHERE m.revision > ?1
                    ORDER BY 1
                    """,
                arguments: [revision])
            let artists = try Int64.fetchAll(
                db,
                sql: """
                    WITH changed AS (SELECT id FROM artist INDEXED BY artist_revision WHERE revision > ?1)
                    SELECT id FROM changed
                    UNION SELECT r.entity_id FROM changed c
                        JOIN similar_artist s ON s.similar_artist_id = c.id
                        JOIN source_record r ON r.kind = 'artist' AND r.source = s.source AND r.source_id = s.artist_source_id
                    ORDER BY 1
                    """,
                arguments: [revision])
            // CROSS JOIN: from the few changed artists to their bills, not every bill to its artist.
            let events = try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM event INDEXED BY event_revision WHERE revision > ?1
                    UNION SELECT e.id FROM event e WHERE e.venue_id IN (SELECT value FROM json_each(?2))
                    UNION SELECT l.event_id FROM artist a CROSS JOIN lineup l ON l.artist_id = a.id WHERE a.revision > ?1
                    ORDER BY 1
                    """,
                arguments: [revision, Self.jsonArray(venues)])
            return CatalogChanges(events: events, artists: artists, venues: venues, metroAreas: metros)
        }
    }

    /// Where events are listed: their venue, the venue's metro area and their acts.
    public func eventOwners(ids: [Int64]) throws -> [EventOwners] {
        guard !ids.isEmpty else { return [] }
        return try reader.read { db in
            var owners: [Int64: EventOwners] = [:]
            let rows = try ColumnCursor(
                db.cachedStatement(sql: """
                    SELECT e.id, e.venue_id, v.metro_area_id FROM json_each(?) ids
                    JOIN event e ON e.id = ids.value LEFT JOIN venue v ON v.id = e.venue_id
                    """),
                arguments: [Self.jsonArray(ids)]
            ) { row in EventOwners(eventID: row.int64(0), venueID: row.optionalInt64(1), metroAreaID: row.optionalInt64(2), artistIDs: []) }
            while let row = try rows.next() { owners[row.eventID] = row }
            let acts = try ColumnCursor(
                db.cachedStatement(sql: """
                    SELECT l.event_id, l.artist_id FROM json_each(?) ids JOIN lineup l ON l.event_id = ids.value
                    ORDER BY l.event_id, l.artist_id
                    """),
                arguments: [Self.jsonArray(ids)]
            ) { row in (row.int64(0), row.int64(1)) }
            while let (event, artist) = try acts.next() { owners[event]?.artistIDs.append(artist) }
            return owners.values.sorted { $0.eventID < $1.eventID }
        }
    }
}
