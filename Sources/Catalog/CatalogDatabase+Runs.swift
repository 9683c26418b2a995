import Foundation
import GRDB
import Listings

/// The run log and the crawl state of scheduled refreshes.
extension CatalogDatabase: CrawlStateStore {
    public func crawlState(for key: String) throws -> CrawlPageState? {
        try reader.read { db in
            try Row.fetchOne(
                db, sql: "SELECT etag, last_modified, total_pages, event_ids, run_id, checked_at FROM crawl_page WHERE url_key = ?",
                arguments: [key]
            ).map { row in
                let ids: String? = row[3]
                let checked: String? = row[5]
                var state = CrawlPageState(
                    etag: row[0], lastModified: row[1], totalPages: row[2],
                    eventIDs: ids.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }, runID: row[4])
                state.checkedAt = checked.flatMap { UTCInstant(iso: $0) }
                return state
            }
        }
    }

    public func saveCrawlState(_ state: CrawlPageState, for key: String) throws {
        let timestamp = Self.timestamp(now())
        let ids = try state.eventIDs.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try writer.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO crawl_page (url_key, etag, last_modified, total_pages, checked_at, event_ids, run_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [key, state.etag, state.lastModified, state.totalPages, timestamp, ids, state.runID])
        }
    }

    public func completeListing(source: String, scope: String, eventSourceIDs seen: Set<String>, today: LocalDate) throws
        -> ListingLifecycleOutcome
    {
        let timestamp = Self.timestamp(now())
        return try writer.write { db in
            var missed: [String: Int] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT source_id, missed_crawls FROM listing_membership WHERE source = ? AND scope = ?",
                arguments: [source, scope])
            while let row = try rows.next() { missed[row[0]] = row[1] }
            // The listing as it was last time, nothing missed since: its events are all
            // listed, as they were after that crawl (one unlisted then was listed again by
            // the crawl that showed its record again). Nothing to write: an unchanged
            // nightly refresh spent most of its time here.
            if missed.count == seen.count, missed.values.allSatisfy({ $0 == 0 }), seen.allSatisfy({ missed[$0] != nil }) {
                return ListingLifecycleOutcome()
            }
            let before = missed.keys
            try db.execute(
                sql: "UPDATE listing_membership SET missed_crawls = missed_crawls + 1 WHERE source = ? AND scope = ?",
                arguments: [source, scope])
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO listing_membership (source, scope, source_id, missed_crawls) VALUES (?, ?, ?, 0)
                ON CONFLICT (source, scope, source_id) DO UPDATE SET missed_crawls = 0
                """)
            for id in seen.sorted() { try upsert.execute(arguments: [source, scope, id]) }

            // The events behind every record this listing showed now or before.
            var events: Set<Int64> = []
            for id in Set(before).union(seen) {
                if let event = try PageApplier.row(ofRecord: source, .event, id, in: db) { events.insert(event) }
            }
            var outcome = ListingLifecycleOutcome()
            // Statements prepared once: a listing holds thousands of events.
            let state = try db.cachedStatement(sql: "SELECT COALESCE(end_date, local_date), unlisted_since FROM event WHERE id = ?")
            // Gone when every record of the event was crawled in some listing and has been
            // missing from all of its listings for two complete crawls.
            let listed = try db.cachedStatement(sql: """
                SELECT EXISTS (
                    SELECT 1 FROM source_record r
                    WHERE r.kind = 'event' AND r.entity_id = ?1
                      AND NOT EXISTS (SELECT 1 FROM listing_membership m
                                      WHERE m.source = r.source AND m.source_id = r.source_id AND m.missed_crawls >= 2)
                    UNION ALL
                    SELECT 1 FROM source_record r JOIN listing_membership m
                        ON m.source = r.source AND m.source_id = r.source_id
                    WHERE r.kind = 'event' AND r.entity_id = ?1 AND m.missed_crawls < 2)
                """)
            let revision = try Self.nextRevision(db)
            let mark = try db.cachedStatement(sql: "UPDATE event SET unlisted_since = ?, revision = ? WHERE id = ?")
            for event in events.sorted() {
                guard let row = try Row.fetchOne(state, arguments: [event]) else { continue }
                let stillListed = try Bool.fetchOne(listed, arguments: [event]) ?? true
                let lastDay: String = row[0]
                let unlistedSince: String? = row[1]
                if !stillListed, unlistedSince == nil, lastDay >= today.description {
                    try mark.execute(arguments: [timestamp, revision, event])
                    outcome.unlisted += 1
                } else if stillListed, unlistedSince != nil {
                    try mark.execute(arguments: [nil, revision, event])
                    outcome.relisted += 1
                }
            }
            return outcome
        }
    }

    /// The run a refresh should resume: the latest one, when it never finished (it was
    /// killed: recorded so on SIGTERM or SIGINT, or still `running` after SIGKILL) and
    /// started less than `maximumAge` seconds ago.
    public func interruptedRun(maximumAge: TimeInterval = 86_400) throws -> Int64? {
        let cutoff = Self.timestamp(now().addingTimeInterval(-maximumAge))
        return try reader.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT id FROM run WHERE id = (SELECT MAX(id) FROM run) AND status IN ('running', 'killed') AND started_at >= ?",
                arguments: [cutoff])
        }
    }

    /// Records the start of a run; returns its id.
    public func startRun() throws -> Int64 {
        let timestamp = Self.timestamp(now())
        return try writer.write { db in
            // A run still 'running' when another starts was killed.
            try db.execute(sql: "UPDATE run SET status = 'killed' WHERE status = 'running'")
            try db.execute(sql: "INSERT INTO run (started_at, status, summary) VALUES (?, 'running', '[]')", arguments: [timestamp])
            return db.lastInsertedRowID
        }
    }

    public func finishRun(_ id: Int64, status: String, sources: [SourceRunSummary]) throws {
        let timestamp = Self.timestamp(now())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let summary = String(decoding: try encoder.encode(sources), as: UTF8.self)
        try writer.write { db in
            try db.execute(
                sql: "UPDATE run SET ended_at = ?, status = ?, summary = ? WHERE id = ?",
                arguments: [timestamp, status, summary, id])
        }
    }

    /// Runs, most recent first.
    public func runs(limit: Int = 50) throws -> [RunRecord] {
        try reader.read { db in
            try Row.fetchAll(db, sql: "SELECT id, started_at, ended_at, status, summary FROM run ORDER BY id DESC LIMIT ?", arguments: [limit])
                .map { row in
                    let summary: String = row[4]
                    let sources = (try? JSONDecoder().decode([SourceRunSummary].self, from: Data(summary.utf8))) ?? []
                    return RunRecord(id: row[0], startedAt: row[1], endedAt: row[2], status: row[3], sources: sources)
                }
        }
    }
}
