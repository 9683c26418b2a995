import Foundation
import Listings
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a newcomer sees: the exit status contract, a query without a catalog, messages
/// that say what to type next, `--version`.
@Suite(.serialized)
struct CLIContractTests {
    let scratch: CLIScratch

    init() throws {
        scratch = try CLIScratch()
    }

    func encore(_ arguments: String...) throws -> CLIRun {
        try scratch.encore(arguments)
    }

    @Test func aQueryOnAMissingCatalogFailsAndCreatesNothing() throws {
        let nested = scratch.directory.appendingPathComponent("not/yet/encore.sqlite").path
        for arguments in [["near", "Bilbao"], ["stats"], ["search", "sala"], ["plans"], ["build", "--out", scratch.directory.path + "/f"]] {
            let run = try CLIRun.run(["--db", nested] + arguments, in: scratch.directory)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("error: no catalog at \(nested); run `encore refresh` or `encore ingest` first (or pass --db)"))
            #expect(run.stdout.isEmpty)
        }
        // Nor in the current directory, the default.
        let bare = try CLIRun.run(["near", "Bilbao"], in: scratch.directory)
        #expect(bare.status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).isEmpty)
        // The commands that write one make it.
        #expect(try encore("settings", "--radius", "20km").status == 0)
        #expect(FileManager.default.fileExists(atPath: scratch.db))
    }

    @Test func sourcesListsEachSourceOnceWithItsFormatsEvenWithoutACatalog() throws {
        let before = try encore("sources", "--json")
        #expect(before.status == 0, "\(before.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.db))
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let entries = try #require(try encore("sources", "--json").json() as? [[String: Any]])
        let sources = entries.compactMap { $0["source"] as? String }
        #expect(Set(sources).count == sources.count)
        let songkick = try #require(entries.first { $0["source"] as? String == "songkick" })
        #expect(songkick["formats"] as? [String] == ["songkick-json", "songkick-xml"])
        let stats = try #require(try encore("stats", "--json").json() as? [String: Any])
        #expect(songkick["records"] as? Int == (stats["sources"] as? [String: Int])?["songkick"])
    }

    /// One contract: a query that finds nothing exits 1 (its empty answer still printed),
    /// a name not in the catalog exits 1 whichever command is given it.
    @Test func everyQueryThatFindsNothingExitsOne() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let empty = try encore("search", "zzzzqq", "--json")
        #expect(empty.status == 1)
        #expect(empty.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        #expect(try encore("search", "zzzzqq").status == 1)
        let near = try encore("near", "Bilbao")
        #expect(near.status == 1)
        #expect(near.stdout.contains(": 0 events"))
        #expect(try encore("near", "Bilbao", "--json").status == 1)
        #expect(try encore("city", "Bilbao").status == 1)
        #expect(try encore("metros", "--near", "Bilbao").status == 1)
        #expect(try encore("artist", "Nobody").status == 1)
        let track = try encore("track", "artist", "Nobody")
        #expect(track.status == 1)
        #expect(track.stderr.contains("error: no artist named \"Nobody\" in the catalog"))
        #expect(try encore("track", "venue", "Nowhere Hall").status == 1)
        // Something found: 0.
        #expect(try encore("near", "London", "--to", "+365d").status == 0)
        #expect(try encore("search", "soren").status == 0)
        // Lists of what a fan saved are answers even when empty.
        #expect(try encore("plans").status == 0)
        #expect(try encore("tracked").status == 0)
    }

    @Test func aPastWindowWithNothingSaysTheCatalogHoldsNoPastEventsThere() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let past = try encore("near", "London", "--from", "2025-01-01", "--to", "2025-02-01")
        #expect(past.status == 1)
        #expect(past.stdout.contains("The catalog holds no past events there"))
        let future = try encore("near", "Bilbao")
        #expect(!future.stdout.contains("past events"))
    }

    @Test func anUnsetAPIKeyVariableIsAConfigurationErrorNamingIt() throws {
        let file = scratch.directory.appendingPathComponent("encore.toml")
        try Data("""
            [[source]]
            name = "sk"
            format = "songkick-json"
            base_url = "http://127.0.0.1:9"
            api_key_env = "ENCORE_TEST_UNSET_KEY"
            metro_areas = ["24426"]

            """.utf8).write(to: file)
        let check = try CLIRun.run(["config", "check", "--config", file.path])
        #expect(check.status == 3)
        #expect(check.stderr.contains("encore.toml:1: source \"sk\": its API key variable ENCORE_TEST_UNSET_KEY is not set"))
        #expect(!check.stdout.contains("OK"))
        let refresh = try encore("refresh", "--config", file.path, "--no-build")
        #expect(refresh.status == 3)
        #expect(refresh.stderr.contains("ENCORE_TEST_UNSET_KEY is not set"))
        // Set, the file checks out.
        let set = try CLIRun.run(["config", "check", "--config", file.path], environment: ["ENCORE_TEST_UNSET_KEY": "k"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("1 source OK"))
    }

    @Test func versionPrintsTheReleaseConstant() throws {
        let run = try CLIRun.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == EncoreVersion.current + "\n")
        #expect(EncoreVersion.product == "Encore/" + EncoreVersion.current)
    }

    @Test func helpSaysWhatTheCommandsDo() throws {
        let feed = try CLIRun.run(["feed", "--help"]).stdout
        #expect(feed.contains("from + \(180) days"))
        let near = try CLIRun.run(["near", "--help"]).stdout
        #expect(near.contains("from + 90 days"))
        let top = try CLIRun.run(["--help"]).stdout
        #expect(top.contains("another build is writing the feeds"))
    }

    @Test func everyErrorMessageSaysErrorTheSameWay() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        for arguments in [["near", "Bilbao", "--limit", "-1"], ["near"], ["search", "x", "--limit", "0"], ["event", "abc"]] {
            let run = try CLIRun.run(["--db", scratch.db] + arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.hasPrefix("error: "), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("Error:"))
        }
        let limit = try encore("near", "Bilbao", "--limit", "-1")
        #expect(limit.stderr.contains("--limit must be at least 1; got -1."))
    }

    @Test func aConfigurationDateSaysEveryFormItTakes() throws {
        let file = scratch.directory.appendingPathComponent("encore.toml")
        try Data("[[source]]\nname = \"sk\"\nformat = \"songkick-json\"\nbase_url = \"https://x.test\"\nfrom = \"someday\"\n".utf8)
            .write(to: file)
        let run = try CLIRun.run(["config", "check", "--config", file.path])
        #expect(run.status == 3)
        #expect(run.stderr.contains("from must be YYYY-MM-DD, today, tomorrow, +Nd (like +30d) or a weekday (like fri)"))
        // And what it says works, works.
        for value in ["tomorrow", "fri"] {
            try Data("[[source]]\nname = \"sk\"\nformat = \"songkick-json\"\nbase_url = \"https://x.test\"\nfrom = \"\(value)\"\n".utf8)
                .write(to: file)
            #expect(try CLIRun.run(["config", "check", "--config", file.path]).status == 0, "\(value)")
        }
    }

    @Test func configCheckTakesTheKindsASourceKeepsAndNamesAnUnknownOne() throws {
        let file = scratch.directory.appendingPathComponent("encore.toml")
        let source = "[[source]]\nname = \"stadium\"\nformat = \"ical\"\nurls = [\"https://stadium.example/events.ics\"]\n"
            + "contact = \"ops@example.org\"\n"
        try Data((source + "keep = [\"sports\", \"meet-and-greets\"]\n").utf8).write(to: file)
        let good = try CLIRun.run(["config", "check", "--config", file.path])
        #expect(good.status == 0, "\(good.stderr)")
        try Data((source + "keep = [\"football\"]\n").utf8).write(to: file)
        let bad = try CLIRun.run(["config", "check", "--config", file.path])
        #expect(bad.status == 3)
        #expect(bad.stderr.contains("encore.toml:6: keep names kinds of non-concerts; \"football\" is none. Kinds: sports,"), "\(bad.stderr)")
    }

    @Test func hintsForAnotherProfileNameIt() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let feed = try encore("feed", "--user", "bob")
        #expect(feed.status == 2)
        #expect(feed.stderr.contains("`encore settings --home PLACE --user bob`"))
        #expect(try encore("plans", "--user", "bob").stdout.contains("`encore going EVENT_ID --user bob`"))
        #expect(try encore("tracked", "--user", "bob").stdout.contains("`encore track artist NAME --user bob`"))
        // The default profile needs no --user.
        #expect(try encore("plans").stdout.contains("`encore going EVENT_ID`."))
    }

    @Test func runsSaysWhichRefreshesAreNotRecorded() throws {
        _ = try encore("ingest", TestSupport.fixture("songkick-json"))
        let run = try encore("runs")
        #expect(run.status == 0)
        #expect(run.stdout.contains("refreshes from the sample listings and `encore ingest` are not runs"))
    }

    @Test func theRefreshLockFileIsIgnoredByGit() throws {
        let ignore = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent(".gitignore"), encoding: .utf8)
        let patterns = ignore.split(separator: "\n").map(String.init)
        #expect(patterns.contains { fnmatch($0, "encore.sqlite.lock", 0) == 0 })
    }
}
