import Catalog
import Foundation
import GRDB
import Ingest
import Listings
import Testing

struct CatalogApplyTests {
    let calendar = TestSupport.fixture("songkick-json/metro-24426-calendar.json")
    let relisted = TestSupport.fixture("changes/songkick-json/metro-24426-calendar.json")

    @Test func ingestingTheSameInputTwiceChangesNothing() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let first = TestSupport.ingest([calendar], into: catalog)
        #expect(first.eventsNew == 4 && first.succeeded)
        let before = try TestSupport.dump(path)

        let second = TestSupport.ingest([calendar], into: catalog)
        #expect(second.pagesUnchanged == 1 && second.eventsNew == 0)
        #expect(try TestSupport.dump(path) == before)
    }

    @Test func reapplyingUnchangedRecordsKeepsIdsAndRows() throws {
        // The same listings in a page with different bytes: applied, but every record is unchanged.
        let (catalog, path) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([calendar], into: catalog)
        let before = try TestSupport.dump(path, includingProvenanceTimes: false)
        let reformatted = try TestSupport.temporaryDirectory().appendingPathComponent("same.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: calendar)))
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: reformatted)

        let summary = TestSupport.ingest([reformatted.path], into: catalog)
        #expect(summary.pagesApplied == 1)
        #expect(summary.eventsUnchanged == 4 && summary.eventsNew == 0 && summary.eventsUpdated == 0)
        let after = try TestSupport.dump(path, includingProvenanceTimes: false)
        // Only the applied-page log gains the new page.
        #expect(after.split(separator: "\n").filter { !$0.hasPrefix("applied_page") }
            == before.split(separator: "\n").filter { !$0.hasPrefix("applied_page") })
    }

    @Test func aRelistedEventIsUpdatedInPlaceWithItsLineupReplaced() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([calendar], into: catalog)
        let headliner = try #require(try catalog.artists(named: "Velvet Harbour", today: TestSupport.today).first)
        let eventID = try #require(try catalog.artistPage(artistID: headliner.id, today: TestSupport.today)?.events.first?.id)

        let summary = TestSupport.ingest([relisted], into: catalog)
        #expect(summary.eventsUpdated == 2 && summary.eventsNew == 0 && summary.eventsUnchanged == 2)
        let event = try #require(try catalog.event(id: eventID))
        #expect(event.start.localTime?.description == "20:00:00")
        #expect(event.lineup.map(\.name) == ["Velvet Harbour", "Marta Ríos"])
        #expect(try catalog.stats(today: TestSupport.today).events == 4)
        #expect(try catalog.stats(today: TestSupport.today).cancelledEvents == 2)
    }

    @Test func earlyAndLateShowsAtOneVenueStayTwoEvents() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([calendar], into: catalog)
        let artist = try #require(try catalog.artists(named: "night ferry", today: TestSupport.today).first)
        let events = try #require(try catalog.artistPage(artistID: artist.id, today: TestSupport.today)).events
        #expect(events.count == 2)
        #expect(events.map { $0.start.localTime?.description } == ["18:00:00", "21:30:00"])
        #expect(Set(events.map(\.venue?.id)).count == 1)
    }

    @Test func aFailedPageLeavesTheCatalogExactlyAsBefore() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([calendar], into: catalog)
        let before = try TestSupport.dump(path)
        let bad = TestSupport.fixture("bad/songkick-json")
        let summary = TestSupport.ingest([bad], into: catalog, format: "songkick-json")
        #expect(summary.pagesFailed == 6 && summary.pagesApplied == 0)
        #expect(summary.failures.allSatisfy { $0.locator.hasPrefix(bad) })
        #expect(try TestSupport.dump(path) == before)
    }

    @Test func aGoodPageStillLandsWhenAnotherFails() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        let summary = TestSupport.ingest(
            [TestSupport.fixture("bad/songkick-json/latitude-120.json"), calendar], into: catalog)
        #expect(summary.pagesFailed == 1 && summary.pagesApplied == 1)
        #expect(try catalog.stats(today: TestSupport.today).events == 4)
    }

    @Test func aCatalogFailureRollsBackTheWholePage() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([calendar], into: catalog)
        let before = try TestSupport.dump(path)
        // The second event's venue points at a metro area whose row is taken away
        // mid-page by a trigger, so the page fails part-way through.
        let sabotage = try CatalogSabotage(path: path)
        try sabotage.failInsertsOfEventsTitled("Second")
        var page = ListingPage(source: .songkick, locator: "inline")
        for (index, title) in ["First", "Second"].enumerated() {
            page.events.append(EventListing(
                sourceID: "9\(index)", title: title, start: EventStart(localDate: LocalDate(iso: "2027-01-0\(index + 1)")!)))
        }
        #expect(throws: (any Error).self) { try catalog.apply(page, pageHash: "x", format: "songkick-json") }
        try sabotage.remove()
        #expect(try TestSupport.dump(path) == before)
    }

    @Test func aFailingPageInAGroupIsRolledBackAloneAndTheGroupCommitsTogether() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let sabotage = try CatalogSabotage(path: path)
        try sabotage.failInsertsOfEventsTitled("Second")
        func page(_ title: String) -> ListingPage {
            var page = ListingPage(source: .songkick, locator: title)
            page.events = [EventListing(sourceID: title, title: title, start: EventStart(localDate: LocalDate(iso: "2027-01-01")!))]
            return page
        }
        try catalog.withPageGroup { group in
            _ = try group.apply(page("First"), pageHash: "1", format: "songkick-json")
            #expect(try group.hasApplied(pageHash: "1", format: "songkick-json"))
            #expect(throws: (any Error).self) { try group.apply(page("Second"), pageHash: "2", format: "songkick-json") }
            _ = try group.apply(page("Third"), pageHash: "3", format: "songkick-json")
            // The group sees its own pages, before and after the failure sent it back to
            // its start; nobody else does until it commits.
            #expect(try group.hasApplied(pageHash: "1", format: "songkick-json"))
            #expect(try !group.hasApplied(pageHash: "2", format: "songkick-json"))
            #expect(try group.hasApplied(pageHash: "3", format: "songkick-json"))
            #expect(try !catalog.hasApplied(pageHash: "1", format: "songkick-json"))
            #expect(try sabotage.eventTitles().isEmpty)
        }
        try sabotage.remove()
        #expect(try sabotage.eventTitles() == ["First", "Third"])
        #expect(try !catalog.hasApplied(pageHash: "2", format: "songkick-json"))
        #expect(try catalog.hasApplied(pageHash: "1", format: "songkick-json"))
        #expect(try catalog.hasApplied(pageHash: "3", format: "songkick-json"))
    }

    @Test func aGroupsPagesAreRecordedAppliedWhenItCommits() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        try catalog.withPageGroup { group in
            for index in 1...3 {
                var page = ListingPage(source: .songkick, locator: "page \(index)")
                page.events = [EventListing(
                    sourceID: "\(index)", title: "Show \(index)", start: EventStart(localDate: LocalDate(iso: "2027-01-01")!))]
                _ = try group.apply(page, pageHash: "hash \(4 - index)", format: "songkick-json")
                #expect(try group.hasApplied(pageHash: "hash \(4 - index)", format: "songkick-json"))
                #expect(try !catalog.hasApplied(pageHash: "hash \(4 - index)", format: "songkick-json"))
            }
        }
        for index in 1...3 { #expect(try catalog.hasApplied(pageHash: "hash \(index)", format: "songkick-json")) }
        #expect(try !catalog.hasApplied(pageHash: "hash 4", format: "songkick-json"))
    }

    @Test func pagesThatLandedBeforeAFailureInTheirGroupAreKeptWholeAndCountedOnce() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let sabotage = try CatalogSabotage(path: path)
        try sabotage.failInsertsOfEventsTitled("doomed")
        let artist = ArtistListing(sourceID: "a1", name: "Velvet Harbour")
        func page(_ title: String) -> ListingPage {
            var page = ListingPage(source: .songkick, locator: title)
            page.events = [EventListing(
                sourceID: title, title: title, start: EventStart(localDate: LocalDate(iso: "2027-01-01")!),
                lineup: [PerformanceListing(artist: artist, billing: .headline, order: 1)])]
            return page
        }
        // Two failures: the first sends the group back to its start, and the 40 pages
        // before it are applied again; the second is undone on its own.
        let good = (1...40).map { "show \($0)" }
        let titles = good + ["doomed", "late", "doomed", "last"]
        var outcomes: [PageOutcome] = []
        var failures = 0
        try catalog.withPageGroup { group throws in
            for (index, title) in titles.enumerated() {
                do {
                    outcomes.append(try group.apply(page(title), pageHash: "\(index)", format: "songkick-json"))
                } catch {
                    failures += 1
                }
            }
            #expect(try group.hasApplied(pageHash: "0", format: "songkick-json"))
            #expect(try group.hasApplied(pageHash: "39", format: "songkick-json"))
            #expect(try !group.hasApplied(pageHash: "40", format: "songkick-json"))
        }
        try sabotage.remove()
        #expect(failures == 2)
        #expect(outcomes.count == 42 && outcomes.allSatisfy { $0.eventsNew == 1 })
        #expect(try sabotage.eventTitles() == good + ["late", "last"])
        let stats = try catalog.stats(today: TestSupport.today)
        #expect(stats.events == 42 && stats.artists == 1)
        let artistRecords = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM source_record WHERE kind = 'artist'")
        }
        #expect(artistRecords == 1)
    }

    @Test func namesWrittenInAPageGroupAreSearchableAsTheyStandWhenItCommits() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let sabotage = try CatalogSabotage(path: path)
        try sabotage.failInsertsOfEventsTitled("doomed")
        // Each page brings a new venue and a new act, so their search rows interleave.
        func page(_ title: String, act: String, actID: String? = nil) -> ListingPage {
            var page = ListingPage(source: .songkick, locator: title)
            page.events = [EventListing(
                sourceID: title, title: title, start: EventStart(localDate: LocalDate(iso: "2027-01-01")!),
                venue: VenueListing(sourceID: title, name: "\(title) hall", city: "Leeds"),
                lineup: [PerformanceListing(
                    artist: ArtistListing(sourceID: actID ?? act, name: act), billing: .headline, order: 1)])]
            return page
        }
        func names(matching text: String) throws -> [String] {
            try catalog.search(text, today: TestSupport.today, limit: 50).map(\.name).sorted()
        }
        // A group that lands whole, renaming an act it added.
        try catalog.withPageGroup { group in
            for index in 1...4 { _ = try group.apply(page("quay \(index)", act: "Sable \(index)"), pageHash: "q\(index)", format: "songkick-json") }
            _ = try group.apply(page("quay 5", act: "Umber Sable", actID: "Sable 2"), pageHash: "q5", format: "songkick-json")
            #expect(try names(matching: "sable").isEmpty)
        }
        #expect(try names(matching: "sable") == ["Sable 1", "Sable 3", "Sable 4", "Umber Sable"])
        #expect(try names(matching: "quay").count == 5)
        // A group with failed pages: what they named is not found, the rest is.
        try catalog.withPageGroup { group in
            for (index, title) in ["wharf 1", "doomed", "wharf 2", "doomed"].enumerated() {
                _ = try? group.apply(page(title, act: "Ochre \(index)"), pageHash: "w\(index)", format: "songkick-json")
            }
        }
        #expect(try names(matching: "ochre") == ["Ochre 0", "Ochre 2"])
        #expect(try names(matching: "doomed").isEmpty)
        #expect(try names(matching: "wharf") == ["wharf 1 hall", "wharf 2 hall"])
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO search_index (search_index) VALUES ('integrity-check')")
        }
    }

    @Test func aGroupWhoseFirstPageFailsStillLandsTheRestStampedWithOneRevision() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let sabotage = try CatalogSabotage(path: path)
        try sabotage.failInsertsOfEventsTitled("doomed")
        let titles = ["doomed", "one", "two"]
        var failures = 0
        try catalog.withPageGroup { group throws in
            for (index, title) in titles.enumerated() {
                var page = ListingPage(source: .songkick, locator: title)
                page.events = [EventListing(sourceID: title, title: title, start: EventStart(localDate: LocalDate(iso: "2027-01-01")!))]
                do { _ = try group.apply(page, pageHash: "\(index)", format: "songkick-json") } catch { failures += 1 }
            }
        }
        try sabotage.remove()
        #expect(failures == 1)
        #expect(try sabotage.eventTitles() == ["one", "two"])
        let revisions = try DatabaseQueue(path: path).read { db in
            try Int64.fetchAll(db, sql: "SELECT DISTINCT revision FROM event")
        }
        #expect(revisions.count == 1)
    }

    @Test func aLeanerMentionOfAnArtistOrVenueLeavesItsRecordAsTheRicherPageWroteIt() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let rich = ArtistListing(
            sourceID: "low", name: "Low", musicBrainzIDs: ["4991e134-af50-46b8-a3e2-e3497ab781b6"], url: "https://bit/a/1")
        let lean = ArtistListing(sourceID: "low", name: "Low")
        let place = VenueListing(sourceID: "v1", name: "Roundhouse", street: "Chalk Farm Road", city: "London")
        let bareVenue = VenueListing(sourceID: "v1", name: "Roundhouse", city: "London")
        func records() throws -> [String] {
            try DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: """
                    SELECT kind || ' ' || content_hash || ' ' || payload FROM source_record
                    WHERE kind IN ('artist', 'venue') ORDER BY id
                    """)
            }
        }
        var artistPage = ListingPage(source: .bandsintown, locator: "artist")
        artistPage.artists = [rich]
        artistPage.venues = [place]
        _ = try catalog.apply(artistPage)
        let written = try records()
        var events = ListingPage(source: .bandsintown, locator: "events")
        for (index, day) in ["2027-01-01", "2027-01-02"].enumerated() {
            events.events.append(EventListing(
                sourceID: "e\(index)", title: "Low", start: EventStart(localDate: LocalDate(iso: day)!), venue: bareVenue,
                lineup: [PerformanceListing(artist: lean, billing: .headline, order: 1)]))
        }
        _ = try catalog.apply(events)
        #expect(try records() == written)
        // A mention that does say something new is still written.
        var renamed = ListingPage(source: .bandsintown, locator: "renamed")
        renamed.artists = [ArtistListing(sourceID: "low", name: "LOW")]
        _ = try catalog.apply(renamed)
        #expect(try records() != written)
        #expect(try catalog.artists(named: "LOW", today: TestSupport.today).first?.musicBrainzID == rich.musicBrainzIDs.first)
    }

    @Test func aLessTrustedRecordWhosePageMovedStampsItsRowEvenThoughTheRowKeepsItsValues() throws {
        // Pages list every source of a row with its link: a record's moved link changes
        // them, though each column of the row still comes from the more trusted record.
        let (catalog, path) = try TestSupport.makeCatalog()
        let mbid = "4991e134-af50-46b8-a3e2-e3497ab781b6"
        func apply(_ source: String, _ artist: ArtistListing) throws {
            var page = ListingPage(source: .registered(source), locator: source)
            page.artists = [artist]
            _ = try catalog.apply(page)
        }
        func artistRow() throws -> [String] {
            try DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT name || ' ' || url || ' ' || revision FROM artist")
            }
        }
        try apply("songkick", ArtistListing(sourceID: "sk1", name: "Low", musicBrainzIDs: [mbid], url: "https://sk/low"))
        try apply("lastfm", ArtistListing(sourceID: "Low", name: "Low", musicBrainzIDs: [mbid], url: "https://fm/low"))
        let merged = try artistRow()
        #expect(merged.count == 1)

        try apply("lastfm", ArtistListing(sourceID: "Low", name: "LOW", musicBrainzIDs: [mbid], url: "https://fm/low"))
        #expect(try artistRow() == merged)

        try apply("lastfm", ArtistListing(sourceID: "Low", name: "LOW", musicBrainzIDs: [mbid], url: "https://fm/music/low"))
        let moved = try artistRow()
        #expect(moved != merged)
        #expect(moved.first?.hasPrefix("Low https://sk/low ") == true)
    }

    @Test func aRecordListedTwiceOnOnePageIsUpdatedByItsSecondListing() throws {
        // Records are looked up for the whole page before it is applied; the second
        // listing must see the first one's writes, not that lookup.
        let (catalog, path) = try TestSupport.makeCatalog()
        let artist = ArtistListing(sourceID: "a1", name: "Velvet Harbour")
        var page = ListingPage(source: .songkick, locator: "twice")
        for title in ["Early title", "Final title"] {
            page.events.append(EventListing(
                sourceID: "e1", title: title, start: EventStart(localDate: LocalDate(iso: "2027-01-01")!),
                lineup: [PerformanceListing(artist: artist, billing: .headline, order: 1)]))
        }
        let outcome = try catalog.apply(page)
        #expect(outcome.eventsNew == 1 && outcome.eventsUpdated == 1)
        #expect(try CatalogSabotage(path: path).eventTitles() == ["Final title"])
        #expect(try catalog.stats(today: TestSupport.today).artists == 1)
    }

    @Test func aGroupThatFailsLandsNoneOfItsPages() throws {
        struct Interrupted: Error {}
        let (catalog, path) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([calendar], into: catalog)
        let before = try TestSupport.dump(path)
        #expect(throws: Interrupted.self) {
            try catalog.withPageGroup { group in
                var page = ListingPage(source: .songkick, locator: "x")
                page.events = [EventListing(sourceID: "x", title: "X", start: EventStart(localDate: LocalDate(iso: "2027-01-01")!))]
                _ = try group.apply(page, pageHash: "x", format: "songkick-json")
                throw Interrupted()
            }
        }
        #expect(try TestSupport.dump(path) == before)
    }

    @Test func venueDetailsAreNotErasedByAnEventsLeanerVenue() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        var venuePage = ListingPage(source: .songkick, locator: "venue")
        venuePage.venues = [VenueListing(sourceID: "17", name: "Roundhouse", street: "Chalk Farm Road", postalCode: "NW1 8EH")]
        _ = try catalog.apply(venuePage)
        _ = TestSupport.ingest([calendar], into: catalog)
        let artist = try #require(try catalog.artists(named: "Velvet Harbour", today: TestSupport.today).first)
        let event = try #require(try catalog.artistPage(artistID: artist.id, today: TestSupport.today)?.events.first)
        #expect(event.venue?.street == "Chalk Farm Road")
        #expect(event.venue?.latitude == 51.5432)
    }

    @Test func catalogIdsAreNeverReused() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([calendar], into: catalog)
        let sabotage = try CatalogSabotage(path: path)
        let maximum = try sabotage.deleteNewestEvent()
        var page = ListingPage(source: .songkick, locator: "inline")
        page.events = [EventListing(sourceID: "new", title: "New", start: EventStart(localDate: LocalDate(iso: "2027-01-01")!))]
        _ = try catalog.apply(page)
        let newest = try sabotage.newestEventID()
        #expect(newest > maximum)
    }

    @Test func statusAndKindConstraintsStillRefuseUnknownValuesAfterTheirRewrite() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([calendar], into: catalog)
        let sabotage = try CatalogSabotage(path: path)
        // Spelt without `IN (…)`, which SQLite tests through a temporary B-tree per row.
        #expect(try !sabotage.schema(of: "event").contains("status IN"))
        #expect(try !sabotage.schema(of: "source_record").contains("kind IN"))
        #expect(!sabotage.accepts("UPDATE event SET status = 'sold out'"))
        #expect(!sabotage.accepts("UPDATE source_record SET kind = 'festival'"))
        #expect(sabotage.accepts("UPDATE event SET status = 'postponed'"))
        #expect(sabotage.accepts("UPDATE source_record SET kind = kind"))
    }

    @Test func aNewCatalogGetsLargePagesAndAnOlderOneKeepsItsOwn() throws {
        func pageSize(_ path: String) throws -> Int {
            try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0 }
        }
        let (catalog, path) = try TestSupport.makeCatalog()
        #expect(TestSupport.ingest([calendar], into: catalog).succeeded)
        #expect(try pageSize(path) == 16384)
        // A catalog file made with SQLite's default page size still opens and ingests.
        let older = try TestSupport.temporaryDirectory().appendingPathComponent("older.sqlite").path
        try DatabaseQueue(path: older).write { db in try db.execute(sql: "CREATE TABLE made_before (id INTEGER)") }
        #expect(try pageSize(older) == 4096)
        let reopened = try CatalogDatabase(path: older)
        #expect(TestSupport.ingest([calendar], into: reopened).eventsNew == 4)
        #expect(try pageSize(older) == 4096)
    }

    /// `encore search "Calle Mayor"`: a venue is found by its address as the latest
    /// listing gives it, in a page group too, and in a catalog made before addresses were
    /// indexed once it is opened.
    @Test func venuesAreFoundByTheirAddressAsItStands() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        func page(street: String, sourceID: String = "v1", name: String = "Sala Vesta") -> ListingPage {
            var page = ListingPage(source: .songkick, locator: street)
            page.events = [EventListing(
                sourceID: "e-" + sourceID, title: "Night", start: EventStart(localDate: LocalDate(iso: "2027-01-01")!),
                venue: VenueListing(sourceID: sourceID, name: name, street: street, postalCode: "46001", city: "Valencia"))]
            return page
        }
        func ids(matching text: String) throws -> [Int64] {
            try catalog.search(text, today: TestSupport.today).filter { $0.kind == .venue }.map(\.id)
        }
        _ = try catalog.apply(page(street: "Calle Mayor 12"))
        let venue = try #require(try ids(matching: "calle mayor").first)
        #expect(try ids(matching: "46001") == [venue])
        _ = try catalog.apply(page(street: "Plaza del Ayuntamiento 3"))
        #expect(try ids(matching: "calle mayor").isEmpty)
        #expect(try ids(matching: "plaza ayuntamiento") == [venue])
        try catalog.withPageGroup { group in
            _ = try group.apply(page(street: "Avinguda del Port 9", sourceID: "v2", name: "Sala Nova"), pageHash: "p2", format: "songkick-json")
        }
        #expect(try ids(matching: "avinguda port").count == 1)

        // A catalog from before: no address rows, no record of the migration.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "DELETE FROM search_index WHERE rowid % 4 = 0")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v16:%'")
        }
        try queue.close()
        #expect(try ids(matching: "plaza ayuntamiento").isEmpty)
        let reopened = try CatalogDatabase(path: path)
        #expect(try reopened.search("plaza ayuntamiento", today: TestSupport.today).map(\.id) == [venue])
    }
}
