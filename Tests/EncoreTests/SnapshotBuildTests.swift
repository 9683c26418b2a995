import Catalog
import Feeds
import Foundation
import Listings
import Testing

/// A feed build reads one snapshot of the catalog, so an ingest that commits while it runs
/// cannot make a list link a concert page the build never wrote (a cron refresh beside a
/// manual ingest did, 3 times in 3).
struct SnapshotBuildTests {
    let stamp = UTCInstant(iso: "2026-11-22T08:00:00Z")!

    func tree(_ source: CatalogDatabase) throws -> [String: Data] {
        try FeedBuilder(source: source, today: TestSupport.today, generatedAt: stamp).build().files
    }

    @Test func commitsOnAnotherConnectionAreInvisibleToASnapshotBetweenItsReads() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("sample")], into: catalog)
        let snapshot = try catalog.readingOneSnapshot()
        let before = try tree(snapshot)
        #expect(before.keys.contains { $0.hasPrefix("events/") })

        // Another process's ingest: its own connection, committed page by page.
        let other = try CatalogDatabase(path: path, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let summary = TestSupport.ingest([TestSupport.fixture("changes")], into: other)
        #expect(summary.pagesApplied > 0 && summary.failures.isEmpty)

        #expect(try tree(snapshot) == before, "the snapshot reads what it read first, whatever committed since")
        #expect(try tree(catalog) != before, "the live catalog sees the commits")
    }

    @Test func anInMemoryCatalogIsItsOwnSnapshot() throws {
        let catalog = try CatalogDatabase.inMemory()
        _ = TestSupport.ingest([TestSupport.fixture("sample")], into: catalog)
        #expect(try tree(catalog.readingOneSnapshot()) == tree(catalog))
    }
}
