import Foundation
import GRDB
import Listings

/// The Encore catalog: one SQLite file (WAL mode) holding normalized listings and the
/// source records behind every row.
///
/// It owns the schema migrations and exposes named write transactions
/// (``apply(_:pageHash:format:)``) that keep the data valid, plus read queries.
///
/// ```swift
/// let catalog = try CatalogDatabase(path: "encore.sqlite")
/// let stats = try catalog.stats(today: LocalDate(iso: "2026-11-22")!)
/// ```
public struct CatalogDatabase: Sendable {
    let writer: any DatabaseWriter
    /// What queries read: the writer's pool, or one snapshot of it (``readingOneSnapshot()``).
    private(set) var reader: any DatabaseReader
    /// The clock used for provenance timestamps; injected so tests are reproducible.
    let now: @Sendable () -> Date
    /// Whether event lists include events no source lists any more (`--all`). Feeds and
    /// counts never do; an event asked for by id is always found.
    public var includesUnlisted = false
    /// What this process's ingest groups have learnt about source records.
    let seenRecords = SeenRecords()

    /// SQL over alias `e`: the events lists show.
    var listedEvents: String { includesUnlisted ? "1" : "e.unlisted_since IS NULL" }

    /// Opens (creating if needed) the catalog at `path` and migrates it.
    /// - Parameter readsOnce: true for a reader that goes through the whole catalog once (a
    ///   feed build): it neither maps the file nor keeps a big page cache, since every mapped
    ///   page it touched would stay in its resident memory, which would grow with the catalog.
    /// - Throws: a `DatabaseError` when the file is not a usable SQLite database.
    public init(path: String, readsOnce: Bool = false, now: @escaping @Sendable () -> Date = Date.init) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            if !db.configuration.readonly {
                // Takes effect only when the file is created (an existing catalog keeps its
                // size until a VACUUM). Records carry snapshots of about a kilobyte, which
                // 16 KB pages hold with less overhead than 4 KB ones. Set before the cache
                // size: set after it, a first ingest's peak memory nearly doubled.
                try db.execute(sql: "PRAGMA page_size = 16384")
            }
            // Readers keep working while a writer holds the lock; writers wait a while
            // for one another instead of failing at once.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Ingest looks records up all over the catalog's indexes; with SQLite's small
            // default page cache most of those lookups would be system calls.
            try db.execute(sql: "PRAGMA cache_size = \(readsOnce ? -8192 : -65536)")
            // Queries on a big catalog touch pages all over the file; mapped pages are read
            // without a system call each (SQLite caps this at its compile-time maximum).
            // Readers only: an ingest touches most of the file, and mapped pages would
            // count toward its resident memory.
            if db.configuration.readonly {
                try db.execute(sql: "PRAGMA mmap_size = \(readsOnce ? 0 : 2_147_418_112)")
            } else {
                // Statement journals (and the savepoint a page gets after a failure in
                // its group) hold the original of every database page they change; past
                // 64 KB SQLite would spill them to a temporary file, written and never read.
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
            }
        }
        configuration.busyMode = .timeout(10)
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        // Processes opening a catalog at once set it up one after the other: a new
        // file's switch to WAL needs it alone ("database is locked"), and the migrator
        // lists what to apply before its transactions, so two at once applied the same
        // migration twice ("duplicate column name"). The first sets it up; the others wait,
        // then find nothing to do. Held for the opening only (no lock file in a read-only
        // directory: opening goes on without one).
        let lock = try? ExclusiveFileLock(waitingFor: path + ".migration-lock")
        defer { lock?.release() }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try self.init(writer: pool, now: now)
    }

    /// A catalog in memory, for tests and one-off runs.
    public static func inMemory(now: @escaping @Sendable () -> Date = Date.init) throws -> CatalogDatabase {
        try CatalogDatabase(writer: DatabaseQueue(), now: now)
    }

    init(writer: any DatabaseWriter, now: @escaping @Sendable () -> Date) throws {
        self.writer = writer
        reader = writer
        self.now = now
        // Checked with a read first: migrating takes the write lock, and a query must not
        // wait for a running ingest's page to commit just to learn nothing needs doing.
        if try !writer.read({ try Self.migrator.hasCompletedMigrations($0) }) {
            try Self.migrator.migrate(writer)
        }
    }

    /// The catalog as it is now, whatever commits while the copy is read: every query of
    /// the copy reads one SQLite snapshot (one read transaction, held until the copy is
    /// released). A feed build reads through one, so that an ingest committing meanwhile
    /// cannot leave a list linking a concert page the build never wrote.
    public func readingOneSnapshot() throws -> CatalogDatabase {
        guard let pool = writer as? DatabasePool else { return self }
        var copy = self
        copy.reader = try pool.makeSnapshot()
        return copy
    }

    /// Formats an instant as the catalog stores timestamps (`YYYY-MM-DDTHH:MM:SSZ`).
    static func timestamp(_ date: Date) -> String {
        UTCInstant(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down))).description
    }
}
