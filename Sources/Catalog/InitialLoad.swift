import GRDB
import Listings

/// What an ingest run (``CatalogDatabase/withLoad(_:)``) knows about the catalog it
/// fills, from one group to the next.
///
/// A run that begins on an empty catalog is an initial load, and until a page of a
/// second source arrives or another connection writes, every record in the catalog is
/// the first source's. Then:
/// - no listing can merge with another source's, so the searches for one are skipped
///   (they would find nothing);
/// - the indexes the load itself never reads (``deferredIndexes``) are dropped, and built
///   once when the load ends, by sorting, rather than each act of each bill and each new
///   name going into them at a random place.
///
/// - its groups write with SQLite's foreign key checks off (every row a bill, an offer or
///   an event refers to is one the load just wrote, so looking each up again is wasted), and the
///   whole catalog is checked once when the load ends, as GRDB's migrations do with
///   deferred checks.
///
/// Queries during the load stay right (SQLite plans without the index). A load killed
/// midway (or whose end failed) leaves the indexes out: the next group any ingest opens
/// builds them, and that run checks the whole catalog as it ends, since the rows the
/// load wrote were never checked.
///
/// Only the catalog's writer touches it, inside its transactions.
final class InitialLoad: @unchecked Sendable {
    enum State: Equatable {
        /// No run.
        case idle
        /// A run that has not opened a group yet.
        case undecided
        /// Every record in the catalog is this source's (nil: no page applied yet).
        case soleSource(String?)
        /// The catalog holds, or may hold, records of more than one source.
        case shared
    }

    /// Dropped during an initial load: nothing the load does reads them (names, match
    /// keys, MusicBrainz ids and the events at a venue on a day are searched only for
    /// another source's listings; revisions only by feed builds; a row's records are its
    /// one record, this source's, in hand whenever it is rebuilt). Spelt as the migrations
    /// created them.
    static let deferredIndexes = [
        (name: "lineup_artist", definition: "lineup(artist_id, event_id)"),
        (name: "artist_folded_name", definition: "artist(folded_name)"),
        (name: "artist_match_key", definition: "artist(match_key)"),
        (name: "artist_mbid", definition: "artist(mbid) WHERE mbid IS NOT NULL"),
        (name: "venue_match_key", definition: "venue(match_key)"),
        (name: "event_revision", definition: "event(revision)"),
        (name: "venue_revision", definition: "venue(revision)"),
        (name: "artist_revision", definition: "artist(revision)"),
        (name: "source_record_entity", definition: "source_record(kind, entity_id, source)"),
        (name: "event_venue_window", definition: "event(venue_id, local_date, local_time, end_date, unlisted_since)"),
    ]

    private(set) var state = State.idle
    /// Every record the run wrote; while the load lasts, the catalog has no others.
    private(set) var records = LoadedRecords()
    /// `PRAGMA data_version` when the last group opened: it moves when another connection
    /// commits.
    private var dataVersion: Int64?
    /// Whether the catalog may hold rows written with foreign key checks off and not
    /// checked since: a group of this run wrote some, or an earlier load did not finish.
    private(set) var holdsUncheckedRows = false

    func runBegins() {
        state = .undecided
        records = LoadedRecords()
        dataVersion = nil
        holdsUncheckedRows = false
    }

    func runEnds() {
        state = .idle
        records = LoadedRecords()
        dataVersion = nil
    }

    /// Called before a group's transaction begins (the setting cannot change inside one):
    /// turns SQLite's foreign key checks off for a group that is likely part of an initial
    /// load. Likely, not certain: the state is decided again once the transaction holds the
    /// lock, and a page of another source may end the load midway through the group; the
    /// check when the run ends covers either.
    /// - Returns: whether the checks are off, to be turned on again when the group ends
    ///   (``checkForeignKeysAgain(_:)``).
    func groupWillBegin(_ db: Database) throws -> Bool {
        let likely = switch state {
        case .soleSource: true
        case .undecided: try Self.holdsNoRecords(db)
        case .idle, .shared: false
        }
        guard likely else { return false }
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        holdsUncheckedRows = true
        return true
    }

    /// Turns the checks on again, after a group ends (outside its transaction).
    static func checkForeignKeysAgain(_ db: Database) throws {
        try db.execute(sql: "PRAGMA foreign_keys = ON")
    }

    private static func holdsNoRecords(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM source_record)") ?? false
    }

    /// Called as a group's transaction begins (again, after a rollback): decides or
    /// revises the state, and drops or builds the deferred indexes to match, since a
    /// rollback undoes either.
    /// - Returns: whether the catalog as committed has every index (no load is running,
    ///   and none ended without its indexes built and committed): what other connections
    ///   read is as fast as the writer's reads.
    func groupBegins(_ db: Database, dataVersion: Int64) throws -> Bool {
        switch state {
        case .idle, .shared: break
        case .undecided:
            state = try Self.holdsNoRecords(db) ? .soleSource(nil) : .shared
        case .soleSource:
            if dataVersion != self.dataVersion { state = .shared }
        }
        self.dataVersion = dataVersion
        var indexed = false
        if !isDeferring {
            indexed = try Self.deferredIndexesPresent(db)
            // Only a load that did not finish leaves them out, and its rows unchecked.
            if !indexed { holdsUncheckedRows = true }
        }
        try Self.matchIndexes(db, deferring: isDeferring)
        return indexed
    }

    private static func deferredIndexesPresent(_ db: Database) throws -> Bool {
        let names = deferredIndexes.map { "'\($0.name)'" }.joined(separator: ", ")
        let present = try Int.fetchOne(
            db, sql: "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name IN (\(names))")
        return present == deferredIndexes.count
    }

    /// Whether a page of `source` may skip the searches for other sources' listings.
    /// The first page names the sole source; a page of another ends the initial load (and
    /// its indexes are built before the page is applied).
    func othersAbsent(for source: String, _ db: Database) throws -> Bool {
        switch state {
        case .soleSource(nil):
            state = .soleSource(source)
            return true
        case .soleSource(source):
            return true
        case .soleSource:
            state = .shared
            try Self.matchIndexes(db, deferring: false)
            return false
        case .idle, .undecided, .shared:
            return false
        }
    }

    /// A page written by this process outside the run's groups (its own connection, so
    /// `data_version` does not tell) may be another source's.
    func pageAppliedOutsideGroups() {
        if isDeferring { state = .shared }
    }

    var isDeferring: Bool {
        if case .soleSource = state { true } else { false }
    }

    /// Drops the deferred indexes, or builds those missing (an initial load ended, or was
    /// killed midway). Cheap when there is nothing to do.
    static func matchIndexes(_ db: Database, deferring: Bool) throws {
        for index in deferredIndexes {
            try db.execute(
                sql: deferring
                    ? "DROP INDEX IF EXISTS \(index.name)"
                    : "CREATE INDEX IF NOT EXISTS \(index.name) ON \(index.definition)")
        }
    }
}

/// The source records an initial load wrote, by a hash of their keys: while the load
/// lasts they are all the catalog has, so a record not among them needs no lookup (a
/// tenth of applying a Bandsintown or JSON-LD crawl went to finding nothing).
///
/// It may hold more than the catalog (a rolled-back page's records stay in it, and two
/// keys may share a hash): those are only looked up.
final class LoadedRecords: @unchecked Sendable {
    private var hashes = Set<Int>()

    private static func hash(_ source: String, _ kind: EntityKind, _ sourceID: String) -> Int {
        var hasher = Hasher()
        hasher.combine(source)
        hasher.combine(kind)
        hasher.combine(sourceID)
        return hasher.finalize()
    }

    func recordWritten(_ source: String, _ kind: EntityKind, _ sourceID: String) {
        hashes.insert(Self.hash(source, kind, sourceID))
    }

    func mayHold(_ source: String, _ kind: EntityKind, _ sourceID: String) -> Bool {
        hashes.contains(Self.hash(source, kind, sourceID))
    }
}

extension CatalogDatabase {
    /// Runs `body`, a whole ingest run of many pages; on a catalog file that is still
    /// empty, as an initial load (see ``InitialLoad``): its indexes are built when `body`
    /// returns.
    /// - Throws: when building them fails; the run's pages landed all the same, and the
    ///   next ingest builds them.
    public func withLoad<T>(_ body: () throws -> T) throws -> T {
        guard writer is DatabasePool else { return try body() }
        initialLoad.runBegins()
        let result: T
        do {
            result = try body()
        } catch {
            try? finishLoad()
            throw error
        }
        try finishLoad()
        return result
    }

    private func finishLoad() throws {
        // A run that opened no group touched nothing. Otherwise the indexes are built if
        // missing, whatever the state says: a group rolled back whole may have taken the
        // build that ended an initial load with it.
        let openedAGroup = initialLoad.state != .idle && initialLoad.state != .undecided
        let holdsUncheckedRows = initialLoad.holdsUncheckedRows
        initialLoad.runEnds()
        guard openedAGroup else { return }
        try writer.writeWithoutTransaction { db in
            // Each group turned them on again as it ended; this covers one whose rollback failed.
            if holdsUncheckedRows { try InitialLoad.checkForeignKeysAgain(db) }
            do {
                try db.inTransaction {
                    try InitialLoad.matchIndexes(db, deferring: false)
                    return .commit
                }
            } catch {
                throw LoadUnfinished.indexesNotBuilt(error)
            }
            // The rows written unchecked were committed all the same: a violation is a
            // fault of the load's own (no source's input can cause one), reported as the
            // run's error with the first row at fault.
            do {
                if holdsUncheckedRows { try db.checkForeignKeys() }
            } catch {
                throw LoadUnfinished.rowReferringToNothing(error)
            }
        }
    }
}

/// Why an ingest run's pages landed but the run could not finish (see
/// ``CatalogDatabase/withLoad(_:)``).
public enum LoadUnfinished: Error, CustomStringConvertible {
    /// The indexes an initial load leaves out until it ends; the next ingest builds them.
    case indexesNotBuilt(any Error)
    /// A row an initial load wrote unchecked (this one, or an earlier one that did not
    /// finish) refers to a row that does not exist.
    case rowReferringToNothing(any Error)

    public var description: String {
        switch self {
        case .indexesNotBuilt(let error):
            "its indexes were not built (the next ingest builds them): \(error)"
        case .rowReferringToNothing(let error):
            "a row an initial load wrote refers to a row that does not exist, a fault of Encore's own (please report it): \(error)"
        }
    }
}
