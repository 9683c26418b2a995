@testable import Catalog
import Foundation
import GRDB
import Testing

/// Catalogs made by earlier versions migrate to the schema a new catalog has, rows kept.
struct MigrationTests {
    private static func schema(_ path: String) throws -> [Row] {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name")
        }
    }

    @Test func aCatalogAtVersion11MigratesToTheSchemaOfANewOneKeepingItsRowsAndIds() throws {
        let directory = try TestSupport.temporaryDirectory()
        let old = directory.appendingPathComponent("v11.sqlite").path
        let queue = try DatabaseQueue(path: old)
        try CatalogDatabase.migrator.migrate(queue, upTo: "v11: revisions, so feed builds can find what changed")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO venue (id, name) VALUES (1, 'Roundhouse');
                INSERT INTO artist (id, name, folded_name) VALUES (1, 'Velvet Harbour', 'velvet harbour');
                INSERT INTO event (id, title, kind, status, local_date, venue_id, unlisted_since, revision)
                    VALUES (1, 'Velvet Harbour', 'concert', 'postponed', '2027-03-14', 1, NULL, 4),
                           (2, 'Gone', 'concert', 'scheduled', '2027-03-15', 1, NULL, 4);
                DELETE FROM event WHERE id = 2;
                INSERT INTO lineup (event_id, artist_id, billing, position) VALUES (1, 1, 'headline', 1);
                INSERT INTO offer (event_id, position, source) VALUES (1, 0, 'songkick');
                INSERT INTO fan (name) VALUES ('ada');
                INSERT INTO fan_plan (fan, event_id, planned_date, added_at) VALUES ('ada', 1, '2027-03-14', 'now');
                INSERT INTO source_record (id, source, kind, source_id, entity_id, content_hash, first_seen, last_seen, payload)
                    VALUES (7, 'songkick', 'event', 'e1', 1, 'h', 't', 't', '{}');
                """)
        }
        try queue.close()

        _ = try CatalogDatabase(path: old)
        let fresh = directory.appendingPathComponent("new.sqlite").path
        _ = try CatalogDatabase(path: fresh)
        #expect(try Self.schema(old) == Self.schema(fresh))
        let (statuses, counts, payload, foreignKeyErrors, eventSequence) = try DatabaseQueue(path: old).read { db in
            (
                try String.fetchAll(db, sql: "SELECT status FROM event"),
                try Int.fetchAll(db, sql: """
                    SELECT COUNT(*) FROM lineup UNION ALL SELECT COUNT(*) FROM offer UNION ALL SELECT COUNT(*) FROM fan_plan
                    """),
                try String.fetchOne(db, sql: "SELECT payload FROM source_record WHERE id = 7"),
                try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count,
                try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'event'")
            )
        }
        #expect(statuses == ["postponed"])
        #expect(counts == [1, 1, 1])
        #expect(payload == "{}")
        #expect(foreignKeyErrors == 0)
        // The deleted event's id is never handed out again.
        #expect(eventSequence == 2)
        // The rebuilt constraints still refuse what the old ones refused.
        #expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: old).write { db in
                try db.execute(sql: "UPDATE event SET status = 'maybe' WHERE id = 1")
            }
        }
    }
}
