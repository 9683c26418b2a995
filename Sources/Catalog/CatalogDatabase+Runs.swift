import Foundation
import GRDB
import Listings

/// The run log and the crawl state of scheduled refreshes.
extension CatalogDatabase: CrawlStateStore {
    public func crawlState(for key: String) throws -> CrawlPageState? {
        try writer.read { db in
            try Row.fetchOne(db, sql: "SELECT etag, last_modified, total_pages FROM crawl_page WHERE url_key = ?", arguments: [key])
                .map { CrawlPageState(etag: $0[0], lastModified: $0[1], totalPages: $0[2]) }
        }
    }

    public func saveCrawlState(_ state: CrawlPageState, for key: String) throws {
        let timestamp = Self.timestamp(now())
        try writer.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO crawl_page (url_key, etag, last_modified, total_pages, checked_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [key, state.etag, state.lastModified, state.totalPages, timestamp])
        }
    }

    /// Records the start of a run; returns its id.
    public func startRun() throws -> Int64 {
        let timestamp = Self.timestamp(now())
        return try writer.write { db in
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
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, started_at, ended_at, status, summary FROM run ORDER BY id DESC LIMIT ?", arguments: [limit])
                .map { row in
                    let summary: String = row[4]
                    let sources = (try? JSONDecoder().decode([SourceRunSummary].self, from: Data(summary.utf8))) ?? []
                    return RunRecord(id: row[0], startedAt: row[1], endedAt: row[2], status: row[3], sources: sources)
                }
        }
    }
}
