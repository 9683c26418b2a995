import Foundation
import GRDB
import Geo
import Listings

/// Applying pages of listings: the upsert and merge semantics.
///
/// Identity: a source record is `(source, kind, source id)`. The first time one is seen
/// it is linked to a catalog row, a new one or (across sources) an existing one it
/// matches; afterwards it always maps to that row, so ids are stable across
/// re-ingestion. Two records of one source with different ids are never merged.
///
/// Changes: each record keeps a content hash and a snapshot of what it said. An
/// unchanged record only has its `last_seen` moved. A changed record replaces its
/// snapshot (an artist's or venue's gaps are filled from the previous snapshot of the
/// same record, so a lean mention does not erase what a details page said), and the row
/// is rebuilt from all its records by ``SourcePrecedence``. An event's lineup is the
/// union of its records' lineups.
///
/// Merging across sources (each decision is logged for `encore explain`):
/// - artists: the same MusicBrainz id; or the same name key (`MatchKey`) on a bill of an
///   event that was merged, which corroborates it. A name alone never merges.
/// - venues: agreeing names (`MatchKey.venueNamesAgree`) within 250 m; without
///   coordinates, the same city and near-identical names.
/// - events: the same venue, the same local date and at least one act in common.
///
/// Atomicity: a page is applied in one transaction, or in a group's transaction that is
/// rolled back and applied again without it when it fails (see ``GroupTransaction``);
/// an identical page (same bytes, same format) is not applied twice.
extension CatalogDatabase: ListingSink {
    public func hasApplied(pageHash: String, format: String) throws -> Bool {
        // One statement needs no transaction around it: BEGIN and COMMIT cost more than
        // the lookup, once a page.
        try writer.unsafeRead { db in try Self.hasApplied(pageHash: pageHash, format: format, in: db) }
    }

    public func apply(_ page: ListingPage, pageHash: String, format: String) throws -> PageOutcome {
        let timestamp = Self.timestamp(now())
        return try writer.write { db in
            try PageWrite(db: db, timestamp: timestamp, revision: try Self.nextRevision(db))
                .apply(page, pageHash: pageHash, format: format)
        }
    }

    /// Applies a page without recording its hash (tests and callers that hash nothing).
    public func apply(_ page: ListingPage) throws -> PageOutcome {
        let timestamp = Self.timestamp(now())
        return try writer.write { db in
            try PageWrite(db: db, timestamp: timestamp, revision: try Self.nextRevision(db)).apply(page)
        }
    }

    /// One write transaction for the whole group (see ``GroupTransaction`` for how a
    /// page that fails is undone alone).
    ///
    /// Only a catalog file groups: an in-memory catalog has a single connection, and
    /// holding it for a group would block the reads made inside it (an ingest checks
    /// whether a page was applied before as it reads it).
    public func withPageGroup<T>(_ body: (any PageGroup) throws -> T) throws -> T {
        guard writer is DatabasePool else { return try body(PageByPageGroup(sink: self)) }
        let seen = seenRecords
        return try writer.writeWithoutTransaction { db in
            do {
                // The group begins, commits and (after a failed page) restarts its own
                // transaction; see ``GroupTransaction``.
                let group = try GroupTransaction(db: db, opened: now(), seen: seen)
                let result = try body(group)
                try group.commit()
                return result
            } catch {
                seen.forgetAll()
                if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") }
                throw error
            }
        }
    }

    static func hasApplied(pageHash: String, format: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT 1 FROM applied_page WHERE format = ? AND content_hash = ?"),
            arguments: [format, pageHash]) ?? false
    }
}

/// The one way pages are written: inside a write transaction, stamped with its time and
/// the catalog revision it took.
struct PageWrite {
    let db: Database
    let timestamp: String
    /// Stamped on every event, venue, artist and metro area row a page writes.
    let revision: Int64
    /// Records lately written or stamped by this process; nil outside a group.
    var seen: SeenRecords? = nil

    /// Applies a page and remembers its bytes' hash, so the same bytes are not applied again.
    func apply(_ page: ListingPage, pageHash: String, format: String) throws -> PageOutcome {
        let outcome = try apply(page)
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO applied_page (format, content_hash, locator, applied_at) VALUES (?, ?, ?, ?)"
        ).execute { binder in
            binder.bind(format)
            binder.bind(pageHash)
            binder.bind(page.locator)
            binder.bind(timestamp)
        }
        return outcome
    }

    func apply(_ page: ListingPage) throws -> PageOutcome {
        var applier = try PageApplier(source: page.source, in: self)
        return try applier.apply(page)
    }
}

/// Pages of a ``CatalogDatabase/withPageGroup(_:)`` on a catalog file.
///
/// Every page of a group is stamped with the time the group opened (groups last about a
/// second): a record named on many pages of the group then has its `last_seen` written
/// once, not once a page.
///
/// Pages are applied straight into the group's transaction, with no savepoint open:
/// while one is, SQLite copies every database page a statement changes into the
/// savepoint's journal the first time, and the index pages an event touches are all
/// over the file, so the inserts of a page under a savepoint are markedly slower
/// (BENCHMARKS.md).
///
/// So a page that fails cannot be undone alone: the group rolls its transaction back,
/// begins another and applies again the pages that had landed (kept until the group
/// commits), and from then on gives each page a savepoint of its own. Pages rarely
/// fail, and then at most a group's pages are applied twice.
private final class GroupTransaction: PageGroup {
    let db: Database
    let timestamp: String
    let opened: Date
    private(set) var revision: Int64 = 0
    /// SQLite's count of changed rows once the revision was taken: unchanged at commit,
    /// the group wrote nothing (its pages were rejected, or already applied).
    private var changesAtBegin = 0
    let seen: SeenRecords
    /// Pages applied in the group, kept to be applied again; nil once each page gets a
    /// savepoint of its own.
    private var landed: [(page: ListingPage, hash: String, format: String)]? = []

    init(db: Database, opened: Date, seen: SeenRecords) throws {
        self.db = db
        self.opened = opened
        self.timestamp = CatalogDatabase.timestamp(opened)
        self.seen = seen
        try begin()
    }

    private func begin() throws {
        try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
        let dataVersion = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        seen.groupOpens(at: opened, dataVersion: dataVersion)
        revision = try CatalogDatabase.nextRevision(db)
        changesAtBegin = db.totalChangesCount
    }

    func commit() throws {
        landed = nil
        // A group that changed nothing gives its revision back: an incremental feed build
        // after a night of rejected or unchanged pages has nothing to look at.
        if db.totalChangesCount == changesAtBegin {
            try db.execute(sql: "UPDATE catalog_revision SET value = value - 1 WHERE id = 1 AND value = ?", arguments: [revision])
        }
        try db.execute(sql: "COMMIT TRANSACTION")
    }

    func hasApplied(pageHash: String, format: String) throws -> Bool {
        try CatalogDatabase.hasApplied(pageHash: pageHash, format: format, in: db)
    }

    func apply(_ page: ListingPage, pageHash: String, format: String) throws -> PageOutcome {
        guard landed != nil else {
            return try applyInOwnSavepoint(page, pageHash: pageHash, format: format)
        }
        do {
            let outcome = try write(page, pageHash: pageHash, format: format)
            seen.pageLanded()
            landed?.append((page, pageHash, format))
            return outcome
        } catch {
            seen.pageRolledBack()
            try undoPage(after: error)
            throw error
        }
    }

    private func write(_ page: ListingPage, pageHash: String, format: String) throws -> PageOutcome {
        try PageWrite(db: db, timestamp: timestamp, revision: revision, seen: seen)
            .apply(page, pageHash: pageHash, format: format)
    }

    /// Undoes the failed page's writes by rolling the group back and applying again the
    /// pages that had landed.
    private func undoPage(after error: any Error) throws {
        // Some SQLite errors (a full disk, an I/O error) roll back the whole transaction.
        guard db.isInsideTransaction, let pages = landed else { throw PageGroupRolledBack(underlying: error) }
        landed = nil
        // What those pages taught it went with them.
        seen.forgetAll()
        do {
            try db.execute(sql: "ROLLBACK TRANSACTION")
            try begin()
            for landed in pages {
                _ = try write(landed.page, pageHash: landed.hash, format: landed.format)
                seen.pageLanded()
            }
        } catch {
            throw PageGroupRolledBack(underlying: error)
        }
    }

    private func applyInOwnSavepoint(
        _ page: ListingPage, pageHash: String, format: String
    ) throws -> PageOutcome {
        var outcome = PageOutcome()
        do {
            try db.inSavepoint {
                outcome = try write(page, pageHash: pageHash, format: format)
                return .commit
            }
            seen.pageLanded()
        } catch {
            seen.pageRolledBack()
            if !db.isInsideTransaction { throw PageGroupRolledBack(underlying: error) }
            throw error
        }
        return outcome
    }
}

/// The columns of a table that a rebuild from source records sets.
struct RebuiltColumns {
    let table: String
    let names: [String]
    let selectSQL: String

    init(_ table: String, _ names: [String]) {
        self.table = table
        self.names = names
        selectSQL = "SELECT \(names.joined(separator: ", ")) FROM \(table) WHERE id = ?"
    }
}

/// One page's upserts inside one transaction, with the page's lookups memoized.
struct PageApplier {
    enum Change { case new, merged, updated, unchanged }

    /// How close two venues' coordinates must be for their records to be merged.
    static let venueMergeRadiusKilometres = 0.25
    /// How far a venue without a source metro area may be from a metro area's centre to
    /// join it; beyond that it joins a metro area made for its nearest gazetteer city.
    static let metroAssignmentRadiusKilometres = 50.0

    let pageWrite: PageWrite
    let source: String
    var db: Database { pageWrite.db }
    var timestamp: String { pageWrite.timestamp }
    var revision: Int64 { pageWrite.revision }
    var seen: SeenRecords? { pageWrite.seen }
    var resolved: [EntityKind: [String: Int64]] = [:]
    /// Unchanged records seen on this page; their `last_seen` moves in one statement at
    /// the end (an artist named on many bills would otherwise be touched once a bill).
    var touched = Set<Int64>()
    /// This source's records for the page's source ids, read in one query per kind before
    /// the page is applied: a source id that is a key here was looked up (nil: no record).
    /// A record the page then writes is dropped from it and read again when needed.
    var prefetched: [EntityKind: [String: Existing?]] = [:]
    /// No other source has a record in the catalog: nothing this page lists can merge
    /// with another source's listing, and no search for one is made.
    let othersAbsent: Bool
    /// Artist rows this page merged into others: a bill read before a merge may name
    /// the artist that went away.
    var artistMerges = 0
    /// Other sources' events at a venue on a day (`"venue date"`), as this page found
    /// them: its own new events never join them (a source's records are never merged),
    /// so the search is made once a venue and day, not once an event (a page of many
    /// events at one venue and day would otherwise cost the square of its size).
    var candidateMemo: [String: [CandidateEvent]] = [:]
    /// ``artistMerges`` when the memo was filled: a merged artist changes the bills read.
    var candidateMemoMerges = 0
    /// Events at a venue on a day (`"venue date"`) holding a record of this source and
    /// another's, as this page found them and then joined them, cleared with
    /// ``candidateMemo``: searched once a venue and day, as candidates are.
    var takenMemo: [String: [Int64]] = [:]

    init(source: String, in pageWrite: PageWrite) throws {
        self.pageWrite = pageWrite
        self.source = source
        othersAbsent = try Self.holdsOnlyRecordsOf(source, in: pageWrite.db)
    }

    /// Whether every source record in the catalog is `source`'s (two seeks of the
    /// records' unique index, one on each side of it).
    static func holdsOnlyRecordsOf(_ source: String, in db: Database) throws -> Bool {
        try !(Bool.fetchOne(
            db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM source_record WHERE source < ?1)
                    OR EXISTS (SELECT 1 FROM source_record WHERE source > ?1)
                """),
            arguments: [source]) ?? true)
    }

    /// Sets a row's columns (each to an SQL expression of one `?`, so `COALESCE(?, x)`
    /// works) and stamps this page's revision, but only when a value differs. A feed build
    /// takes a new revision for a change and renders every page that lists the row again;
    /// a record re-listed in another shape (a metro area without its coordinates, say)
    /// must not set that off. Returns whether the row changed.
    ///
    /// - Parameter stampingAnyway: the row's source links changed (a record merged in, a
    ///   record's page moved): pages that list its sources change whatever the values.
    func update(
        _ table: String, id: Int64, setting columns: KeyValuePairs<String, String>, to values: StatementArguments,
        stampingAnyway: Bool = false
    ) throws -> Bool {
        let assignments = columns.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
        if stampingAnyway {
            try db.cachedStatement(sql: "UPDATE \(table) SET \(assignments), revision = ? WHERE id = ?")
                .execute(arguments: values + [revision, id])
            return true
        }
        let names = columns.map(\.key).joined(separator: ", ")
        let expressions = columns.map(\.value).joined(separator: ", ")
        try db.cachedStatement(sql: """
            UPDATE \(table) SET \(assignments), revision = ?
            WHERE id = ? AND (\(names)) IS NOT (\(expressions))
            """).execute(arguments: values + [revision, id] + values)
        return db.changesCount > 0
    }

    /// Sets only the columns whose values differ from the row's, and stamps this page's
    /// revision when one does (or `stampingAnyway`, as for ``update(_:id:setting:to:stampingAnyway:)``).
    /// Returns the indexes (in `columns`) of the columns that changed.
    ///
    /// SQLite rewrites the index entries of every column an UPDATE sets, changed or
    /// not: a merged event's rebuild rewrote both of event's indexes for nothing, and a
    /// venue's its search entry and R*Tree point. Values compare as SQLite stores them
    /// (text byte for byte, 1 and 1.0 alike).
    /// - Parameter stored: the row's values of `columns` when already read.
    func updateChangedColumns(
        _ columns: RebuiltColumns, id: Int64, to values: [DatabaseValue], stampingAnyway: Bool,
        stored: [DatabaseValue]? = nil
    ) throws -> [Int] {
        try updateChangedColumnsKeepingStored(columns, id: id, to: values, stampingAnyway: stampingAnyway, stored: stored).changed
    }

    /// ``updateChangedColumns(_:id:to:stampingAnyway:stored:)``, with the values the row had.
    func updateChangedColumnsKeepingStored(
        _ columns: RebuiltColumns, id: Int64, to values: [DatabaseValue], stampingAnyway: Bool,
        stored: [DatabaseValue]? = nil
    ) throws -> (changed: [Int], stored: [DatabaseValue]) {
        // Read to the end, so the statement is done before the update runs.
        let stored = try stored ?? ColumnCursor(db.cachedStatement(sql: columns.selectSQL), arguments: [id]) { row in
            (0..<Int32(values.count)).map { row.databaseValue($0) }
        }.all().first
        guard let stored else { return ([], []) }
        let changed = values.indices.filter { !Self.sameStoredValue(stored[$0], values[$0]) }
        guard !changed.isEmpty || stampingAnyway else { return ([], stored) }
        let assignments = changed.map { columns.names[$0] + " = ?, " }.joined()
        try db.cachedStatement(sql: "UPDATE \(columns.table) SET \(assignments)revision = ? WHERE id = ?").execute { binder in
            for index in changed { binder.bind(values[index]) }
            binder.bind(revision)
            binder.bind(id)
        }
        return (changed, stored)
    }

    private static func sameStoredValue(_ stored: DatabaseValue, _ new: DatabaseValue) -> Bool {
        switch (stored.storage, new.storage) {
        case let (.string(a), .string(b)): a.utf8.elementsEqual(b.utf8)
        default: stored == new
        }
    }

    mutating func apply(_ page: ListingPage) throws -> PageOutcome {
        try SourcePrecedence.record(page.listingSource, in: db)
        var outcome = PageOutcome()
        try prefetchRecords(.event, page.events.map(\.sourceID))
        try prefetchRecords(.venue, page.venues.map(\.sourceID) + page.events.compactMap(\.venue?.sourceID))
        try prefetchRecords(
            .artist, page.artists.map(\.sourceID) + page.events.flatMap { $0.lineup.map(\.artist.sourceID) })
        // Hashed where the page was parsed, when it was (see `computeContentHashes()`).
        let hashes = page.contentHashes
        for (index, metro) in page.metroAreas.enumerated() { _ = try upsert(metro, hash: hashes?.metroAreas[index]) }
        for (index, venue) in page.venues.enumerated() { _ = try upsert(venue, hash: hashes?.venues[index]) }
        for (index, artist) in page.artists.enumerated() {
            _ = try upsert(artist, corroboratedBy: [:], hash: hashes?.artists[index])
        }
        for (index, event) in page.events.enumerated() {
            let change = try upsert(event, hashes: hashes?.events[index])
            if event.status == .cancelled, change != .unchanged { outcome.eventsCancelled += 1 }
            switch change {
            case .new: outcome.eventsNew += 1
            case .merged: outcome.eventsMerged += 1
            case .updated: outcome.eventsUpdated += 1
            case .unchanged: outcome.eventsUnchanged += 1
            }
        }
        if let similar = page.similarArtists { try replaceSimilarArtists(similar) }
        if !othersAbsent, !page.venues.isEmpty || !page.events.isEmpty { try dropMetroAreasMadeForNoVenue() }
        try touchSeenRecords()
        return outcome
    }

    // MARK: - Similar artists

    private mutating func replaceSimilarArtists(_ listing: SimilarArtistsListing) throws {
        // The band page of the artist these are similar to changes.
        try db.execute(
            sql: "UPDATE artist SET revision = ? WHERE id IN (SELECT entity_id FROM source_record WHERE source = ? AND kind = 'artist' AND source_id = ?)",
            arguments: [revision, source, listing.artistSourceID])
        // Lists keyed by MusicBrainz id or folded name (ListenBrainz, Last.fm).
        if listing.artistSourceID.hasPrefix("mbid:") {
            try db.execute(
                sql: "UPDATE artist SET revision = ? WHERE mbid = ?", arguments: [revision, String(listing.artistSourceID.dropFirst(5))])
        } else if listing.artistSourceID.hasPrefix("name:") {
            try db.execute(
                sql: "UPDATE artist SET revision = ? WHERE folded_name = ?",
                arguments: [revision, String(listing.artistSourceID.dropFirst(5))])
        }
        let ranks = listing.firstRank..<(listing.ranksReplaced.map { listing.firstRank + $0 } ?? Int.max)
        try db.execute(
            sql: "DELETE FROM similar_artist WHERE source = ? AND artist_source_id = ? AND rank >= ? AND rank < ?",
            arguments: [source, listing.artistSourceID, ranks.lowerBound, ranks.upperBound])
        for (index, similar) in listing.similar.enumerated() where similar.sourceID != listing.artistSourceID {
            let similarID = try upsert(similar, corroboratedBy: [:])
            // An artist another page of the list ranked moves here; one listed twice on
            // this page keeps its first rank.
            try db.execute(
                sql: """
                    INSERT INTO similar_artist (source, artist_source_id, similar_artist_id, rank, score) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT DO UPDATE SET rank = excluded.rank, score = excluded.score
                    WHERE similar_artist.rank NOT BETWEEN ? AND ?
                    """,
                arguments: [
                    source, listing.artistSourceID, similarID, listing.firstRank + index, listing.scores?[index],
                    ranks.lowerBound, ranks.upperBound - 1,
                ])
        }
    }
}
