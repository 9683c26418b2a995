import Catalog
import EncoreCLI
import Feeds
import Foundation
import Geo
import Ingest
import Listings
import Testing

/// An incremental build must leave exactly the files a full build of the same catalog
/// would, while writing only the files whose bytes changed.
struct IncrementalFeedTests {
    let stamp = UTCInstant(iso: "2026-11-22T08:00:00Z")!
    let calendar = TestSupport.fixture("sample-multi/songkick-json/metro-areas/24426-calendar-p1.json")

    func builder(_ catalog: CatalogDatabase) -> FeedBuilder {
        FeedBuilder(source: catalog, today: TestSupport.today, generatedAt: stamp)
    }

    /// A full build of the same catalog in a fresh directory, as path → bytes.
    func fullBuild(of catalog: CatalogDatabase) throws -> [String: Data] {
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        let outcome = try builder(catalog).write(to: FeedTreeWriter(outputDirectory: out), full: true)
        #expect(!outcome.incremental)
        return try files(under: out)
    }

    /// A catalog of `fixture`, and a first build of it into a fresh `feeds/`.
    func builtFeeds(of fixture: String) throws -> (CatalogDatabase, URL, FeedTreeWriter) {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture(fixture)], into: catalog)
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        let writer = FeedTreeWriter(outputDirectory: out)
        _ = try builder(catalog).write(to: writer)
        return (catalog, out, writer)
    }

    /// Records each file of `out` that differs from a full build of `catalog`; returns
    /// the built files.
    @discardableResult
    func expectSameAsFullBuild(_ out: URL, of catalog: CatalogDatabase, _ label: String) throws -> [String: Data] {
        let built = try files(under: out)
        let expected = try fullBuild(of: catalog)
        #expect(built.keys.sorted() == expected.keys.sorted(), "\(label)")
        for (path, data) in expected where built[path] != data { Issue.record("\(label): \(path) differs") }
        return built
    }

    func files(under directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    func inode(_ url: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as! Int
    }

    /// Re-lists the London calendar page with a cancelled show, a renamed venue (three
    /// shows there), a renamed act (its band page moves to a new slug, and the band page
    /// that lists it as similar changes), a show moved by a day and a new show.
    func relistWithChanges(into catalog: CatalogDatabase, round: Int) throws {
        try relistCalendar(into: catalog, name: "relisted-\(round)") { events in
            try change(&events, round: round)
        }
    }

    /// Ingests the London calendar page with its events changed by `change`.
    func relistCalendar(
        into catalog: CatalogDatabase, name: String, _ change: (inout [[String: Any]]) throws -> Void
    ) throws {
        var page = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: calendar))) as! [String: Any]
        var results = (page["resultsPage"] as! [String: Any])
        var events = (results["results"] as! [String: Any])["event"] as! [[String: Any]]
        try change(&events)
        results["results"] = ["event": events]
        page["resultsPage"] = results
        let file = try TestSupport.temporaryDirectory().appendingPathComponent("\(name).json")
        try JSONSerialization.data(withJSONObject: page).write(to: file)
        let summary = TestSupport.ingest([file.path], into: catalog, format: "songkick-json")
        #expect(summary.succeeded)
    }

    func change(_ events: inout [[String: Any]], round: Int) throws {
        events[0]["status"] = "cancelled"
        for index in events.indices {
            var venue = events[index]["venue"] as! [String: Any]
            if venue["id"] as? Int == 2090 {
                venue["displayName"] = "The Roundhouse Annex \(round)"
                events[index]["venue"] = venue
            }
            var performances = events[index]["performance"] as! [[String: Any]]
            for slot in performances.indices {
                var artist = performances[slot]["artist"] as! [String: Any]
                guard artist["id"] as? Int == 100461 else { continue }
                artist["displayName"] = "Renamed Act \(round)"
                performances[slot]["artist"] = artist
                performances[slot]["displayName"] = "Renamed Act \(round)"
            }
            events[index]["performance"] = performances
        }
        var start = events[1]["start"] as! [String: Any]
        start["date"] = "2026-12-2\(round)"
        start["datetime"] = NSNull()
        events[1]["start"] = start
        var added = events[6]
        added["id"] = 99_000_000 + round
        added["displayName"] = "A new show \(round)"
        events.append(added)
    }

    @Test func anIncrementalBuildLeavesWhatAFullBuildWouldAndRewritesOnlyChangedFiles() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("sample-multi")], into: catalog)
        _ = try catalog.updateSettings(user: "ana", home: ("Camden", .init(latitude: 51.539, longitude: -0.1426)))
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        let writer = FeedTreeWriter(outputDirectory: out)

        let first = try builder(catalog).write(to: writer)
        #expect(!first.incremental)
        #expect(try files(under: out) == fullBuild(of: catalog))

        // Nothing changed: nothing but index.json (its generated_at) may be written.
        let unchanged = try builder(catalog).write(to: writer)
        #expect(unchanged.incremental)
        #expect(unchanged.report.written == 0 && unchanged.report.removed == 0)
        #expect(try files(under: out) == fullBuild(of: catalog))

        // Three rounds of changes: the second and third bring the spare tree up to date
        // from the build before the last one.
        for round in 1...3 {
            let previous = try files(under: out)
            let untouched = previous.keys.filter { $0.hasPrefix("events/") }.sorted().first { path in
                !path.contains("34150") && !path.contains("34151") && !path.contains("34152") && !path.contains("99000")
            }!
            let before = try inode(out.appendingPathComponent(untouched))
            try relistWithChanges(into: catalog, round: round)
            let outcome = try builder(catalog).write(to: writer)
            #expect(outcome.incremental)
            let built = try expectSameAsFullBuild(out, of: catalog, "round \(round)")
            #expect(outcome.report.written > 0 && outcome.report.written < built.count / 4)
            #expect(outcome.report.written + outcome.report.unchanged == built.count)
            // Exactly the files whose bytes changed are written: a show rendered again
            // whose concert page came out the same (no hash kept) was compared with it.
            #expect(outcome.report.written == built.filter { previous[$0.key] != $0.value }.count)
            // The changes show: on the venue's page, and on the page listing the renamed act as similar.
            #expect(built.contains { $0.key.hasPrefix("venues/") && String(decoding: $0.value, as: UTF8.self).contains("Annex \(round)") })
            #expect(built.contains { path, data in
                path.hasPrefix("artists/") && !path.hasPrefix("artists/renamed-act")
                    && String(decoding: data, as: UTF8.self).contains("\"slug\":\"renamed-act-\(round)\"")
            })
            #expect(try inode(out.appendingPathComponent(untouched)) == before, "an unchanged file was rewritten")
        }
    }

    @Test func showsThatKeptTheirPlacesAreSwappedIntoTheirListsAndAFileChangedByHandIsRenderedAgain() throws {
        let (catalog, out, writer) = try builtFeeds(of: "sample-multi/songkick-json")
        #expect(try builder(catalog).write(to: writer).incremental)

        // A file of the live tree changed by hand (replaced, as feeds are) cannot be
        // spliced: its bytes are not the ones the state knows.
        let listed = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: calendar))) as! [String: Any]
        let firstShow = (((listed["resultsPage"] as! [String: Any])["results"] as! [String: Any])["event"] as! [[String: Any]])[0]
        func page(in folder: String) throws -> String {
            try files(under: out).first { path, data in
                path.hasPrefix(folder) && path.hasSuffix(".json")
                    && String(decoding: data, as: UTF8.self).contains(firstShow["displayName"] as! String)
            }!.key
        }
        let metroPage = try page(in: "metros/")
        let edited = out.appendingPathComponent(try page(in: "venues/"))
        let original = String(decoding: try Data(contentsOf: edited), as: UTF8.self)
        #expect(original.contains("\"page\":1,"))
        try FileManager.default.removeItem(at: edited)
        try Data(original.replacingOccurrences(of: "\"page\":1,", with: "\"page\":1 ,").utf8).write(to: edited)

        func metroPages(of files: [String: Data]) -> String {
            files.filter { $0.key.hasPrefix("metros/") && $0.key.hasSuffix(".html") }.sorted { $0.key < $1.key }
                .map { String(decoding: $0.value, as: UTF8.self) }.joined()
        }
        let before = metroPages(of: try files(under: out))
        let cancelledBefore = before.components(separatedBy: "<li class=cancelled>").count
        let postponedBefore = before.components(separatedBy: "<li class=postponed>").count

        // Cancelled, postponed, renamed: each show keeps its place in every list.
        try relistCalendar(into: catalog, name: "statuses") { events in
            events[0]["status"] = "cancelled"
            events[3]["status"] = "postponed"
            events[5]["displayName"] = "A renamed show"
        }
        let outcome = try builder(catalog).write(to: writer)
        #expect(outcome.incremental)
        #expect(outcome.splicedLists > 0)
        let built = try expectSameAsFullBuild(out, of: catalog, "after the statuses changed")
        let map = metroPage.replacingOccurrences(of: ".json", with: ".geojson")
        #expect(String(decoding: built[map] ?? Data(), as: UTF8.self).contains("A renamed show"))
        // The pages for people were swapped too: each list page of the metro area shows one
        // more cancelled and one more postponed show, and the new name.
        let after = metroPages(of: built)
        #expect(after.components(separatedBy: "<li class=cancelled>").count == cancelledBefore + 1)
        #expect(after.components(separatedBy: "<li class=postponed>").count == postponedBefore + 1)
        #expect(after.contains("A renamed show"))
    }

    @Test func aRecentPastShowRenamedOnABandPageWithSeveralPagesIsSwappedIntoItsFirstPage() throws {
        // One band: two pages of upcoming shows, and a show of three weeks ago, which
        // band pages list on their first page after the upcoming ones.
        let template = (((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: calendar)))
            as! [String: Any])["resultsPage"] as! [String: Any])["results"] as! [String: Any])["event"] as! [[String: Any]]
        func tour(pastShowName: String) -> [[String: Any]] {
            let days = ["2026-11-01"] + (1...30).map { String(format: "2026-12-%02d", $0) }
            return days.enumerated().map { index, day in
                var event = template[1]
                event["id"] = 91_000_000 + index
                event["displayName"] = index == 0 ? pastShowName : "Tourmaline Test on \(day)"
                event["start"] = ["date": day, "datetime": "\(day)T20:00:00+0000", "time": "20:00:00"]
                var performance = (event["performance"] as! [[String: Any]])[0]
                performance["artist"] = ["id": 990_001, "displayName": "Tourmaline Test", "identifier": [] as [Any]]
                performance["displayName"] = "Tourmaline Test"
                event["performance"] = [performance]
                return event
            }
        }
        func ingest(_ events: [[String: Any]], name: String) throws {
            let page = ["resultsPage": ["status": "ok", "results": ["event": events], "perPage": 50, "page": 1, "totalEntries": events.count]]
            let file = try TestSupport.temporaryDirectory().appendingPathComponent("\(name).json")
            try JSONSerialization.data(withJSONObject: page).write(to: file)
            #expect(TestSupport.ingest([file.path], into: catalog, format: "songkick-json").succeeded)
        }
        let (catalog, _) = try TestSupport.makeCatalog()
        try ingest(tour(pastShowName: "Tourmaline Test, the warm-up"), name: "tour")
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        let writer = FeedTreeWriter(outputDirectory: out)
        _ = try builder(catalog).write(to: writer)
        #expect(try builder(catalog).write(to: writer).incremental)
        let firstPage = String(decoding: try Data(contentsOf: out.appendingPathComponent("artists/tourmaline-test.json")), as: UTF8.self)
        #expect(firstPage.contains("the warm-up") && firstPage.contains("\"pages\":2"))

        try ingest(tour(pastShowName: "Tourmaline Test, the secret warm-up"), name: "renamed")
        let outcome = try builder(catalog).write(to: writer)
        #expect(outcome.incremental)
        // Only the band's list shows a past show: it was spliced, not rendered again.
        #expect(outcome.splicedLists == 1)
        let built = try expectSameAsFullBuild(out, of: catalog, "after the past show was renamed")
        #expect(String(decoding: built["artists/tourmaline-test.html"] ?? Data(), as: UTF8.self).contains("the secret warm-up"))
    }

    @Test func aShowMovedToAnotherDayTakesItsNewPlaceInEveryList() throws {
        let (catalog, out, writer) = try builtFeeds(of: "sample-multi/songkick-json")
        // Only the date changes: the venue, acts and metro area are as they were, so
        // nothing but the show's list key says its lists must be put in order again.
        try relistCalendar(into: catalog, name: "moved") { events in
            var start = events[0]["start"] as! [String: Any]
            start["date"] = "2027-10-30"
            start["datetime"] = NSNull()
            events[0]["start"] = start
        }
        #expect(try builder(catalog).write(to: writer).incremental)
        try expectSameAsFullBuild(out, of: catalog, "after the move")
    }

    @Test func aBuildInterruptedWhileUpdatingTheSpareTreeIsFollowedByACorrectOne() throws {
        let (catalog, out, writer) = try builtFeeds(of: "sample-multi")
        _ = try builder(catalog).write(to: writer)
        // What a killed build leaves: the spare tree half changed, and the marker saying so.
        let parent = out.deletingLastPathComponent()
        let spareIndex = parent.appendingPathComponent(".feeds.spare/index.json")
        try FileManager.default.removeItem(at: spareIndex)
        try Data("half".utf8).write(to: spareIndex)
        try Data().write(to: parent.appendingPathComponent(".feeds.state/spare-dirty"))
        #expect(try files(under: out) == fullBuild(of: catalog))

        try relistWithChanges(into: catalog, round: 1)
        let outcome = try builder(catalog).write(to: writer)
        #expect(outcome.incremental)
        #expect(try files(under: out) == fullBuild(of: catalog))
    }

    @Test func aNewDayOrAMissingStateGivesAFullBuild() throws {
        let (catalog, out, writer) = try builtFeeds(of: "songkick-json")
        let tomorrow = FeedBuilder(source: catalog, today: TestSupport.today.adding(days: 1), generatedAt: stamp)
        #expect(try !tomorrow.write(to: writer).incremental)
        #expect(try tomorrow.write(to: writer).incremental)
        try FileManager.default.removeItem(at: out.deletingLastPathComponent().appendingPathComponent(".feeds.state"))
        #expect(try !tomorrow.write(to: writer).incremental)
    }

    /// A Bay Area calendar page with one show at a venue in `city`. Songkick names the
    /// metro area on the venue without a centre, and no city is called "SF Bay Area".
    func bayAreaPage(show: Int, venue: Int, city: String, latitude: Double, longitude: Double) throws -> String {
        let page = """
            {"resultsPage": {"status": "ok", "page": 1, "perPage": 50, "totalEntries": 1, "results": {"event": [{
              "id": \(show), "type": "Concert", "displayName": "Show \(show)", "status": "ok",
              "uri": "https://www.songkick.com/concerts/\(show)", "start": {"date": "2026-12-05", "time": null, "datetime": null},
              "performance": [{"id": \(show), "billing": "headline", "billingIndex": 1, "displayName": "Band \(show)",
                "artist": {"id": \(show), "displayName": "Band \(show)", "uri": "https://www.songkick.com/artists/\(show)", "identifier": []}}],
              "venue": {"id": \(venue), "displayName": "Hall \(venue)", "lat": \(latitude), "lng": \(longitude),
                "uri": "https://www.songkick.com/venues/\(venue)",
                "metroArea": {"id": 26330, "displayName": "SF Bay Area", "country": {"displayName": "US"}, "state": {"displayName": "CA"}}},
              "location": {"city": "\(city), CA, US", "lat": \(latitude), "lng": \(longitude)}}]}}}
            """
        let file = try TestSupport.temporaryDirectory().appendingPathComponent("bay-\(show).json")
        try Data(page.utf8).write(to: file)
        return file.path
    }

    @Test func aMetroAreaListedWithAnotherVenueFirstDoesNotChangeItsShows() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        let ingestion = FileIngestion(enrichment: GeoEnrichment(gazetteer: try Gazetteer.bundled()))
        let oakland = try bayAreaPage(show: 1, venue: 11, city: "Oakland", latitude: 37.8044, longitude: -122.2712)
        #expect(ingestion.ingest(paths: [oakland], into: catalog).succeeded)
        let before = try catalog.catalogRevision()
        let sanJose = try bayAreaPage(show: 2, venue: 12, city: "San Jose", latitude: 37.3382, longitude: -121.8863)
        #expect(ingestion.ingest(paths: [sanJose], into: catalog).succeeded)

        // Only the new show changed: the metro area kept the centre it had, so the
        // Oakland show (its concert page, its place on the metro feed) is untouched.
        let changes = try catalog.changes(since: before)
        #expect(changes.metroAreas.isEmpty)
        #expect(changes.events.count == 1)
        #expect(try catalog.changes(since: 0).events.count == 2)
    }

    @Test func recordsOfOtherSourcesMergedInShowOnTheNextIncrementalBuild() throws {
        // Each source merges into what the ones before it listed: venues, acts and shows
        // gain source links even where no field of theirs changes.
        let (catalog, out, writer) = try builtFeeds(of: "sample-multi/songkick-json")
        for source in ["ticketmaster", "bandsintown", "lastfm-xml", "jsonld"] {
            #expect(TestSupport.ingest([TestSupport.fixture("sample-multi/\(source)")], into: catalog).succeeded)
            let outcome = try builder(catalog).write(to: writer)
            #expect(outcome.incremental)
            try expectSameAsFullBuild(out, of: catalog, "after \(source)")
        }
    }

    @Test func anArtistMergedFromAnotherSourceShowsItOnTheNextIncrementalBuild() throws {
        // Bandsintown's record of Songkick's Velvet Harbour (one MusicBrainz id) changes no
        // field of the artist, only the band page's sources.
        let (catalog, out, writer) = try builtFeeds(of: "songkick-json/metro-24426-calendar.json")
        let artist = try TestSupport.temporaryDirectory().appendingPathComponent("velvet-harbour.json")
        try Data("""
            {"id": "9001", "name": "Velvet Harbour", "url": "https://www.bandsintown.com/a/9001",
             "mbid": "6a1f4f0e-3c55-4b7e-9d8a-2f7c1b0e9a11", "tracker_count": 12, "upcoming_event_count": 0}
            """.utf8).write(to: artist)
        #expect(TestSupport.ingest([artist.path], into: catalog, format: "bandsintown").succeeded)
        #expect(try builder(catalog).write(to: writer).incremental)
        let built = try files(under: out)
        #expect(built == (try fullBuild(of: catalog)))
        #expect(String(decoding: built["artists/velvet-harbour.json"] ?? Data(), as: UTF8.self).contains("bandsintown.com/a/9001"))
    }

    @Test func aSecondBuildIntoTheSameDirectoryStopsWhileTheFirstRuns() throws {
        let (catalog, out, writer) = try builtFeeds(of: "songkick-json")
        let before = try files(under: out)

        // What a build in another process holds while it runs.
        let lock = out.deletingLastPathComponent().appendingPathComponent(".feeds.state/lock").path
        let held = open(lock, O_RDWR)
        #expect(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        #expect(throws: FeedBuildInProgress.self) { try builder(catalog).write(to: writer, full: true) }
        #expect(try files(under: out) == before)

        flock(held, LOCK_UN)
        close(held)
        #expect(try builder(catalog).write(to: writer, full: true).report.unchanged > 0)
    }
}
