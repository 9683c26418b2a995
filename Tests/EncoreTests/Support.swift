import Catalog
import Foundation
import GRDB
import Ingest
import Listings

/// Paths and factories shared by the tests.
enum TestSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ relative: String) -> String {
        packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(relative).path
    }

    /// `../shared/realworld/FORMAT`, beside the checkout, when present.
    static func realWorld(_ format: String) -> String? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/realworld/\(format)")
        return FileManager.default.fileExists(atPath: url.path) ? url.path : nil
    }

    /// One row of `../shared/realworld/MANIFEST.tsv`: a recorded response and how many
    /// events it holds.
    struct RealWorldEntry {
        /// The file's absolute path.
        var path: String
        /// Its path under `realworld/`, for messages.
        var name: String
        var format: String
        /// `endpoint_kind`: `venue-details`, `artist-calendar`...
        var kind: String
        /// The MANIFEST's count: events, except for a details page of one venue or artist.
        var events: Int
    }

    /// The MANIFEST's entries in `formats`, in its order (empty when it is absent).
    static func realWorldEntries(_ formats: Set<String>) throws -> [RealWorldEntry] {
        let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/realworld")
        let manifest = root.appendingPathComponent("MANIFEST.tsv")
        guard FileManager.default.fileExists(atPath: manifest.path) else { return [] }
        return try String(contentsOf: manifest, encoding: .utf8).split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count > 6, formats.contains(columns[1]) else { return nil }
            return RealWorldEntry(
                path: root.appendingPathComponent(columns[0]).path, name: columns[0], format: columns[1],
                kind: columns[2], events: Int(columns[6]) ?? 0)
        }
    }

    /// Where this test process keeps its files: removed as the process exits, so that
    /// running the suite again and again does not fill the disk (each run leaves about
    /// 300 catalogs otherwise).
    private static let processDirectory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("encore-tests-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: TestSupport.processDirectory) }
        return url
    }()

    static func temporaryDirectory() throws -> URL {
        let url = processDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A catalog in a fresh file, with a fixed clock.
    static func makeCatalog() throws -> (CatalogDatabase, path: String) {
        let path = try temporaryDirectory().appendingPathComponent("catalog.sqlite").path
        let catalog = try CatalogDatabase(path: path, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        return (catalog, path)
    }

    static let today = LocalDate(iso: "2026-11-22")!

    /// Every row of every listing table, as text, for "nothing changed" comparisons.
    static func dump(_ path: String, includingProvenanceTimes: Bool = true) throws -> String {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            var text = ""
            for table in ["metro_area", "venue", "artist", "event", "lineup", "similar_artist", "source_record", "applied_page"] {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2, 3")
                for row in rows {
                    let cells = row.compactMap { column, value -> String? in
                        if !includingProvenanceTimes, column == "last_seen" { return nil }
                        // Which write made a row, not what it holds.
                        if column == "revision" { return nil }
                        return "\(column)=\(value)"
                    }
                    text += "\(table): " + cells.joined(separator: " ") + "\n"
                }
            }
            return text
        }
    }

    static func ingest(_ paths: [String], into catalog: CatalogDatabase, format: String? = nil) -> IngestSummary {
        FileIngestion(format: format).ingest(paths: paths, into: catalog)
    }
}

extension ListingSource {
    /// The source a registered ingester declares, by name; a name no ingester declares
    /// ranks as the catalog ranks a source it does not know.
    static func registered(_ name: String) -> ListingSource {
        IngesterRegistry.standard.ingesters.first { $0.source.name == name }?.source ?? ListingSource(name: name, rank: 6)
    }
}
