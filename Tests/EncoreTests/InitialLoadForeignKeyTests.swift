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

    @Test func aRowLeftReferringToNothingFailsTheLoadThatWroteUnchecked() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let pages = MergeTests().pages
        #expect {
            try catalog.withLoad {
                try catalog.withPageGroup { group in
                    _ = try group.apply(pages[0], pageHash: "0", format: "songkick-json")
                }
                // What a fault of the load's own would leave: a bill naming an event no
                // longer there.
                var unchecked = Configuration()
                unchecked.foreignKeysEnabled = false
                try DatabaseQueue(path: path, configuration: unchecked).write { db in
                    let artist = try Int64.fetchOne(db, sql: "SELECT min(id) FROM artist")
                    try db.execute(
                        sql: "INSERT INTO lineup (event_id, artist_id, billing, position) VALUES (999, ?, 'headline', 1)",
                        arguments: [artist])
                }
            }
        } throws: { error in
            guard case .rowReferringToNothing(let underlying) = error as? LoadUnfinished else { return false }
            return (underlying as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY
                && "\(error)".contains("lineup")
        }
        // The load's pages landed, and its indexes were built, before the check.
        #expect(try catalog.stats(today: TestSupport.today).events == 1)
        let indexes = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'index'")
        }
        #expect(Set(InitialLoad.deferredIndexes.map(\.name)).isSubset(of: indexes))
    }
}
