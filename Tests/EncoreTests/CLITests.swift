import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The real `encore` binary, run as scripts run it: exit status, stdout, stderr.
struct CLIRun {
    let status: Int32
    let stdout: String
    let stderr: String

    /// The `encore` built with these tests: `swift test` builds every product into the
    /// folder of the test bundle. Never another build's binary, which may be stale.
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("encore")
    }

    struct BinaryMissing: Error, CustomStringConvertible {
        let path: String
        var description: String { "no encore binary at \(path), beside the tests: build it with `swift build --build-tests`" }
    }

    static func run(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) throws -> CLIRun {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else { throw BinaryMissing(path: binary.path) }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["ENCORE_DB"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting, so a full pipe cannot block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRun(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8))
    }
}

/// A catalog path in a fresh directory (the file made by the first command that writes
/// one), and `encore` run on it as of 2026-11-22.
struct CLIScratch {
    let directory: URL
    let db: String

    /// - Parameter fixtures: directories under `Fixtures/` to ingest first.
    init(ingesting fixtures: String...) throws {
        directory = try TestSupport.temporaryDirectory()
        db = directory.appendingPathComponent("encore.sqlite").path
        for fixture in fixtures {
            let run = try CLIRun.run(["--db", db, "ingest", TestSupport.fixture(fixture)])
            guard run.status == 0 else { throw CLIScratchError(message: "ingest \(fixture): \(run.stderr)") }
        }
    }

    func encore(_ arguments: [String]) throws -> CLIRun {
        try CLIRun.run(["--db", db, "--today", "2026-11-22"] + arguments)
    }
}

struct CLIScratchError: Error {
    let message: String
}

@Suite(.serialized)
struct CLITests {
    let scratch: CLIScratch
    var directory: URL { scratch.directory }
    var db: String { scratch.db }

    init() throws {
        scratch = try CLIScratch()
    }

    func encore(_ arguments: String...) throws -> CLIRun {
        try scratch.encore(arguments)
    }

    @Test func ingestEndsWithASummaryAndExitsZero() throws {
        let run = try encore("ingest", TestSupport.fixture("songkick-json"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("1 page (1 applied, 0 unchanged, 0 failed); events: 4 new, 0 merged, 0 updated, 0 unchanged"))
        #expect(run.stderr.isEmpty)
    }

    /// "-5km" looks like an option to a parser; it is a distance that cannot be.
    @Test(arguments: [["near", "Bilbao"], ["metros", "--near", "Bilbao"], ["settings", "--user", "ana"]])
    func aNegativeRadiusIsRefusedAsADistance(command: [String]) throws {
        let run = try scratch.encore(command + ["--radius", "-5km"])
        #expect(run.status == 2, "a usage error: \(run.stderr)")
        #expect(run.stderr.contains("--radius must be a positive distance"), "\(run.stderr)")
        #expect(run.stderr.contains("\"-5km\""))
    }

    @Test func ingestExitsOneWhenAPageFailsButLandsTheRest() throws {
        let bad = TestSupport.fixture("bad/songkick-json/latitude-120.json")
        let run = try encore("ingest", bad, TestSupport.fixture("songkick-json"))
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(bad): at resultsPage.results.event[1].venue.lat"))
        #expect(run.stdout.contains("2 pages (1 applied, 0 unchanged, 1 failed)"))
        let stats = try #require(try encore("stats", "--json").json() as? [String: Any])
        #expect(stats["events"] as? Int == 4)
    }

    /// A value Encore cannot use costs the value, not the page: a warning names the file and
    /// position on stderr, the page lands and the run exits 0.
    @Test func anUnusableValueIsAWarningAndThePageLands() throws {
        let page = try TestSupport.temporaryDirectory().appendingPathComponent("tokyo.json")
        try Data(
            #"{"event":{"id":"9","title":"Yoyogi","startDate":"Tue, 03 Mar 2027 19:00:00","artists":{"artist":"Night Ferry","headliner":"Night Ferry"},"venue":{"id":"4","name":"Park Stage","location":{"city":"Tokyo","country":"Japan","timezone":"JST","geo:point":{"geo:lat":"35.67","geo:long":"139.70"}}}}}"#.utf8
        ).write(to: page)
        let run = try encore("ingest", page.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "warning: \(page.path): at event.venue.location.timezone: \"JST\" is not an IANA time zone of a place; the venue's zone comes from its place\n")
        #expect(run.stdout.contains("events: 1 new"))
        let json = try encore("ingest", "--log-format", "json", page.path)
        #expect(json.stderr.isEmpty, "an unchanged page is not read again")
    }

    @Test func logFormatJSONWritesOneObjectPerLine() throws {
        let bad = TestSupport.fixture("bad/songkick-json/latitude-120.json")
        let run = try encore("ingest", "--log-format", "json", bad, TestSupport.fixture("songkick-json"))
        #expect(run.status == 1)
        let error = try #require(try JSONSerialization.jsonObject(with: Data(run.stderr.utf8)) as? [String: Any])
        #expect(error["level"] as? String == "error")
        #expect(error["position"] as? String == "resultsPage.results.event[1].venue.lat")
        let summary = try #require(try run.json() as? [String: Any])
        #expect(summary["pages_failed"] as? Int == 1 && summary["events_new"] as? Int == 4)
        // Not a terminal: no progress lines, only the summary.
        #expect(run.stdout.split(separator: "\n").count == 1)
    }

    @Test func aBuildIntoADirectoryAnotherBuildIsWritingExitsThree() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let out = directory.appendingPathComponent("feeds").path
        #expect(try encore("build", "--out", out).status == 0)
        let held = open(directory.appendingPathComponent(".feeds.state/lock").path, O_RDWR)
        defer { close(held) }
        #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
        let run = try encore("build", "--out", out)
        #expect(run.status == 3)
        #expect(run.stderr.contains("another build is writing"))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try encore("ingest").status == 2)
        #expect(try encore("ingest", "--format", "nonsense", "x.json").status == 2)
        #expect(try encore("event", "abc").status == 2)
        #expect(try encore("no-such-command").status == 2)
        let run = try encore("ingest", "--format", "nonsense", "x.json")
        #expect(run.stderr.contains("songkick-json"))
    }

    @Test func dbIsAcceptedBeforeOrAfterTheSubcommandAndFromTheEnvironment() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let after = try CLIRun.run(["stats", "--json", "--db", db])
        let env = try CLIRun.run(["stats", "--json"], environment: ["ENCORE_DB": db])
        #expect(after.stdout == env.stdout)
        #expect((try after.json() as? [String: Any])?["events"] as? Int == 4)
    }

    @Test func statsJSONHasTheContractKeys() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let stats = try #require(try encore("stats", "--json").json() as? [String: Any])
        for key in ["events", "artists", "venues", "metro_areas"] { #expect(stats[key] is Int, "\(key)") }
        #expect(stats["artists"] as? Int == 3)
        #expect(stats["metro_areas"] as? Int == 1)
    }

    @Test func eventJSONHasTheContractShape() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let page = try #require(try encore("artist", "velvet harbour", "--json").json() as? [String: Any])
        let events = try #require(page["events"] as? [[String: Any]])
        let id = try #require(events.first?["id"] as? Int)
        let run = try encore("event", String(id), "--json")
        #expect(run.status == 0)
        let event = try #require(try run.json() as? [String: Any])
        #expect(event["title"] as? String == "Velvet Harbour with Søren Lys at Roundhouse (March 14, 2027)")
        #expect(event["status"] as? String == "scheduled")
        let start = try #require(event["start"] as? [String: Any])
        #expect(start["local_date"] as? String == "2027-03-14")
        #expect(start["local_time"] as? String == "19:30:00")
        #expect(start["utc"] as? String == "2027-03-14T19:30:00Z")
        #expect(start.keys.contains("timezone"))
        let venue = try #require(event["venue"] as? [String: Any])
        #expect(venue["name"] as? String == "Roundhouse")
        #expect(venue["city"] as? String == "London")
        #expect(venue["country"] as? String == "UK")
        #expect(venue["lat"] as? Double == 51.5432)
        #expect((event["metro_area"] as? [String: Any])?["name"] as? String == "London")
        let lineup = try #require(event["lineup"] as? [[String: Any]])
        #expect(lineup.map { $0["name"] as? String } == ["Velvet Harbour", "Søren Lys"])
        #expect(lineup.map { $0["billing"] as? String } == ["headline", "support"])
        #expect(lineup.allSatisfy { $0["artist_id"] is Int })
        let sources = try #require(event["sources"] as? [[String: Any]])
        #expect(sources.first?["source"] as? String == "songkick")
        #expect(sources.first?["id"] as? String == "1001")
    }

    /// Ticket links, prices and on-sale dates a source gives: in `encore event`, in its
    /// JSON and on the concert's feed page.
    @Test func anEventShowsItsTickets() throws {
        _ = try encore("ingest", TestSupport.fixture("ticketmaster"))
        let page = try #require(try encore("artist", "Night Ferry", "--json").json() as? [String: Any])
        let id = try #require((page["events"] as? [[String: Any]])?.first?["id"] as? Int)
        let event = try #require(try encore("event", String(id), "--json").json() as? [String: Any])
        let offers = try #require(event["offers"] as? [[String: Any]])
        #expect(offers.count == 1)
        #expect(offers.first?["source"] as? String == "ticketmaster")
        #expect(offers.first?["url"] as? String == "https://www.ticketmaster.com/night-ferry-boston-03-12-2027/event/01005E8B")
        #expect(offers.first?["price_min"] as? Double == 25)
        #expect(offers.first?["price_max"] as? Double == 45.5)
        #expect(offers.first?["currency"] as? String == "USD")
        #expect(offers.first?["status"] as? String == "onsale")
        #expect(offers.first?["on_sale"] as? String == "2026-12-01T15:00:00Z")
        #expect(try encore("event", String(id)).stdout.contains("ticketmaster  25.00-45.50 USD  onsale  sales open 2026-12-01T15:00:00Z"))

        let out = directory.appendingPathComponent("feeds").path
        #expect(try encore("build", "--out", out).status == 0)
        let feed = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/events/\(id).json")))
        #expect(((feed as? [String: Any])?["offers"] as? NSArray) == (offers as NSArray))
        // An event no source gives tickets for (Songkick gives none) says so with an empty list.
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let songkick = try #require(try encore("artist", "Velvet Harbour", "--json").json() as? [String: Any])
        let none = try #require((songkick["events"] as? [[String: Any]])?.first?["id"] as? Int)
        #expect(((try encore("event", String(none), "--json").json() as? [String: Any])?["offers"] as? [Any])?.isEmpty == true)
    }

    /// An iCalendar `DESCRIPTION`'s first line is the event's note: in `encore event`, its
    /// JSON, and the concert's feed page and web page.
    @Test func anEventShowsTheNoteItsFeedGives() throws {
        _ = try encore("ingest", TestSupport.fixture("ical"))
        let page = try #require(try encore("artist", "Les Orages Dorés", "--json").json() as? [String: Any])
        let id = try #require((page["events"] as? [[String: Any]])?.first?["id"] as? Int)
        let event = try #require(try encore("event", String(id), "--json").json() as? [String: Any])
        #expect(event["note"] as? String == "Doors 19:00, first act 20:00.")
        let lines = try encore("event", String(id)).stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("Note ") && $0.hasSuffix(" Doors 19:00, first act 20:00.") }, "\(lines)")

        let out = directory.appendingPathComponent("feeds").path
        #expect(try encore("build", "--out", out).status == 0)
        let feed = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/events/\(id).json")))
        #expect((feed as? [String: Any])?["note"] as? String == "Doors 19:00, first act 20:00.")
        let html = try String(contentsOfFile: "\(out)/events/\(id).html", encoding: .utf8)
        #expect(html.contains("<dt>Note<dd>Doors 19:00, first act 20:00.</dl>"))
        // An event without one says so with null.
        let other = try #require(try encore("artist", "Canyon Foxes", "--json").json() as? [String: Any])
        let otherID = try #require((other["events"] as? [[String: Any]])?.first?["id"] as? Int)
        let withoutNote = try #require(try encore("event", String(otherID), "--json").json() as? [String: Any])
        #expect(withoutNote.keys.contains("note") && withoutNote["note"] is NSNull)
        #expect(try !encore("event", String(otherID)).stdout.contains("Note"))
    }

    @Test func artistSuggestsNearMissesAndExitsOne() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let run = try encore("artist", "Velvet Harbor")
        #expect(run.status == 1)
        #expect(run.stderr.contains("Did you mean: \"Velvet Harbour\""))
    }

    @Test func artistListsUpcomingEventsChronologically() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let page = try #require(try encore("artist", "VELVET HARBOUR", "--json").json() as? [String: Any])
        let dates = (page["events"] as? [[String: Any]])?.compactMap { ($0["start"] as? [String: Any])?["local_date"] as? String }
        #expect(dates == ["2027-03-14", "2027-05-01"])
        let past = try #require(try encore("artist", "Velvet Harbour", "--past", "--json").json() as? [String: Any])
        #expect((past["events"] as? [Any])?.isEmpty == true)
    }

    /// `search` prints ids (`#12`), as do the lists of namesakes: they open a page too.
    @Test func artistAndVenuePagesOpenByTheIDsSearchPrints() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        for (kind, name, key) in [("artist", "velvet harbour", "artist"), ("venue", "roundhouse", "venue")] {
            let hits = try #require(try encore("search", name, "--json").json() as? [[String: Any]])
            let id = try #require(hits.first { $0["kind"] as? String == kind }?["id"] as? Int)
            let page = try #require(try encore(kind, "#\(id)", "--json").json() as? [String: Any])
            let named = try #require(try encore(kind, name, "--json").json() as? [String: Any])
            #expect((page[key] as? [String: Any])?["id"] as? Int == id)
            #expect((page[key] as? [String: Any])?["name"] as? String == (named[key] as? [String: Any])?["name"] as? String)
            let missing = try encore(kind, "#999999")
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("No \(kind) #999999"))
        }
    }

    @Test func searchIsPrefixAwareAndAccentInsensitive() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let hits = try #require(try encore("search", "soren", "--json").json() as? [[String: Any]])
        #expect(hits.first?["name"] as? String == "Søren Lys")
        let prefix = try #require(try encore("search", "lexing", "--json").json() as? [[String: Any]])
        #expect(prefix.first?["kind"] as? String == "venue")
        let none = try encore("search", "zzzz", "--json")
        #expect(none.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func unknownEventIdExitsOneWithAHint() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let run = try encore("event", "999999")
        #expect(run.status == 1)
        #expect(run.stderr.contains("No event #999999"))
    }

    @Test func refreshWithoutConfigurationIngestsTheBundledSample() throws {
        let out = directory.appendingPathComponent("feeds").path
        let run = try CLIRun.run(["refresh", "--db", db, "--out", out], in: TestSupport.packageRoot)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("events: 1000 new"))
        let stats = try #require(try encore("stats", "--json").json() as? [String: Any])
        #expect(stats["events"] as? Int == 1000)
        #expect(run.stdout.contains("Built feeds in \(out)"))
        #expect(FileManager.default.fileExists(atPath: out + "/index.json"))
        let again = try CLIRun.run(["refresh", "--db", db, "--out", out], in: TestSupport.packageRoot)
        #expect(again.stdout.contains("86 pages (0 applied, 86 unchanged, 0 failed)"))
        #expect(again.stdout.contains(" 0 removed"))
    }

    @Test func nearAndCityAnswerOnTheSample() throws {
        _ = try CLIRun.run(["refresh", "--db", db, "--no-build"], in: TestSupport.packageRoot)
        let near = try #require(try encore("near", "Bilbao", "--radius", "30km", "--json").json() as? [[String: Any]])
        #expect(!near.isEmpty)
        #expect(near.allSatisfy { ($0["distance_km"] as? Double ?? 99) <= 30 })
        let dates = near.compactMap { ($0["start"] as? [String: Any])?["local_date"] as? String }
        #expect(dates == dates.sorted())
        let negative = try encore("near", "--at", "-33.87,151.21", "--json")
        #expect(negative.status == 0, "\(negative.stderr)")
        let city = try encore("city", "Madrid", "--from", "2026-12-01", "--to", "2027-03-01", "--json")
        #expect(city.status == 0)
        #expect(city.stderr.contains("ambiguous"))
        let events = try #require(try city.json() as? [[String: Any]])
        #expect(events.allSatisfy { ($0["metro_area"] as? [String: Any])?["name"] as? String == "Madrid" })

        // Pages: --limit/--offset slice the same chronological answer; tables say what is next.
        #expect(events.count > 3)
        let ids = events.compactMap { $0["id"] as? Int }
        let second = try encore("city", "Madrid", "--from", "2026-12-01", "--to", "2027-03-01", "--limit", "2", "--offset", "2", "--json")
        #expect(try #require(try second.json() as? [[String: Any]]).compactMap { $0["id"] as? Int } == Array(ids[2..<4]))
        let table = try encore("city", "Madrid", "--from", "2026-12-01", "--to", "2027-03-01", "--limit", "2")
        #expect(table.stdout.contains("\(ids.count) events (showing 1–2; next page: --offset 2)"), "\(table.stdout)")
        let nearPage = try encore("near", "Bilbao", "--radius", "30km", "--limit", "1", "--json")
        #expect(try #require(try nearPage.json() as? [[String: Any]]).compactMap { $0["id"] as? Int } == near.prefix(1).compactMap { $0["id"] as? Int })
        #expect(try encore("near", "Bilbao", "--limit", "0").status == 2)
    }

    /// A trip that starts on a festival's second day finds it on that day, marked so.
    @Test func cityListsAFestivalUnderwayOnTheTripsFirstDay() throws {
        _ = try encore("ingest", TestSupport.fixture("sample-multi/songkick-json"))
        let trip = try encore("city", "Madrid, ES", "--from", "2027-06-01", "--to", "2027-06-02")
        #expect(trip.status == 0, "\(trip.stderr)")
        let lines = trip.stdout.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Tuesday 1 June 2027"), "\(trip.stdout)")
        #expect(lines[heading + 1].contains("Madrid Sound Festival 2027 (day 2 of 2)"))
        // From its first day, it is listed there, unmarked.
        let whole = try encore("city", "Madrid, ES", "--from", "2027-05-31", "--to", "2027-06-02").stdout
        #expect(whole.contains("Monday 31 May 2027") && whole.contains("Madrid Sound Festival 2027  "))
        #expect(!whole.contains("day 2 of 2"))
    }

    @Test func invalidGeoInputExitsTwo() throws {
        for arguments in [
            ["near", "--at", "91,0"], ["near", "Bilbao", "--radius", "-5km"], ["near", "Bilbao", "--radius", "0"],
            ["near", "Bilbao", "--from", "2027-02-01", "--to", "2027-01-01"], ["near", "Bilbao", "--from", "2027-02-30"],
            ["near", "Atlantisville"], ["city", "Bilbaoo"],
        ] {
            let run = try CLIRun.run(["--db", db] + arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(!run.stderr.isEmpty)
        }
    }

    @Test func configCheckNamesTheLineAndExitsThree() throws {
        let file = directory.appendingPathComponent("encore.toml")
        try Data("[[source]]\nname = \"sk\"\nformat = \"songkik-json\"\nbase_url = \"https://x.test\"\n".utf8).write(to: file)
        let bad = try CLIRun.run(["config", "check", "--config", file.path])
        #expect(bad.status == 3)
        #expect(bad.stderr.contains("encore.toml:3: unknown format \"songkik-json\""))
        try Data("[[source]]\nname = \"sk\"\nformat = \"songkick-json\"\nbase_url = \"https://x.test\"\n".utf8).write(to: file)
        let good = try CLIRun.run(["config", "check", "--config", file.path])
        #expect(good.status == 0)
        #expect(good.stdout.contains("1 source OK"))
    }

    @Test func aSecondRefreshExitsPromptlyWhileTheFirstHoldsTheLock() throws {
        let lockPath = db + ".lock"
        let descriptor = open(lockPath, O_CREAT | O_RDWR, 0o644)
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        defer { close(descriptor) }
        let run = try CLIRun.run(["refresh", "--db", db, "--no-build"], in: TestSupport.packageRoot)
        #expect(run.status == 3)
        #expect(run.stderr.contains("another refresh is already running"))
        flock(descriptor, LOCK_UN)
        let after = try CLIRun.run(["refresh", "--db", db, "--no-build"], in: TestSupport.packageRoot)
        #expect(after.status == 0, "\(after.stderr)")
    }

    @Test func everyCommandHasHelp() throws {
        for command in [
            "refresh", "ingest", "near", "city", "venue", "metros", "stats", "artist", "event", "explain", "search", "sources",
            "track", "untrack", "tracked", "settings", "going", "not-going", "plans", "feed", "build", "config", "runs",
        ] {
            let run = try CLIRun.run(["help", command])
            #expect(run.status == 0, "\(command)")
            #expect(run.stdout.contains("USAGE"), "\(command)")
        }
    }
}
