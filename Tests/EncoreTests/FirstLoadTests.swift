@testable import Catalog
import Foundation
import GRDB
@testable import Ingest
import Listings
import Testing

/// An ingest run that begins on an empty catalog, applied in groups, leaves the catalog
/// that applying its pages one by one would, whatever else writes meanwhile; and a fan's
/// query asked while it runs finds every index it plans with.
struct FirstLoadTests {
    /// The catalog, seen as one page at a time: no groups, no run (the protocol's defaults).
    struct PageByPage: ListingSink {
        let catalog: CatalogDatabase
        func hasApplied(pageHash: String, format: String) throws -> Bool {
            try catalog.hasApplied(pageHash: pageHash, format: format)
        }
        func apply(_ page: ListingPage, pageHash: String, format: String) throws -> PageOutcome {
            try catalog.apply(page, pageHash: pageHash, format: format)
        }
    }

    func indexes(_ path: String) throws -> Set<String> {
        try DatabaseQueue(path: path).read { db in
            Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'index'"))
        }
    }

    /// The venues' points in the R*Tree, as text.
    func venueLocations(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM venue_location ORDER BY id").map(\.description)
        }
    }

    func loadedAlikeBothWays(_ paths: [String]) throws {
        let (loaded, loadedPath) = try TestSupport.makeCatalog()
        let (pageByPage, pageByPagePath) = try TestSupport.makeCatalog()
        let summary = FileIngestion().ingest(paths: paths, into: loaded)
        let reference = FileIngestion().ingest(paths: paths, into: PageByPage(catalog: pageByPage))
        #expect(summary.succeeded && summary.pagesApplied > 0)
        #expect(summary == reference)
        #expect(try TestSupport.dump(loadedPath, includingProvenanceTimes: false)
            == (try TestSupport.dump(pageByPagePath, includingProvenanceTimes: false)))
        #expect(try indexes(loadedPath) == (try indexes(pageByPagePath)))
        #expect(try !venueLocations(loadedPath).isEmpty)
        #expect(try venueLocations(loadedPath) == (try venueLocations(pageByPagePath)))
    }

    @Test func aPageMetTwiceInAFirstLoadLandsOnce() throws {
        let directory = try TestSupport.temporaryDirectory()
        let page = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("sample/songkick-json/event-34150000.json")))
        for name in ["a.json", "b.json"] { try page.write(to: directory.appendingPathComponent(name)) }
        let (catalog, _) = try TestSupport.makeCatalog()
        let first = FileIngestion().ingest(paths: [directory.path], into: catalog)
        #expect(first.pagesApplied == 1 && first.pagesUnchanged == 1 && first.eventsNew == 1)
        let again = FileIngestion().ingest(paths: [directory.path], into: catalog)
        #expect(again.pagesApplied == 0 && again.pagesUnchanged == 2)
    }

    /// Pages parsed ahead on another core land as pages read one at a time do: in path
    /// order, a page met twice once, a malformed page failing alone under its file's name.
    @Test func pagesReadAheadLandAsPagesReadOneAtATime() throws {
        let directory = try TestSupport.temporaryDirectory()
        let sample = try FileIngestion.listingFiles(at: TestSupport.fixture("sample/songkick-json"))
        #expect(sample.count > 2 * FileIngestion.ReadAhead.batchSize)
        // Every page twice, the second copies after the first ones' read-ahead batches.
        for copy in ["a", "b"] {
            for (index, page) in sample.enumerated() {
                let name = "\(copy)-\(1000 + index)-\(URL(fileURLWithPath: page).lastPathComponent)"
                try FileManager.default.copyItem(atPath: page, toPath: directory.appendingPathComponent(name).path)
            }
        }
        try Data(#"{"resultsPage": {"status": "ok", "results": {"event": [{"id": "#.utf8)
            .write(to: directory.appendingPathComponent("a-1040-cut-short.json"))
        func line(_ file: String, _ result: Result<PageOutcome, IngestError>) -> String {
            switch result {
            case .success(let outcome): "\(file) \(outcome.skippedAsUnchanged ? "unchanged" : "applied") \(outcome.eventsNew)"
            case .failure(let error): "\(file) failed: \(error)"
            }
        }

        let (readingAhead, readingAheadPath) = try TestSupport.makeCatalog()
        var lines: [String] = []
        let summary = FileIngestion().ingest(paths: [directory.path], into: readingAhead) { lines.append(line($0, $1)) }
        let (oneAtATime, oneAtATimePath) = try TestSupport.makeCatalog()
        var reference = IngestSummary()
        var referenceLines: [String] = []
        for file in try FileIngestion.listingFiles(at: directory.path) {
            let result = FileIngestion().ingestFile(file, into: oneAtATime)
            switch result {
            case .success(let outcome): reference.record(outcome)
            case .failure(let error): reference.record(error)
            }
            referenceLines.append(line(file, result))
        }

        #expect(lines == referenceLines)
        #expect(summary == reference)
        #expect(summary.pagesFailed == 1)
        #expect(summary.failures.first?.locator.hasSuffix("a-1040-cut-short.json") == true)
        #expect(summary.pagesUnchanged == sample.count)
        #expect(try TestSupport.dump(readingAheadPath, includingProvenanceTimes: false)
            == (try TestSupport.dump(oneAtATimePath, includingProvenanceTimes: false)))
        let again = FileIngestion().ingest(paths: [directory.path], into: readingAhead)
        #expect(again.pagesApplied == 0 && again.pagesUnchanged == 2 * sample.count && again.pagesFailed == 1)
    }

    @Test func aFirstLoadOfOneSourceMakesTheCatalogPageByPageIngestingWould() throws {
        try loadedAlikeBothWays([TestSupport.fixture("sample/songkick-json")])
    }

    @Test func aFirstLoadOfEverySourceStillMergesTheirListings() throws {
        let sample = URL(fileURLWithPath: TestSupport.fixture("sample-multi"))
        // Sources one after another, and then interleaved file by file.
        let directories = ["songkick-json", "bandsintown", "lastfm-xml", "jsonld", "lastfm-json"]
            .map { sample.appendingPathComponent($0).path }
        try loadedAlikeBothWays(directories)
        let files = try directories.map { directory in
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted().map { "\(directory)/\($0)" }
        }
        var interleaved: [String] = []
        for index in 0..<files.map(\.count).max()! {
            for list in files where index < list.count { interleaved.append(list[index]) }
        }
        try loadedAlikeBothWays(interleaved)
    }

    /// Who writes another source's page between two groups of a first load: another connection
    /// (a refresh of another source, say), or this process outside the load's groups (on
    /// the load's own connection, which `data_version` does not tell about).
    enum Interloper: CaseIterable { case anotherConnection, thisProcess }

    /// What the interloper wrote merges with what the load applies next.
    @Test(arguments: Interloper.allCases)
    func anotherSourcesPageWrittenBetweenGroupsIsMergedWith(by interloper: Interloper) throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let writer = interloper == .thisProcess
            ? catalog : try CatalogDatabase(path: path, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let pages = MergeTests().pages
        try catalog.withPageGroup { group in
            _ = try group.apply(ListingPage(source: .songkick, locator: "opening"), pageHash: "-", format: "songkick-json")
        }
        _ = try writer.apply(pages[1], pageHash: "1", format: "bandsintown")
        try catalog.withPageGroup { group in
            _ = try group.apply(pages[0], pageHash: "0", format: "songkick-json")
        }
        let stats = try catalog.stats(today: TestSupport.today)
        #expect(stats.events == 1)
        #expect(stats.venues == 1)
    }

    /// What SQLite plans for a `near` query's events (``CatalogDatabase/eventIDs``), as
    /// another connection sees the catalog.
    func nearQueryPlan(_ path: String) throws -> String {
        try DatabaseQueue(path: path).read { db in
            let sql = """
                EXPLAIN QUERY PLAN SELECT e.id FROM \(CatalogDatabase.eventsAtVenuesInWindow(listed: "e.unlisted_since IS NULL"))
                ORDER BY e.local_date, e.local_time IS NULL, e.local_time, e.id LIMIT 50 OFFSET 0
                """
            return try Row.fetchAll(db, sql: sql, arguments: ["[1,2]", "2026-01-01", "2026-12-31", "2026-01-01"])
                .map { $0["detail"] as String }.joined(separator: "\n")
        }
    }

    /// A fan's `near` during a first ingest is planned as after it: every index of the
    /// schema is there (none left out until the load ends), `event_venue_window` among them.
    @Test func aQueryDuringAFirstIngestFindsEveryIndexItPlansWith() throws {
        let (_, emptyPath) = try TestSupport.makeCatalog()
        let schemaIndexes = try indexes(emptyPath)
        #expect(schemaIndexes.contains("event_venue_window"))
        let (catalog, path) = try TestSupport.makeCatalog()
        var seenDuringIngest: Result<(indexes: Set<String>, plan: String), any Error>?
        // Called as each group commits, while the run goes on.
        let summary = FileIngestion().ingest(paths: [TestSupport.fixture("sample/songkick-json")], into: catalog) { _, _ in
            if seenDuringIngest == nil { seenDuringIngest = Result { (try indexes(path), try nearQueryPlan(path)) } }
        }
        #expect(summary.succeeded && summary.eventsNew > 0)
        let during = try #require(seenDuringIngest).get()
        #expect(during.indexes == schemaIndexes)
        #expect(during.plan.contains("event_venue_window"), "\(during.plan)")
        #expect(during.plan == (try nearQueryPlan(emptyPath)))
    }
}
