import Catalog
import EncoreCLI
import Feeds
import Foundation
import Geo
import Ingest
import Listings
import Testing

struct FeedsTests {
    let stamp = UTCInstant(iso: "2026-11-22T08:00:00Z")!

    /// A small catalog with a fan who has a home, a tracked artist and plans.
    func catalogWithAFan() throws -> CatalogDatabase {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("songkick-json")], into: catalog)
        _ = try catalog.updateSettings(user: "ana", home: ("Camden", .init(latitude: 51.539, longitude: -0.1426)))
        for id in try catalog.eventIDs(since: TestSupport.today) { try catalog.addPlan(user: "ana", eventID: id) }
        return catalog
    }

    /// The build reads band pages in ranges of artists; each must be what the artist's
    /// own query gives.
    @Test func bandPagesReadTogetherAreThoseReadOneByOne() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("sample-multi")], into: catalog)
        let today = TestSupport.today
        let since = today.adding(days: -90)
        let all = try catalog.artistNames(withEventsSince: today.adding(days: -400)).map(\.id) + [999_999]
        // Also every third artist alone: a range then holds artists that were not asked for.
        for ids in [all, all.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)] {
            let together = try catalog.artistPageOutlines(ids: ids, today: today, pastSince: since)
            let oneByOne = try ids.compactMap { try catalog.artistPageOutline(artistID: $0, today: today, pastSince: since) }
            #expect(together.count > 50)
            #expect(together == oneByOne)
        }
        let outlines = try catalog.artistPageOutlines(ids: all, today: today, pastSince: since)
        #expect(outlines.contains { !$0.similar.isEmpty } && outlines.contains { !$0.past.isEmpty })
    }

    @Test func theSameCatalogGivesByteIdenticalFeeds() throws {
        let catalog = try catalogWithAFan()
        let first = try FeedBuilder(source: catalog, today: TestSupport.today, generatedAt: stamp, publishFans: true).build()
        let second = try FeedBuilder(source: catalog, today: TestSupport.today, generatedAt: stamp, publishFans: true).build()
        #expect(first.files == second.files)
        #expect(first.files.keys.contains("metros/1.json"))
        #expect(first.files.keys.contains("users/ana/plans.ics"))
        #expect(first.files.keys.contains("artists/velvet-harbour.json"))
        let later = try FeedBuilder(
            source: catalog, today: TestSupport.today, generatedAt: UTCInstant(secondsSinceEpoch: 0), publishFans: true
        ).build()
        let changed = Set(first.files.keys.filter { first.files[$0] != later.files[$0] })
        #expect(changed == ["index.json"])
    }

    /// A residency of 230 nights: the band page and the venue page each list
    /// ``FeedBuilder/pageSize`` a page, the rest reached by `next` links, and every page validates.
    @Test func longBandAndVenuePagesArePaginatedWithStableLinks() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        let london = Coordinate(latitude: 51.539, longitude: -0.1426)
        var page = ListingPage(source: .songkick, locator: "residency")
        let band = ArtistListing(sourceID: "a1", name: "Velvet Harbour")
        for night in -5..<230 {
            page.events.append(EventListing(
                sourceID: "e\(night)", title: "Night \(night)", start: EventStart(localDate: TestSupport.today.adding(days: night)),
                venue: VenueListing(
                    sourceID: "v1", name: "Roundhouse", coordinate: london,
                    metroArea: MetroAreaListing(sourceID: "24426", name: "London", coordinate: london)),
                lineup: [PerformanceListing(artist: band, billing: .headline, order: 1)]))
        }
        _ = try catalog.apply(page)
        let tree = try FeedBuilder(source: catalog, today: TestSupport.today, generatedAt: stamp).build()
        let pageCount = (230 + FeedBuilder.pageSize - 1) / FeedBuilder.pageSize
        #expect(pageCount >= 3)

        func follow(_ first: String, list: String, total: String) throws -> [[String: Any]] {
            var pages: [[String: Any]] = []
            var path: String? = first
            while let current = path {
                let data = try #require(tree.files[current], "\(current)")
                let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                #expect(document["page"] as? Int == pages.count + 1)
                #expect(document["pages"] as? Int == pageCount)
                #expect(document[total] as? Int == 230)
                #expect((document["previous"] as? String) == (pages.isEmpty ? nil : pages.last!["self"] as? String))
                var withPath = document
                withPath["self"] = current
                pages.append(withPath)
                path = document["next"] as? String
            }
            let titles = pages.flatMap { ($0[list] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String } }
            #expect(titles == (0..<230).map { "Night \($0)" })
            return pages
        }
        let bandPages = try follow("artists/velvet-harbour.json", list: "upcoming", total: "total_upcoming")
        #expect(bandPages.map { $0["self"] as? String } == ["artists/velvet-harbour.json"] + (2...pageCount).map {
            "artists/velvet-harbour/page-\($0).json"
        })
        #expect((bandPages[0]["recent_past"] as? [Any])?.count == 5)
        #expect((bandPages[1]["recent_past"] as? [Any])?.isEmpty == true)
        let venueID = try #require((bandPages[0]["upcoming"] as? [[String: Any]])?.first?["venue"] as? [String: Any])["id"] as! Int
        let venuePages = try follow("venues/\(venueID).json", list: "events", total: "total_events")
        #expect(venuePages.last?["self"] as? String == "venues/\(venueID)/page-\(pageCount).json")

        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        _ = try FeedTreeWriter(outputDirectory: out).write(tree)
        let run = try Python.run(["scripts/validate-feeds.py", out.path])
        #expect(run.status == 0, "\(run.output)")
    }

    /// Lists carry each event's summary; its concert page, which the entry names, keeps
    /// everything else (tickets, sources, address).
    @Test func listEntriesAreSummariesThatNameTheirConcertPage() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("sample-multi")], into: catalog)
        _ = try catalog.updateSettings(user: "ana", home: ("Bilbao", .init(latitude: 43.263, longitude: -2.935)))
        for id in try catalog.eventIDs(since: TestSupport.today).prefix(5) { try catalog.addPlan(user: "ana", eventID: id) }
        let tree = try FeedBuilder(source: catalog, today: TestSupport.today, generatedAt: stamp).build()
        let summaryKeys: Set<String> = ["id", "title", "status", "start", "venue", "lineup", "more_acts", "path", "unlisted_since"]
        var entries: [[String: Any]] = []
        for (path, data) in tree.files where path.hasSuffix(".json") && !path.hasPrefix("events/") && !path.hasPrefix("search/") {
            guard let document = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
            for key in ["upcoming", "recent_past", "events", "plans"] {
                for entry in document[key] as? [[String: Any]] ?? [] {
                    // A fan's plans and feed wrap the summary with what is theirs.
                    entries.append(entry["event"] as? [String: Any] ?? entry)
                }
            }
        }
        #expect(entries.count > 500)
        #expect(entries.contains { ($0["lineup"] as? [Any])?.isEmpty == false })
        for entry in entries {
            #expect(Set(entry.keys).isSubset(of: summaryKeys), "\(entry.keys.sorted())")
            let id = try #require(entry["id"] as? Int)
            #expect(entry["path"] as? String == "events/\(id).json")
            let page = try #require(tree.files["events/\(id).json"].flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] })
            #expect(page["title"] as? String == entry["title"] as? String)
            #expect(page["offers"] != nil && page["sources"] != nil)
            let start = try #require(entry["start"] as? [String: Any])
            #expect(Set(start.keys) == ["local_date", "local_time", "timezone"])
        }
    }

    @Test func builtFeedsMatchTheirSchemas() throws {
        let catalog = try catalogWithAFan()
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        let tree = try FeedBuilder(source: catalog, today: TestSupport.today, generatedAt: stamp).build()
        _ = try FeedTreeWriter(outputDirectory: out).write(tree)
        let run = try Python.run(["scripts/validate-feeds.py", out.path])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains(" passed, 0 failed"))
    }

    @Test(.enabled(if: Python.runsTests(needing: "icalendar"), "needs the icalendar package (CI installs it)"))
    func plansCalendarParsesWithARealICalendarParser() throws {
        try Python.require("icalendar")
        let catalog = try catalogWithAFan()
        let plans = try catalog.plans(user: "ana", today: TestSupport.today)
        let text = ICalendar.calendar(name: "ana's concerts", events: plans.map(\.event), stamp: stamp, reminderMinutes: 180)
        #expect(text.contains("STATUS:CANCELLED"))
        #expect(text.contains("TRIGGER:-PT180M"))
        #expect(text.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        let file = try TestSupport.temporaryDirectory().appendingPathComponent("plans.ics")
        try Data(text.utf8).write(to: file)
        let run = try Python.run(["scripts/validate-ics.py", file.path])
        #expect(run.status == 0, "\(run.output)")
        // Reminders only for timed shows that still happen.
        let reminded = plans.filter { ($0.event.start.utc != nil || $0.event.start.localTime != nil) && $0.event.status != .cancelled }
        #expect(reminded.count < plans.count)
        #expect(run.output.contains("ok: \(plans.count) events, \(reminded.count) alarms"))
    }

    @Test func slugsCannotEscapeTheOutputDirectory() throws {
        #expect(Slug.make("../../etc") == "etc")
        #expect(Slug.make("CON") == "con-1")
        #expect(Slug.make("a/b\\c") == "a-b-c")
        #expect(Slug.make("") == "item")
        #expect(Slug.make("🎸🎸") == "item")
        #expect(Slug.make("Sigur Rós") == "sigur-ros")
        let slugs = Slug.unique([(key: 9, name: "Low"), (key: 3, name: "LOW"), (key: 5, name: "Sigur Rós")])
        #expect(slugs == [3: "low", 9: "low-9", 5: "sigur-ros"])
        var tree = FeedTree()
        for path in ["../x.json", "/etc/x", "a//b.json", "a/./b.json", "a\\b.json", "", "..", "a/..", "a/b/", "a/\0b", "."] {
            #expect(throws: UnsafeFeedPath.self) { try tree.add(path, Data()) }
        }
        for path in ["events/1.html", "a/.../b.json", "a/.b", "a/b..c/d"] { #expect(throws: Never.self) { try tree.add(path, Data()) } }
    }

    @Test func rebuildsRewriteOnlyWhatChangedAndRemoveStaleFiles() throws {
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        let writer = FeedTreeWriter(outputDirectory: out)
        var first = FeedTree()
        try first.add("index.json", Data("1".utf8))
        try first.add("events/1.json", Data("a".utf8))
        try first.add("events/2.json", Data("b".utf8))
        #expect(try writer.write(first) == FeedBuildReport(written: 3, unchanged: 0, removed: 0, bytesWritten: 3))
        #expect(try writer.write(first) == FeedBuildReport(written: 0, unchanged: 3, removed: 0, bytesWritten: 0))
        var second = FeedTree()
        try second.add("index.json", Data("2".utf8))
        try second.add("events/1.json", Data("a".utf8))
        let report = try writer.write(second)
        #expect(report == FeedBuildReport(written: 1, unchanged: 1, removed: 1, bytesWritten: 1))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("events/2.json").path))
        let siblings = try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path)
        #expect(siblings == ["feeds"])
    }

    @Test func anInterruptedBuildLeavesThePreviousFeedsIntact() throws {
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        let writer = FeedTreeWriter(outputDirectory: out)
        var tree = FeedTree()
        try tree.add("index.json", Data("complete".utf8))
        _ = try writer.write(tree)
        // A build killed half-way leaves its staging directory behind, nothing else.
        let staging = out.deletingLastPathComponent().appendingPathComponent(".feeds.building")
        try FileManager.default.createDirectory(at: staging.appendingPathComponent("events"), withIntermediateDirectories: true)
        try Data("half".utf8).write(to: staging.appendingPathComponent("index.json"))
        #expect(try String(contentsOf: out.appendingPathComponent("index.json"), encoding: .utf8) == "complete")
        var next = FeedTree()
        try next.add("index.json", Data("next".utf8))
        _ = try writer.write(next)
        #expect(try String(contentsOf: out.appendingPathComponent("index.json"), encoding: .utf8) == "next")
        #expect(!FileManager.default.fileExists(atPath: staging.path))
    }

    @Test func aStreamedBuildWritesAsItGoesAndSwapsInOnlyWhenFinished() throws {
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        let writer = FeedTreeWriter(outputDirectory: out)
        var first = FeedTree()
        try first.add("index.json", Data("old".utf8))
        try first.add("events/1.json", Data("same".utf8))
        try first.add("events/2.json", Data("gone".utf8))
        try first.add("venues/3.json", Data("kept".utf8))
        _ = try writer.write(first)

        var staging = try writer.begin()
        try staging.add("events/1.json", Data("same".utf8))
        try staging.add("index.json", Data("draft".utf8))
        try staging.add("index.json", Data("new".utf8))
        // Linked from the live build, then replaced: the live file is not written through.
        try staging.add("venues/3.json", Data("kept".utf8))
        try staging.add("venues/3.json", Data("edited".utf8))
        #expect(try String(contentsOf: out.appendingPathComponent("venues/3.json"), encoding: .utf8) == "kept")
        #expect(throws: UnsafeFeedPath.self) { try staging.add("../escape.json", Data()) }
        #expect(staging.count == 3)
        // Files are on disk in the staging directory, but readers still see the old build.
        let staged = out.deletingLastPathComponent().appendingPathComponent(".feeds.building/index.json")
        #expect(try String(contentsOf: staged, encoding: .utf8) == "new")
        #expect(try String(contentsOf: out.appendingPathComponent("index.json"), encoding: .utf8) == "old")

        let report = try staging.finish()
        #expect(report == FeedBuildReport(written: 2, unchanged: 1, removed: 1, bytesWritten: 9))
        #expect(try String(contentsOf: out.appendingPathComponent("venues/3.json"), encoding: .utf8) == "edited")
        #expect(try String(contentsOf: out.appendingPathComponent("index.json"), encoding: .utf8) == "new")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("events/2.json").path))
        #expect(!FileManager.default.fileExists(atPath: out.deletingLastPathComponent().appendingPathComponent("escape.json").path))
    }
}

/// Runs the repository's Python scripts.
enum Python {
    static func hasModule(_ name: String) -> Bool {
        (try? run(["-c", "import \(name)"]).status) == 0
    }

    /// Whether a test that needs `module` runs: always in CI (which installs it, so a
    /// missing one fails there with ``require(_:)``'s message), elsewhere when installed.
    static func runsTests(needing module: String) -> Bool {
        ProcessInfo.processInfo.environment["CI"] != nil || hasModule(module)
    }

    /// Fails the test with what to install when `module` is missing.
    static func require(_ module: String) throws {
        try #require(hasModule(module), "the Python package \(module) is missing: python3 -m pip install \(module)")
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.currentDirectoryURL = TestSupport.packageRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

struct FeedTreeWriterPreservationTests {
    @Test func committedSchemasSurviveEveryBuild() throws {
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: out.appendingPathComponent("schema"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: out.appendingPathComponent("schema/index.schema.json"))
        let writer = FeedTreeWriter(outputDirectory: out, preserving: ["schema"])
        var tree = FeedTree()
        try tree.add("index.json", Data("1".utf8))
        let report = try writer.write(tree)
        #expect(report.removed == 0)
        _ = try writer.write(tree)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("schema/index.schema.json").path))
    }
}
