import GRDB

/// Direct access to a catalog file, to break it on purpose in tests.
struct CatalogSabotage {
    let queue: DatabaseQueue

    init(path: String) throws {
        queue = try DatabaseQueue(path: path)
    }

    func failInsertsOfEventsTitled(_ title: String) throws {
        try queue.write { db in
            try db.execute(sql: """
                CREATE TRIGGER sabotage BEFORE INSERT ON event WHEN NEW.title = '\(title)'
                BEGIN SELECT RAISE(ABORT, 'sabotaged'); END
                """)
        }
    }

    func remove() throws {
        try queue.write { db in try db.execute(sql: "DROP TRIGGER sabotage") }
    }

    func deleteNewestEvent() throws -> Int64 {
        try queue.write { db in
            let id = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM event")!
            try db.execute(sql: "DELETE FROM lineup WHERE event_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM event WHERE id = ?", arguments: [id])
            return id
        }
    }

    func eventTitles() throws -> [String] {
        try queue.read { db in try String.fetchAll(db, sql: "SELECT title FROM event ORDER BY id") }
    }

    func newestEventID() throws -> Int64 {
        try queue.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM event")! }
    }

    /// Whether the catalog accepts a write the schema's constraints should refuse.
    func accepts(_ sql: String) -> Bool {
        (try? queue.write { db in try db.execute(sql: sql) }) != nil
    }

    func schema(of table: String) throws -> String {
        try queue.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE name = ?", arguments: [table]) ?? ""
        }
    }
}
