import GRDB
import GRDBSQLite

extension CatalogDatabase {
    /// How much work the catalog's writer does while `body` runs: SQLite virtual-machine
    /// instructions, in thousands. A count of work, not of time, so a test can prove that
    /// a cost grows linearly on any machine, loaded or not.
    public func countingWriterWork(_ body: () throws -> Void) throws -> Int {
        let counter = WorkCounter()
        let context = Unmanaged.passUnretained(counter).toOpaque()
        try writer.writeWithoutTransaction { db in
            sqlite3_progress_handler(db.sqliteConnection, 1000, { context in
                Unmanaged<WorkCounter>.fromOpaque(context!).takeUnretainedValue().thousands += 1
                return 0
            }, context)
        }
        defer {
            try? writer.writeWithoutTransaction { db in sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
        }
        try body()
        // Read on the writer's queue, after every statement the body queued has run.
        return try writer.writeWithoutTransaction { _ in withExtendedLifetime(counter) { counter.thousands } }
    }
}

/// Touched only on the writer's serial queue.
private final class WorkCounter: @unchecked Sendable {
    var thousands = 0
}
