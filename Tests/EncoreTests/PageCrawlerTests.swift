import Catalog
import Foundation
import Ingest
import Listings
import SampleWorld
import Testing

/// Page sources (`urls`) crawled for real: a venue's web site on 127.0.0.1 with a calendar
/// page linking to event pages that carry JSON-LD, a path its robots.txt disallows, and
/// an iCalendar feed.
@Suite(.serialized)
struct PageCrawlerTests {
    /// The site: `/calendar` links to the event pages (and back, and to places not to go);
    /// `/events/private-3` is disallowed for Encore; `/feed.ics` is the venue's feed.
    final class Site: @unchecked Sendable {
        private let lock = NSLock()
        private var hiddenEvents: Set<Int> = []
        private var robotsStatus = 200
        private var hugePage = false
        private var movedTo: String?
        var robots = """
            # Everyone else stays out; Encore may read all but the private pages.
            User-agent: *
            Disallow: /

            User-agent: Encore
            Disallow: /events/private
            Allow: /events/private-open
            Sitemap: /sitemap.xml
            """

        /// Event pages the calendar no longer links to (and that answer 404).
        var hidden: Set<Int> {
            get { lock.withLock { hiddenEvents } }
            set { lock.withLock { hiddenEvents = newValue } }
        }

        /// Whether `/events/4` is a 50 MB page.
        var huge: Bool {
            get { lock.withLock { hugePage } }
            set { lock.withLock { hugePage = newValue } }
        }

        /// Where `/events/2` redirects, when it has moved.
        var eventTwoMovedTo: String? {
            get { lock.withLock { movedTo } }
            set { lock.withLock { movedTo = newValue } }
        }

        var robotsAnswer: Int {
            get { lock.withLock { robotsStatus } }
            set { lock.withLock { robotsStatus = newValue } }
        }

        static let acts = [1: "Mavi Vapur", 2: "Canyon Foxes", 3: "Secret Set", 4: "Tide Parades"]

        func calendar() -> String {
            let links = [1, 2, 4].filter { !hidden.contains($0) }.map { "<a href=\"/events/\($0)#tickets\">\(Self.acts[$0]!)</a>" }
            return """
                <!doctype html><html><head><title>What's on</title></head><body>
                \(links.joined(separator: "\n"))
                <a href='events/private-3'>Members only</a>
                <a href="/events/1">Again</a>
                <a href="http://elsewhere.example/events/9">Elsewhere</a>
                <a href="/about">About us</a>
                <!-- <a href="/events/99">withdrawn</a> -->
                </body></html>
                """
        }

        func eventPage(_ id: Int) -> String {
            """
            <!doctype html><html><head>
            <script type="application/ld+json">
            {"@context": "https://schema.org", "@type": "MusicEvent", "name": "\(Self.acts[id]!) at The Lantern Rooms",
             "url": "https://lanternrooms.example/events/\(id)", "startDate": "2026-12-0\(id)T20:00:00+00:00",
             "location": {"@type": "MusicVenue", "name": "The Lantern Rooms",
               "address": {"@type": "PostalAddress", "addressLocality": "London", "addressCountry": "GB"}},
             "performer": [{"@type": "MusicGroup", "name": "\(Self.acts[id]!)"}]}
            </script></head><body><a href="/calendar">Back to the calendar</a> <a href="/events/1">Also on</a></body></html>
            """
        }

        static let feed = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            X-WR-CALNAME:The Lantern Rooms\r
            X-WR-TIMEZONE:Europe/London\r
            BEGIN:VEVENT\r
            UID:feed-1@lanternrooms.example\r
            DTSTART;TZID=Europe/London:20261210T200000\r
            SUMMARY:Otis Marsh w/ Grace\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:feed-2@lanternrooms.example\r
            DTSTART;TZID=Europe/London:20261210T190000\r
            SUMMARY:Doors\r
            END:VEVENT\r
            END:VCALENDAR\r

            """

        func respond(_ request: LocalHTTPServer.Request) -> LocalHTTPServer.Response {
            var body: String?
            var type = "text/html"
            switch request.path {
            case "/robots.txt":
                guard robotsAnswer == 200 else { return .init(status: robotsAnswer) }
                body = robots
                type = "text/plain"
            case "/calendar": body = calendar()
            case "/events/2" where eventTwoMovedTo != nil:
                return .init(status: 301, headers: ["Location": eventTwoMovedTo!])
            case "/events/4" where huge:
                return .init(status: 200, headers: ["Content-Type": "text/html"], body: Data(count: 50 * 1024 * 1024))
            case "/feed.ics":
                body = Self.feed
                type = "text/calendar"
            default:
                if request.path.hasPrefix("/events/"), let id = Int(request.path.dropFirst(8)), Self.acts[id] != nil,
                    !hidden.contains(id)
                {
                    body = eventPage(id)
                }
            }
            guard let body else { return .init(status: 404) }
            let data = Data(body.utf8)
            var hasher = ContentHasher()
            data.withUnsafeBytes { hasher.combine(buffer: $0) }
            let etag = "\"\(hasher.hexDigest.prefix(16))\""
            if request.headers["if-none-match"] == etag { return .init(status: 304, headers: ["ETag": etag]) }
            return .init(status: 200, headers: ["ETag": etag, "Content-Type": type], body: data)
        }
    }

    func configuration(_ server: LocalHTTPServer) -> String {
        let base = server.baseURL.absoluteString
        return """
            [[source]]
            name = "lantern-pages"
            format = "jsonld"
            urls = ["\(base)/calendar"]
            follow = "\(base)/events/*"
            requests_per_second = 1000
            contact = "ops@example.org"

            [[source]]
            name = "lantern-feed"
            format = "ical"
            urls = ["\(base)/feed.ics"]
            requests_per_second = 1000
            contact = "ops@example.org"
            """
    }

    @Test func refreshCrawlsTheSiteObeyingRobotsAndAsksConditionallyTheSecondTime() throws {
        let site = Site()
        let server = try LocalHTTPServer { site.respond($0) }
        defer { server.stop() }
        let directory = try TestSupport.temporaryDirectory()
        let config = directory.appendingPathComponent("encore.toml")
        try Data(configuration(server).utf8).write(to: config)
        let db = directory.appendingPathComponent("encore.sqlite").path
        let refresh = ["--db", db, "--today", "2026-11-22", "refresh", "--config", config.path, "--no-build"]

        let first = try CLIRun.run(refresh)
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(first.stdout.contains("lantern-pages: 5 requests, 4 pages applied"), "\(first.stdout)")
        #expect(first.stdout.contains("1 not fetched (robots.txt)"))
        #expect(first.stdout.contains("lantern-feed: 1 requests, 1 pages applied"), "robots.txt once per host per run")
        #expect(first.stdout.contains("skipped: 1 non-performance entries (doors times)"))
        let paths = server.requests.map(\.path)
        #expect(paths.filter { $0 == "/robots.txt" }.count == 1)
        #expect(!paths.contains { $0.hasPrefix("/events/private") }, "disallowed: never requested")
        #expect(!paths.contains("/about") && !paths.contains("/events/99"))
        #expect(paths.filter { $0 == "/events/1" }.count == 1, "each page once, however often it is linked")
        #expect(server.requests.allSatisfy { $0.headers["user-agent"] == "Encore/1 (+ops@example.org)" })

        let catalog = try CatalogDatabase(path: db)
        #expect(try catalog.stats(today: TestSupport.today).events == 4)
        let runs = try CLIRun.run(["--db", db, "runs"])
        #expect(runs.stdout.contains("not fetched, robots.txt disallows: \(server.baseURL.absoluteString)/events/private-3"))

        let before = server.requests.count
        let second = try CLIRun.run(refresh)
        #expect(second.status == 0)
        #expect(second.stdout.contains("lantern-pages: 5 requests, 0 pages applied, 4 unchanged"), "\(second.stdout)")
        let again = server.requests.dropFirst(before).filter { $0.path != "/robots.txt" }
        #expect(again.count == 5 && again.allSatisfy { $0.headers["if-none-match"] != nil })
    }

    func crawler(_ server: LocalHTTPServer, catalog: CatalogDatabase, source index: Int = 0) throws -> SourceCrawler {
        let source = try SourcesConfiguration(parsing: configuration(server))
            .sources[index]
        let fetcher = HTTPFetcher(sleep: { _ in }, jitter: { 0 })
        return SourceCrawler(
            source: source, apiKey: nil, fetcher: fetcher, ingestion: FileIngestion(), state: catalog, today: TestSupport.today)
    }

    @Test func anEventGoneFromTheSiteForTwoCompleteCrawlsIsUnlisted() async throws {
        let site = Site()
        let server = try LocalHTTPServer { site.respond($0) }
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let crawl = try crawler(server, catalog: catalog)
        #expect(await crawl.crawl(into: catalog).eventsNew == 3)
        site.hidden = [2]
        #expect(await crawl.crawl(into: catalog).eventsUnlisted == 0)
        #expect(await crawl.crawl(into: catalog).eventsUnlisted == 1)
        #expect(try catalog.stats(today: TestSupport.today).upcomingEvents == 2, "hidden from counts")
    }

    @Test func aHostWhoseRobotsTxtFailsIsNotCrawledAndA404AllowsEverything() async throws {
        let site = Site()
        let server = try LocalHTTPServer { site.respond($0) }
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        site.robotsAnswer = 503
        let down = await (try crawler(server, catalog: catalog)).crawl(into: catalog)
        #expect(down.pagesFailed == 1 && down.pagesFetched == 0)
        #expect(down.errors.first?.contains("robots.txt unavailable") == true)
        #expect(server.requests.allSatisfy { $0.path == "/robots.txt" }, "nothing else of the host")

        site.robotsAnswer = 404
        let open = await (try crawler(server, catalog: catalog)).crawl(into: catalog)
        #expect(open.pagesFailed == 1, "the private page is fetched and answers 404")
        #expect(server.requests.contains { $0.path == "/events/private-3" })
        #expect(open.pagesFetched == 4)
    }

    @Test func aFiftyMegabytePageFailsAloneAndTheRestLand() async throws {
        let site = Site()
        site.huge = true
        let server = try LocalHTTPServer { site.respond($0) }
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let summary = await (try crawler(server, catalog: catalog)).crawl(into: catalog)
        #expect(summary.pagesFailed == 1 && summary.pagesFetched == 3)
        #expect(summary.errors.first?.contains("/events/4") == true && summary.errors.first?.contains("larger than") == true)
        #expect(try catalog.stats(today: TestSupport.today).events == 2)
        #expect(summary.eventsUnlisted == 0, "an incomplete crawl unlists nothing")
    }

    @Test func aRedirectToAnotherHostIsRefusedWithoutAskingItAndTheOtherPagesLand() async throws {
        let elsewhere = try LocalHTTPServer { _ in .init(status: 200, body: Data("<html></html>".utf8)) }
        defer { elsewhere.stop() }
        let site = Site()
        site.eventTwoMovedTo = "http://localhost:\(elsewhere.port)/events/2"
        let server = try LocalHTTPServer { site.respond($0) }
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let summary = await (try crawler(server, catalog: catalog)).crawl(into: catalog)
        #expect(summary.pagesFailed == 1 && summary.pagesFetched == 3)
        let error = try #require(summary.errors.first)
        #expect(error.contains("/events/2") && error.contains("redirected to another host (http://localhost:"), "\(error)")
        #expect(elsewhere.requests.isEmpty, "the other host is never asked")
        #expect(server.requests.filter { $0.path == "/events/2" }.count == 1, "not retried")
        #expect(try catalog.stats(today: TestSupport.today).events == 2)
    }

    @Test func maxPagesBoundsALinkLoop() async throws {
        let site = Site()
        let server = try LocalHTTPServer { site.respond($0) }
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        var crawl = try crawler(server, catalog: catalog)
        var source = crawl.source
        source.maxPages = 2
        crawl = SourceCrawler(
            source: source, apiKey: nil, fetcher: crawl.fetcher, ingestion: FileIngestion(), state: catalog, today: TestSupport.today)
        let summary = await crawl.crawl(into: catalog)
        #expect(summary.requests == 3, "robots.txt and two pages")
        #expect(summary.eventsUnlisted == 0)
    }
}
