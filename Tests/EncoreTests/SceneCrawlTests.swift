import Catalog
import Foundation
import Ingest
import Listings
import SampleWorld
import Testing

/// A city's scene crawled for real: many venue sites, each a server on a loopback address
/// of its own (``VenueScene``), crawled at once, each at its own pace, with sitemaps.
/// Each test has a subnet of its own, so tests running side by side never share a host.
@Suite(.serialized)
struct SceneCrawlTests {
    static func configuration(
        _ scene: VenueScene, rate: Double = 50, extra: String = "", urls: [URL]? = nil
    ) -> String {
        let list = (urls ?? scene.calendarURLs).map { "\"\($0.absoluteString)\"" }.joined(separator: ", ")
        return """
            [[source]]
            name = "scene"
            format = "jsonld"
            urls = [\(list)]
            follow = "http://127.0.*/events/*"
            requests_per_second = \(rate)
            contact = "ops@example.org"
            max_pages = 1000
            \(extra)
            """
    }

    static func crawler(
        _ text: String, catalog: CatalogDatabase, hostsAtOnce: Int? = nil, runID: Int64? = nil, resuming: Int64? = nil,
        fetcher: HTTPFetcher = HTTPFetcher(jitter: { 0 })
    ) throws -> SourceCrawler {
        let source = try SourcesConfiguration(parsing: text).sources[0]
        var crawler = SourceCrawler(
            source: source, apiKey: nil, fetcher: fetcher, ingestion: FileIngestion(), state: catalog,
            today: TestSupport.today, runID: runID, resuming: resuming)
        if let hostsAtOnce { crawler.hostsAtOnce = hostsAtOnce }
        return crawler
    }

    static func options(subnet: Int, _ change: (inout VenueScene.Options) -> Void = { _ in }) -> VenueScene.Options {
        var options = VenueScene.Options()
        options.subnet = subnet
        change(&options)
        return options
    }

    @Test func aSlowHostHoldsUpOnlyItselfAndNoHostIsAskedFasterThanItsPace() async throws {
        // Venue 0 takes 0.3 s an answer; the others answer at once.
        let scene = try VenueScene(venues: 8, options: Self.options(subnet: 10) {
            $0.slowVenues = [0]
            $0.slowDelay = 0.3
        })
        defer { scene.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let summary = await try Self.crawler(Self.configuration(scene, rate: 10), catalog: catalog).crawl(into: catalog)
        #expect(summary.pagesFailed == 0 && summary.pagesFetched == 8 * 5, "\(summary.errors)")
        #expect(summary.requests == 8 * 6, "robots.txt and five pages a host")
        #expect(summary.hosts.count == 8 && summary.hosts.allSatisfy { $0.requests == 6 && $0.pagesApplied == 5 })

        // While the slow host was answering its pages, the others were asked too.
        let slow = scene.servers[0].requests.map(\.received)
        let others = scene.servers.dropFirst().flatMap { $0.requests.map(\.received) }
        #expect(others.contains { $0 > slow.first! && $0 < slow.last! }, "the other hosts did not wait for the slow one")
        // The servers' own logs: 10 a second means 0.1 s apart; half that leaves room for a
        // loaded machine delivering one request late and the next on time.
        let gap = try #require(scene.shortestGap)
        #expect(gap >= .milliseconds(50), "a host was asked twice within \(gap)")
    }

    @Test func theSameCatalogAsCrawlingTheHostsOneAfterAnother() async throws {
        let scene = try VenueScene(venues: 10, options: Self.options(subnet: 20))
        defer { scene.stop() }
        let text = Self.configuration(scene, rate: 200)
        let (sequential, sequentialPath) = try TestSupport.makeCatalog()
        _ = await try Self.crawler(text, catalog: sequential, hostsAtOnce: 1).crawl(into: sequential)
        let (parallel, parallelPath) = try TestSupport.makeCatalog()
        let summary = await try Self.crawler(text, catalog: parallel).crawl(into: parallel)
        #expect(summary.pagesFailed == 0)
        let one = try IngestOrderTests.content(sequentialPath)
        let other = try IngestOrderTests.content(parallelPath)
        #expect(one["event"]?.count == 10 * 4)
        #expect(IngestOrderTests.differences(one, other).isEmpty, "\(IngestOrderTests.differences(one, other))")
    }

    @Test func anUnchangedNightWithSitemapLastmodAsksOnlyRobotsAndTheSitemap() async throws {
        let scene = try VenueScene(venues: 4, options: Self.options(subnet: 30))
        defer { scene.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let text = Self.configuration(scene, extra: "sitemaps = true")
        let first = await try Self.crawler(text, catalog: catalog, runID: 1).crawl(into: catalog)
        #expect(first.pagesFetched == 4 * 5 && first.pagesFailed == 0, "\(first.errors)")
        #expect(first.hosts.allSatisfy { $0.sitemap == "1 file, 5 URLs" }, "\(first.hosts)")

        let before = scene.servers.map(\.requests.count)
        let second = await try Self.crawler(text, catalog: catalog, runID: 2).crawl(into: catalog)
        let asked = zip(scene.servers, before).map { server, count in server.requests.dropFirst(count).map(\.path) }
        #expect(asked.allSatisfy { $0 == ["/robots.txt", "/sitemap.xml"] }, "\(asked)")
        #expect(second.pagesUnchanged == 4 * 5 && second.pagesFailed == 0)
        #expect(second.hosts.allSatisfy { $0.pagesSkipped == 5 && $0.requests == 2 })
        #expect(second.eventsUnlisted == 0, "pages spared still count toward the listing")
    }

    @Test func withoutLastmodEveryPageIsAskedConditionally() async throws {
        let scene = try VenueScene(venues: 2, options: Self.options(subnet: 40) { $0.sitemapLastModified = false })
        defer { scene.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let text = Self.configuration(scene, extra: "sitemaps = true")
        _ = await try Self.crawler(text, catalog: catalog).crawl(into: catalog)
        let second = await try Self.crawler(text, catalog: catalog).crawl(into: catalog)
        #expect(second.hosts.allSatisfy { $0.notModified == 5 && $0.requests == 7 }, "\(second.hosts)")
    }

    @Test func aHostThatIsDownFailsAloneAndItsReportSaysWhy() async throws {
        let scene = try VenueScene(venues: 3, options: Self.options(subnet: 50))
        defer { scene.stop() }
        // Nothing listens there.
        let down = URL(string: "http://127.0.50.200:9/calendar")!
        let (catalog, _) = try TestSupport.makeCatalog()
        var policy = FetchPolicy()
        policy.baseDelay = 0.01
        let text = Self.configuration(scene, urls: [down] + scene.calendarURLs)
        let summary = await try Self.crawler(
            text, catalog: catalog, fetcher: HTTPFetcher(policy: policy, jitter: { 0 })
        ).crawl(into: catalog)
        #expect(summary.pagesFetched == 3 * 5)
        #expect(summary.hosts.map(\.host).first == "http://127.0.50.200:9", "in the order the configuration names them")
        let report = try #require(summary.hosts.first)
        #expect(report.pagesFailed == 1 && report.robots?.hasSuffix("nothing fetched") == true, "\(report)")
        #expect(report.failures.first?.contains("robots.txt unavailable") == true)
        #expect(summary.eventsUnlisted == 0 && summary.pagesFailed == 1)
    }

    @Test func crawlDelayInRobotsTxtSlowsThatHostDown() async throws {
        let scene = try VenueScene(venues: 1, options: Self.options(subnet: 60) {
            $0.crawlDelay = 2
            $0.eventsPerVenue = 1
        })
        defer { scene.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let waits = SleepRecorder()
        let fetcher = HTTPFetcher(sleep: { waits.record($0) }, jitter: { 0 })
        let summary = await try Self.crawler(Self.configuration(scene, rate: 100), catalog: catalog, fetcher: fetcher)
            .crawl(into: catalog)
        #expect(summary.hosts.first?.robots == "200 (crawl-delay 2 s)")
        // The requests after robots.txt each waited for the crawl delay, not 0.01 s.
        #expect(waits.recorded.filter { $0 > 1.5 }.count == 2, "\(waits.recorded)")
    }

    @Test func aResumedRunAsksNoPageTheKilledRunFinished() async throws {
        let scene = try VenueScene(venues: 3, options: Self.options(subnet: 70))
        defer { scene.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let text = Self.configuration(scene)
        _ = await try Self.crawler(text, catalog: catalog, runID: 7).crawl(into: catalog)
        let resumed = await try Self.crawler(text, catalog: catalog, runID: 8, resuming: 7).crawl(into: catalog)
        // A new run reads robots.txt again; the pages were finished.
        #expect(scene.servers.allSatisfy { $0.requests.dropFirst(6).map(\.path) == ["/robots.txt"] })
        #expect(resumed.pagesUnchanged == 3 * 5 && resumed.hosts.allSatisfy { $0.pagesSkipped == 5 })
    }

    @Test func maxConnectionsCapsTheRequestsInFlightAcrossHosts() async throws {
        let scene = try VenueScene(venues: 6, options: Self.options(subnet: 80) {
            $0.slowVenues = Set(0..<6)
            $0.slowDelay = 0.05
        })
        defer { scene.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let transport = InFlightCounter()
        var policy = FetchPolicy()
        policy.maxConnections = 2
        let summary = await try Self.crawler(
            Self.configuration(scene, rate: 100), catalog: catalog,
            fetcher: HTTPFetcher(transport: transport, policy: policy, jitter: { 0 })
        ).crawl(into: catalog)
        #expect(summary.pagesFetched == 6 * 5)
        #expect(transport.most == 2, "six hosts, two connections")
    }

    @Test func refreshReportsEachHostInTextAndJSON() throws {
        let scene = try VenueScene(venues: 3, options: Self.options(subnet: 90) { $0.crawlDelay = 0.1 })
        defer { scene.stop() }
        let folder = try TestSupport.temporaryDirectory()
        let down = "http://127.0.90.200:9/calendar"
        try ("# venues\n" + scene.calendarURLs.map(\.absoluteString).joined(separator: "\n") + "\n\(down)\n")
            .write(to: folder.appendingPathComponent("venues.txt"), atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("encore.toml").path
        try """
            max_connections = 4
            [[source]]
            name = "scene"
            format = "jsonld"
            urls_file = "venues.txt"
            follow = "http://*/events/*"
            sitemaps = true
            requests_per_second = 50
            contact = "ops@example.org"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("catalog.sqlite").path
        let refresh = try CLIRun.run(["--db", db, "refresh", "--config", config, "--no-build"])
        #expect(refresh.status == 1, "the host that is down failed: \(refresh.stderr)")
        #expect(refresh.stdout.contains("scene: 22 requests, 15 pages applied"), "\(refresh.stdout)")

        let text = try CLIRun.run(["--db", db, "runs", "--hosts"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Run #1 (failed), 4 hosts:"), "\(text.stdout)")
        #expect(text.stdout.contains("200 (crawl-delay 0.1 s)") && text.stdout.contains("1 file, 5 URLs"), "\(text.stdout)")
        #expect(text.stdout.contains("http://127.0.90.200:9 failed: "), "\(text.stdout)")

        let json = try CLIRun.run(["--db", db, "runs", "--hosts", "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let hosts = try #require(document?["hosts"] as? [[String: Any]])
        #expect(hosts.count == 4 && hosts.allSatisfy { $0["source"] as? String == "scene" })
        #expect(hosts.compactMap { $0["pages_applied"] as? Int } == [5, 5, 5, 0])
        #expect((hosts.last?["failures"] as? [String])?.first?.contains("robots.txt unavailable") == true)
    }
}

/// A venue site that publishes only sitemaps: an index (named by robots.txt and the
/// configuration both) leading to a gzipped sitemap and a broken one.
struct SitemapSiteTests {
    @Test func aSitemapIndexLeadsToGzippedSitemapsAndABrokenOneIsReportedWithItsLine() async throws {
        let broken = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("sitemaps/broken.xml")))
        let server = try LocalHTTPServer(address: "127.0.96.2") { request in
            let base = "http://" + (request.headers["host"] ?? "")
            func xml(_ text: String) -> LocalHTTPServer.Response { .init(status: 200, body: Data(text.utf8)) }
            switch request.path {
            case "/robots.txt": return xml("User-agent: *\nDisallow: /private/\nSitemap: \(base)/sitemap_index.xml\n")
            case "/sitemap_index.xml":
                return xml("""
                    <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                    <sitemap><loc>\(base)/events.xml.gz</loc></sitemap><sitemap><loc>\(base)/broken.xml</loc></sitemap>
                    <sitemap><loc>http://elsewhere.example/sitemap.xml</loc></sitemap>
                    </sitemapindex>
                    """)
            case "/events.xml.gz":
                let urlset = """
                    <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                    <url><loc>\(base)/events/1</loc></url><url><loc>\(base)/events/2</loc></url>
                    <url><loc>\(base)/private/3</loc></url><url><loc>\(base)/about</loc></url>
                    </urlset>
                    """
                return .init(status: 200, headers: ["Content-Type": "application/gzip"], body: VenueListTests.gzip(Data(urlset.utf8)))
            case "/broken.xml": return .init(status: 200, body: broken)
            default:
                guard let id = Int(request.path.dropFirst("/events/".count)) else { return .init(status: 404) }
                return xml("""
                    <html><head><script type="application/ld+json">
                    {"@type": "MusicEvent", "name": "Otis Marsh", "startDate": "2027-02-0\(id)T20:00:00+01:00",
                     "location": {"@type": "MusicVenue", "name": "Sala Sitemap", "address": "Bilbao, ES"}}
                    </script></head></html>
                    """)
            }
        }
        defer { server.stop() }
        let text = """
            [[source]]
            name = "sitemap-only"
            format = "jsonld"
            sitemap = "\(server.baseURL.absoluteString)/sitemap_index.xml"
            sitemaps = true
            follow = "\(server.baseURL.absoluteString)/*"
            requests_per_second = 100
            contact = "ops@example.org"
            """
        let (catalog, _) = try TestSupport.makeCatalog()
        let summary = await try SceneCrawlTests.crawler(text, catalog: catalog).crawl(into: catalog)
        #expect(summary.pagesFetched == 2, "\(summary.errors)")
        #expect(summary.disallowedByRobots == ["\(server.baseURL.absoluteString)/private/3"])
        let report = try #require(summary.hosts.first)
        #expect(report.sitemap?.hasPrefix("3 files, 4 URLs; sitemap ") == true, "the other host's sitemap is not read: \(report)")
        #expect(report.failures.first?.hasPrefix("sitemap \(server.baseURL.absoluteString)/broken.xml: at line 5, column 10") == true)
        #expect(summary.pagesFailed == 2, "the broken sitemap and /about, which answers 404")
        #expect(server.requests.filter { $0.path == "/sitemap_index.xml" }.count == 1, "named twice, read once")
        #expect(summary.eventsUnlisted == 0)
    }
}

/// A refresh killed in the middle of a scene's crawl, hosts crawled at once, resumes where
/// it stopped: the hosts it finished are asked for their robots.txt only.
@Suite(.serialized)
struct SceneResumeTests {
    @Test func aRefreshKilledMidCrawlResumesWithoutAskingFinishedPagesAgain() throws {
        var options = VenueScene.Options()
        options.subnet = 95
        options.slowVenues = [0]
        options.slowDelay = 1
        let scene = try VenueScene(venues: 6, options: options)
        defer { scene.stop() }
        let folder = try TestSupport.temporaryDirectory()
        let config = folder.appendingPathComponent("encore.toml").path
        try SceneCrawlTests.configuration(scene, rate: 100).write(toFile: config, atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("catalog.sqlite").path
        let arguments = ["--db", db, "refresh", "--config", config, "--no-build", "--today", "2026-11-22"]

        let process = Process()
        process.executableURL = CLIRun.binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed once the fast hosts are done and the slow one is part way.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline,
            scene.servers.dropFirst().contains(where: { $0.requests.count < 6 }) || scene.servers[0].requests.count < 3
        {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let before = scene.servers.map(\.requests.count)
        #expect(before.dropFirst().allSatisfy { $0 == 6 } && before[0] < 6, "\(before)")

        let resumed = try CLIRun.run(arguments)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("Resuming run #1"), "\(resumed.stdout)")
        let asked = zip(scene.servers, before).map { server, count in server.requests.dropFirst(count).map(\.path) }
        #expect(asked.dropFirst().allSatisfy { $0 == ["/robots.txt"] }, "\(asked)")
        #expect(!asked[0].isEmpty, "the slow host is crawled on")
        let stats = try CLIRun.run(["--db", db, "runs", "--hosts", "--json"])
        let hosts = (try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])?["hosts"] as? [[String: Any]]
        #expect(hosts?.dropFirst().allSatisfy { $0["pages_skipped"] as? Int == 5 } == true, "\(stats.stdout)")
    }
}

/// The real transport, counting the exchanges in flight at once.
final class InFlightCounter: HTTPTransport, @unchecked Sendable {
    private let transport = CurlTransport()
    private let lock = NSLock()
    private var now = 0
    private var peak = 0
    var most: Int { lock.withLock { peak } }

    func get(_ url: URL, headers: [String: String], timeout: Double, maxBodyBytes: Int) async throws -> HTTPResponse {
        lock.withLock {
            now += 1
            peak = max(peak, now)
        }
        defer { lock.withLock { now -= 1 } }
        return try await transport.get(url, headers: headers, timeout: timeout, maxBodyBytes: maxBodyBytes)
    }
}
