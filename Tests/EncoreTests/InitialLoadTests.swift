import Catalog
import Foundation
import GRDB
import Ingest
import Listings
import Testing

/// An ingest run that begins on an empty catalog skips the searches for other sources'
/// listings and leaves an index out until it ends: it must leave the catalog that
/// applying its pages one by one would, whatever else writes meanwhile.
struct InitialLoadTests {
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

    static let deferredIndex = "lineup_artist"

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
        #expect(try indexes(loadedPath).contains(Self.deferredIndex))
        #expect(try !venueLocations(loadedPath).isEmpty)
        #expect(try venueLocations(loadedPath) == (try venueLocations(pageByPagePath)))
    }

    @Test func aPageMetTwiceInAFirstLoadLandsOnce() throws {
        let directory = try TestSupport.temporaryDirectory()
        let page = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("sample/songkick-json/event-34150000.json")))
        for name in ["a.json", "b.json"] { try page.write(to: directory.appendingPathComponent(name)) }
        let (catalog, _) = try TestSupport.makeCatalog()
        #expect(try !catalog.hasAppliedAnyPage())
        let first = FileIngestion().ingest(paths: [directory.path], into: catalog)
        #expect(first.pagesApplied == 1 && first.pagesUnchanged == 1 && first.eventsNew == 1)
        #expect(try catalog.hasAppliedAnyPage())
        let again = FileIngestion().ingest(paths: [directory.path], into: catalog)
        #expect(again.pagesApplied == 0 && again.pagesUnchanged == 2)
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

    @Test func theIndexALoadLeavesOutIsGoneOnlyWhileTheLoadRuns() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let pages = MergeTests().pages
        try catalog.withLoad {
            try catalog.withPageGroup { group in
                _ = try group.apply(pages[0], pageHash: "0", format: "songkick-json")
            }
            #expect(try !indexes(path).contains(Self.deferredIndex))
        }
        #expect(try indexes(path).contains(Self.deferredIndex))
    }

    @Test func aPageOfASecondSourceEndsTheLoadAndMerges() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let pages = MergeTests().pages
        try catalog.withLoad {
            try catalog.withPageGroup { group in
                _ = try group.apply(pages[0], pageHash: "0", format: "songkick-json")
                _ = try group.apply(pages[1], pageHash: "1", format: "bandsintown")
            }
            #expect(try indexes(path).contains(Self.deferredIndex))
        }
        #expect(try catalog.stats(today: TestSupport.today).events == 1)
    }

    /// Who writes another source's page between two groups of a load: another connection
    /// (a refresh of another source, say), or this process outside the load's groups (on
    /// the load's own connection, which `data_version` does not tell about).
    enum Interloper: CaseIterable { case anotherConnection, thisProcess }

    /// What the interloper wrote merges with what the load applies next.
    @Test(arguments: Interloper.allCases)
    func anotherSourcesPageWrittenBetweenGroupsEndsTheLoad(by interloper: Interloper) throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let writer = interloper == .thisProcess
            ? catalog : try CatalogDatabase(path: path, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let pages = MergeTests().pages
        try catalog.withLoad {
            try catalog.withPageGroup { group in
                _ = try group.apply(ListingPage(source: "songkick", locator: "opening"), pageHash: "-", format: "songkick-json")
            }
            _ = try writer.apply(pages[1], pageHash: "1", format: "bandsintown")
            try catalog.withPageGroup { group in
                _ = try group.apply(pages[0], pageHash: "0", format: "songkick-json")
            }
        }
        let stats = try catalog.stats(today: TestSupport.today)
        #expect(stats.events == 1)
        #expect(stats.venues == 1)
    }

    /// A load killed midway leaves the index out; the next ingest's first group builds it.
    @Test func theNextIngestBuildsAnIndexAKilledLoadLeftOut() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("songkick-json")], into: catalog)
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "DROP INDEX \(Self.deferredIndex)") }
        #expect(try !indexes(path).contains(Self.deferredIndex))
        let summary = TestSupport.ingest([TestSupport.fixture("bandsintown")], into: catalog)
        #expect(summary.succeeded)
        #expect(try indexes(path).contains(Self.deferredIndex))
    }
}
