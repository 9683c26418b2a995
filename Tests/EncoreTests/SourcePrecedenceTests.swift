import Catalog
import Foundation
import GRDB
import Geo
import Ingest
import Listings
import Testing

/// Sources declare their own rank, and the catalog keeps it with their records.
struct SourcePrecedenceTests {
    let day = LocalDate(iso: "2027-03-14")!

    /// One concert as `source` lists it, under its own ids and spelling.
    func concert(_ source: ListingSource, title: String, status: EventStatus = .scheduled, time: String? = nil) -> ListingPage {
        var page = ListingPage(source: source, locator: source.name)
        page.events = [EventListing(
            sourceID: "\(source.name)-1", title: title, status: status,
            start: EventStart(localDate: day, localTime: time.flatMap { LocalTime(iso: $0) }),
            venue: VenueListing(
                sourceID: "\(source.name)-v", name: "Roundhouse", city: "London", country: "UK",
                coordinate: Coordinate(latitude: 51.5432, longitude: -0.1519)),
            lineup: [PerformanceListing(
                artist: ArtistListing(sourceID: "\(source.name)-a", name: "The Distillers"), billing: .headline, order: 1)])]
        return page
    }

    func onlyEvent(_ catalog: CatalogDatabase) throws -> EventDetail {
        #expect(try catalog.stats(today: TestSupport.today).events == 1)
        let id = try #require(try catalog.eventIDs(since: day).first)
        return try #require(try catalog.event(id: id))
    }

    /// A source no ingester of Encore knows, declared as a new source's folder would
    /// declare it: its rank decides against Ticketmaster's, and still does when the
    /// catalog is opened again and only Ticketmaster's page is applied.
    @Test(arguments: [-1, 7])
    func aNewSourcesDeclaredRankIsHonouredAndKeptWithItsRecords(rank: Int) throws {
        let boxOffice = ListingSource(name: "boxoffice", rank: rank, sellsTickets: true)
        let (catalog, path) = try TestSupport.makeCatalog()
        _ = try catalog.apply(concert(.ticketmaster, title: "THE DISTILLERS"))
        _ = try catalog.apply(concert(boxOffice, title: "The Distillers live", status: .cancelled))
        let trusted = rank < ListingSource.ticketmaster.rank
        var event = try onlyEvent(catalog)
        #expect(event.title == (trusted ? "The Distillers live" : "THE DISTILLERS"))
        // Both sell tickets: the status is the more trusted seller's.
        #expect(event.status == (trusted ? .cancelled : .scheduled))

        let reopened = try CatalogDatabase(path: path)
        _ = try reopened.apply(concert(.ticketmaster, title: "THE DISTILLERS (NEW DATE)", time: "20:00"))
        event = try onlyEvent(reopened)
        #expect(event.title == (trusted ? "The Distillers live" : "THE DISTILLERS (NEW DATE)"))
        #expect(event.start.localTime == LocalTime(iso: "20:00"))
        #expect(event.status == (trusted ? .cancelled : .scheduled))
    }

    @Test func eachAppliedPageRecordsItsSourcesRankAndAChangedRankReplacesIt() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        _ = try catalog.apply(concert(.bandsintown, title: "Distillers"))
        _ = try catalog.apply(concert(ListingSource(name: "boxoffice", rank: 2), title: "Distillers"))
        _ = try catalog.apply(concert(ListingSource(name: "boxoffice", rank: 8, sellsTickets: true), title: "Distillers"))
        #expect(try ranks(path) == ["bandsintown 3 0", "boxoffice 8 1", "geonames 9 0"])
    }

    /// A catalog from before sources declared their ranks is ranked as it was then.
    @Test func aCatalogFromBeforeRanksWereStoredRanksItsSourcesAsBefore() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        _ = try catalog.apply(concert(.bandsintown, title: "Distillers"))
        _ = try catalog.apply(concert(.ticketmaster, title: "THE DISTILLERS", status: .cancelled))
        _ = try catalog.apply(concert(.registered("test"), title: "Distillers!"))
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                DROP TABLE source;
                DELETE FROM grdb_migrations WHERE identifier LIKE 'v19:%';
                """)
        }
        let migrated = try CatalogDatabase(path: path)
        #expect(try ranks(path) == ["bandsintown 3 0", "geonames 9 0", "test 6 0", "ticketmaster 0 1"])
        _ = try migrated.apply(concert(.bandsintown, title: "Distillers (moved)", time: "21:00"))
        let event = try onlyEvent(migrated)
        #expect(event.title == "THE DISTILLERS" && event.status == .cancelled)
    }

    func ranks(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT name, rank, sells_tickets FROM source ORDER BY name").map { row in
                "\(row[0] as String) \(row[1] as Int) \(row[2] as Int)"
            }
        }
    }

    /// "A new source is one folder and one registration line": outside its folder, no
    /// code of Encore names a registered source or its ingester, except the registry.
    @Test func theRegistryIsTheOnlyPlaceOutsideASourcesFolderThatNamesIt() throws {
        let sources = TestSupport.packageRoot.appendingPathComponent("Sources")
        let ingest = sources.appendingPathComponent("Ingest").path + "/"
        var files: [(path: String, lines: [String])] = []
        for module in ["Geo", "Listings", "Ingest", "Catalog", "Feeds", "EncoreCLI"] {
            for file in try FileIngestion.listingFiles(at: sources.appendingPathComponent(module).path, extensions: ["swift"]) {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                files.append((file, text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)))
            }
        }
        for ingester in IngesterRegistry.standard.ingesters {
            let typeName = String(describing: type(of: ingester))
            let home = try #require(files.first { $0.lines.contains { $0.contains("struct \(typeName):") } }).path
            let folder = (home as NSString).deletingLastPathComponent + "/"
            #expect(folder.hasPrefix(ingest) && folder != ingest, "\(typeName) is not in a folder of its own")
            let name = ingester.source.name
            let naming = try Regex("\\b\(typeName)\\b|\"\(name)\"|\\.\(name)\\b")
            for (path, lines) in files where !path.hasPrefix(folder) && path != ingest + "IngesterRegistry.swift" {
                for (index, line) in lines.enumerated() where !line.drop(while: { $0 == " " }).hasPrefix("//") {
                    #expect(line.firstMatch(of: naming) == nil, "\(path):\(index + 1) names \(typeName) or its source")
                }
            }
        }
    }
}
