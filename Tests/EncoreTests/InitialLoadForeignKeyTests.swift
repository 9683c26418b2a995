@testable import Catalog
import Foundation
import GRDB
import Listings
import Testing

/// An initial load's groups write with SQLite's foreign key checks off, and the catalog is
/// checked as the load ends: the checks must be off no longer than those groups, and a
/// row left referring to nothing must not go unnoticed.
struct InitialLoadForeignKeyTests {
    /// Whether the catalog's writing connection checks foreign keys, asked from inside a
    /// group (which holds that connection) or outside one.
    func checksForeignKeys(_ catalog: CatalogDatabase, insideAGroup: Bool = false) throws -> Bool {
        let read = { (db: Database) in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false }
        return insideAGroup
            ? try catalog.writer.unsafeReentrantWrite(read) : try catalog.writer.writeWithoutTransaction(read)
    }

    /// Runs statements on a connection of its own that does not check foreign keys.
    func writeUnchecked(_ path: String, _ statements: String...) throws {
        var unchecked = Configuration()
        unchecked.foreignKeysEnabled = false
        try DatabaseQueue(path: path, configuration: unchecked).write { db in
            for statement in statements { try db.execute(sql: statement) }
        }
    }

    @Test func onlyAnInitialLoadsGroupsWriteWithTheChecksOff() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        let pages = MergeTests().pages
        try catalog.withLoad {
            try catalog.withPageGroup { group in
                #expect(try !checksForeignKeys(catalog, insideAGroup: true))
                _ = try group.apply(pages[0], pageHash: "0", format: "songkick-json")
            }
            #expect(try checksForeignKeys(catalog))
        }
        #expect(try checksForeignKeys(catalog))
        // The catalog holds records now: the next run's groups check as they write.
        try catalog.withLoad {
            try catalog.withPageGroup { group in
                #expect(try checksForeignKeys(catalog, insideAGroup: true))
                _ = try group.apply(pages[1], pageHash: "1", format: "bandsintown")
            }
        }
        #expect(try catalog.stats(today: TestSupport.today).events == 1)
    }

    /// What a fault of the load's own could leave: a bill or an offer naming an event no
    /// longer there, an event at a venue that is not.
    enum Orphan: String, CaseIterable {
        case lineup, offer, event

        var insert: String {
            switch self {
            case .lineup:
                """
                INSERT INTO lineup (event_id, artist_id, billing, position) SELECT 999, min(id), 'headline', 1 FROM artist
                """
            case .offer: "INSERT INTO offer (event_id, position, source) VALUES (999, 1, 'songkick')"
            case .event:
                """
                INSERT INTO event (title, kind, status, local_date, venue_id)
                VALUES ('Lost', 'concert', 'scheduled', '2026-12-01', 999)
                """
            }
        }
    }

    @Test(arguments: Orphan.allCases)
    func aRowLeftReferringToNothingFailsTheLoadThatWroteUnchecked(_ orphan: Orphan) throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let pages = MergeTests().pages
        #expect {
            try catalog.withLoad {
                try catalog.withPageGroup { group in
                    _ = try group.apply(pages[0], pageHash: "0", format: "songkick-json")
                }
                try writeUnchecked(path, orphan.insert)
            }
        } throws: { error in
            guard case .rowReferringToNothing(let underlying) = error as? LoadUnfinished else { return false }
            return (underlying as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY
                && "\(error)".contains("from \(orphan.rawValue)(")
        }
        // The load's pages landed, and its indexes were built, before the check.
        #expect(try catalog.stats(today: TestSupport.today).events >= 1)
        let indexes = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'index'")
        }
        #expect(Set(InitialLoad.deferredIndexes.map(\.name)).isSubset(of: indexes))
    }

    /// A load killed midway leaves its indexes out and its rows unchecked: the run that
    /// builds the indexes checks the rows too.
    @Test func theRunThatFinishesAKilledLoadChecksWhatItWrote() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let pages = MergeTests().pages
        try catalog.withLoad {
            try catalog.withPageGroup { group in
                _ = try group.apply(pages[0], pageHash: "0", format: "songkick-json")
            }
        }
        // What the killed load left: an index out, and a row of its referring to nothing.
        try writeUnchecked(path, "DROP INDEX \(InitialLoad.deferredIndexes[0].name)", Orphan.offer.insert)
        #expect {
            try catalog.withLoad {
                try catalog.withPageGroup { group in
                    _ = try group.apply(pages[1], pageHash: "1", format: "bandsintown")
                }
            }
        } throws: { error in
            guard case .rowReferringToNothing = error as? LoadUnfinished else { return false }
            return "\(error)".contains("from offer(")
        }
        #expect(try catalog.stats(today: TestSupport.today).events == 1, "the run's page landed")
    }
}
