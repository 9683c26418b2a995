import Catalog
import Foundation
import Ingest
import Listings
import SampleWorld
import Testing

/// A Songkick-shaped API on 127.0.0.1 serving a generated world with its real URL
/// scheme and paging, crawled for real.
@Suite(.serialized)
struct SourceCrawlerTests {
    static let key = "k3y-do-not-log"

    /// Serves `{base}/metro_areas/{id}/calendar.json?apikey&page&per_page` from the
    /// generated pages, with ETags, and 500s for the pages listed in `failing`. Events
    /// whose ids are in `hidden` are left out, as when a source stops listing them.
    func makeServer(world: URL, failing: Set<String> = [], controls: ServerControls = ServerControls()) throws -> LocalHTTPServer {
        try LocalHTTPServer { request in
            guard request.query["apikey"] == Self.key else { return .init(status: 403) }
            let parts = request.path.split(separator: "/")
            guard parts.count == 3, parts[0] == "metro_areas", parts[2] == "calendar.json" else { return .init(status: 404) }
            let page = request.query["page"] ?? "1"
            if failing.contains("\(parts[1])-\(page)") || controls.down.contains("\(parts[1])-\(page)") {
                return .init(status: 500)
            }
            if controls.waitADay.contains("\(parts[1])-\(page)") { return .init(status: 429, headers: ["Retry-After": "86400"]) }
            let file = world.appendingPathComponent("songkick-json/metro-areas/\(parts[1])-calendar-p\(page).json")
            guard var body = try? Data(contentsOf: file) else { return .init(status: 404) }
            let hiddenIDs = controls.hidden
            if !hiddenIDs.isEmpty { body = Self.removing(hiddenIDs, from: body) }
            var hasher = ContentHasher()
            body.withUnsafeBytes { hasher.combine(buffer: $0) }
            let etag = "\"\(hasher.hexDigest)\""
            if request.headers["if-none-match"] == etag { return .init(status: 304) }
            return .init(status: 200, headers: ["ETag": etag, "Content-Type": "application/json"], body: body)
        }
    }

    /// A Songkick page without the events whose ids are given.
    static func removing(_ ids: Set<Int>, from body: Data) -> Data {
        guard var root = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            var page = root["resultsPage"] as? [String: Any], var results = page["results"] as? [String: Any],
            let events = results["event"] as? [[String: Any]]
        else { return body }
        results["event"] = events.filter { !ids.contains(($0["id"] as? Int) ?? -1) }
        page["results"] = results
        root["resultsPage"] = page
        return (try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])) ?? body
    }

    func busiestMetro(_ world: SampleWorld) -> (id: Int, events: Int) {
        let index = world.metroAreas.indices.max { world.eventCount(inMetroAreaAt: $0) < world.eventCount(inMetroAreaAt: $1) }!
        return (world.metroAreas[index].id, world.eventCount(inMetroAreaAt: index))
    }

    func source(_ server: LocalHTTPServer, metro: Int) throws -> SourcesConfiguration.Source {
        let text = """
            [[source]]
            name = "songkick"
            format = "songkick-json"
            base_url = "\(server.baseURL.absoluteString)"
            api_key_env = "SONGKICK_API_KEY"
            metro_areas = ["\(metro)"]
            requests_per_second = 1000
            page_size = 5
            """
        return try SourcesConfiguration(parsing: text).sources[0]
    }

    func crawler(_ source: SourcesConfiguration.Source, catalog: CatalogDatabase) -> SourceCrawler {
        let fetcher = HTTPFetcher(secrets: [Self.key], sleep: { _ in }, jitter: { 0 })
        return SourceCrawler(
            source: source, apiKey: Self.key, fetcher: fetcher, ingestion: FileIngestion(), state: catalog, today: TestSupport.today)
    }

    @Test func everyEventArrivesExactlyOnceAndUnchangedPagesAreNotReapplied() async throws {
        let directory = try TestSupport.temporaryDirectory()
        let world = SampleWorld(configuration: .init(eventCount: 300, eventsPerPage: 5))
        _ = try world.writeSongkickJSON(to: directory)
        let (metro, expected) = busiestMetro(world)
        #expect(expected > 5)
        let server = try makeServer(world: directory)
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let crawl = crawler(try source(server, metro: metro), catalog: catalog)

        let first = await crawl.crawl(into: catalog)
        let pages = (expected + 4) / 5
        #expect(first.pagesFetched == pages && first.pagesFailed == 0, "\(first)")
        #expect(first.eventsNew == expected)
        #expect(try catalog.stats(today: TestSupport.today).events == expected)

        let second = await crawl.crawl(into: catalog)
        #expect(second.pagesUnchanged == pages && second.pagesFetched == 0)
        #expect(try catalog.stats(today: TestSupport.today).events == expected)
        #expect(server.requests.suffix(pages).allSatisfy { $0.headers["if-none-match"] != nil })
    }

    @Test func aFailingPageIsReportedWithoutTheKeyAndTheRestLand() async throws {
        let directory = try TestSupport.temporaryDirectory()
        let world = SampleWorld(configuration: .init(eventCount: 300, eventsPerPage: 5))
        _ = try world.writeSongkickJSON(to: directory)
        let (metro, expected) = busiestMetro(world)
        let server = try makeServer(world: directory, failing: ["\(metro)-2"])
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let summary = await crawler(try source(server, metro: metro), catalog: catalog).crawl(into: catalog)
        #expect(summary.pagesFailed == 1)
        #expect(try catalog.stats(today: TestSupport.today).events == expected - 5)
        let text = summary.errors.joined(separator: "\n")
        #expect(text.contains("HTTP 500") && text.contains("apikey=REDACTED"))
        #expect(!text.contains(Self.key))
        // Five attempts for the failing page, one for each other page.
        #expect(server.requests.count == (expected + 4) / 5 - 1 + 5)
    }

    @Test func anEventMissingFromTwoCompleteCrawlsIsUnlistedAndComesBackWhenListedAgain() async throws {
        let directory = try TestSupport.temporaryDirectory()
        let world = SampleWorld(configuration: .init(eventCount: 300, eventsPerPage: 5))
        _ = try world.writeSongkickJSON(to: directory)
        let (metro, _) = busiestMetro(world)
        let controls = ServerControls()
        let server = try makeServer(world: directory, controls: controls)
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let crawl = crawler(try source(server, metro: metro), catalog: catalog)
        _ = await crawl.crawl(into: catalog)
        let window = DateWindow(from: TestSupport.today, to: TestSupport.today.adding(days: 400))!
        let all = try catalog.events(ids: try catalog.eventIDs(since: TestSupport.today))
        let gone = try #require(all.first { $0.status == .scheduled && $0.metroArea != nil })
        let metroID = try #require(gone.metroArea?.id)
        let listedInMetro = all.filter { $0.metroArea?.id == metroID }.count
        let goneSource = try #require(gone.sources.first?.id)
        let goneSourceID = try #require(Int(goneSource))
        controls.hidden = [goneSourceID]

        // Missing once: still listed. A crawl with a failed page does not count.
        #expect(await crawl.crawl(into: catalog).eventsUnlisted == 0)
        controls.down = ["\(metro)-1"]
        #expect(await crawl.crawl(into: catalog).eventsUnlisted == 0)
        controls.down = []
        #expect(try catalog.events(inMetroAreas: [metroID], window: window).contains { $0.id == gone.id })

        // Missing from a second complete crawl: unlisted, hidden unless asked for.
        let second = await crawl.crawl(into: catalog)
        #expect(second.eventsUnlisted == 1, "\(second)")
        #expect(try !catalog.events(inMetroAreas: [metroID], window: window).contains { $0.id == gone.id })
        #expect(try catalog.metroAreas(today: TestSupport.today).first { $0.metroArea.id == metroID }?.upcomingEvents == listedInMetro - 1)
        var everything = catalog
        everything.includesUnlisted = true
        let shown = try everything.events(inMetroAreas: [metroID], window: window).first { $0.id == gone.id }
        #expect(shown?.unlistedSince != nil)
        #expect(try catalog.event(id: gone.id) != nil, "kept, and found by id")

        // Listed again: back.
        controls.hidden = []
        _ = await crawl.crawl(into: catalog)
        let back = try catalog.events(inMetroAreas: [metroID], window: window).first { $0.id == gone.id }
        #expect(back != nil && back?.unlistedSince == nil)
    }

    @Test func aRunResumingAKilledOneDoesNotFetchItsFinishedPagesAgain() async throws {
        let directory = try TestSupport.temporaryDirectory()
        let world = SampleWorld(configuration: .init(eventCount: 300, eventsPerPage: 2))
        _ = try world.writeSongkickJSON(to: directory)
        let (metro, expected) = busiestMetro(world)
        let pages = (expected + 1) / 2
        #expect(pages >= 3)
        let controls = ServerControls()
        controls.down = ["\(metro)-2"]
        let server = try makeServer(world: directory, controls: controls)
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let source = try source(server, metro: metro)
        // Run 1 got every page but the second before it was killed.
        var killed = crawler(source, catalog: catalog)
        killed.runID = 1
        _ = await killed.crawl(into: catalog)
        controls.down = []
        let before = server.requests.count

        var resuming = crawler(source, catalog: catalog)
        resuming.runID = 2
        resuming.resuming = 1
        let summary = await resuming.crawl(into: catalog)
        let asked = server.requests.dropFirst(before).map { $0.query["page"] ?? "1" }
        #expect(asked == ["2"], "only the page the killed run did not finish")
        #expect(summary.pagesFetched == 1)
        #expect(summary.pagesUnchanged == pages - 1)
        #expect(summary.pagesFailed == 0)
        #expect(try catalog.stats(today: TestSupport.today).events == expected)
    }

    func source(_ text: String) throws -> SourcesConfiguration.Source {
        try SourcesConfiguration(parsing: text).sources[0]
    }

    /// A source whose host refuses connections costs three attempts, then its remaining
    /// listings fail at once with one message; a source on another host goes on.
    @Test func aHostThatRefusesConnectionsIsAbandonedForTheRunWithOneMessage() async throws {
        let directory = try TestSupport.temporaryDirectory()
        let world = SampleWorld(configuration: .init(eventCount: 300, eventsPerPage: 5))
        _ = try world.writeSongkickJSON(to: directory)
        let (metro, expected) = busiestMetro(world)
        let server = try makeServer(world: directory)
        defer { server.stop() }
        let port = try HostileServerTests.closedPort()
        let down = try source("""
            [[source]]
            name = "down"
            format = "songkick-json"
            base_url = "http://127.0.0.1:\(port)"
            metro_areas = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
            requests_per_second = 1000
            """)
        let (catalog, _) = try TestSupport.makeCatalog()
        let transport = CountingTransport()
        let recorder = SleepRecorder()
        let fetcher = HTTPFetcher(transport: transport, secrets: [Self.key], sleep: { recorder.record($0) }, jitter: { 0.5 })
        let lines = LogLines()
        let summary = await SourceCrawler(
            source: down, apiKey: nil, fetcher: fetcher, ingestion: FileIngestion(), state: catalog, today: TestSupport.today
        ).crawl(into: catalog) { lines.append($0) }
        #expect(transport.calls == 3)
        #expect(summary.pagesFailed == 10)
        #expect(summary.requests == 1)
        #expect(summary.errors.count == 1)
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.contains("failed 3 connections in a row") == true, "\(lines.all)")
        #expect(lines.all.first?.contains("its remaining listings count as failed") == true)

        // The same run's fetcher still crawls a source on another host.
        let up = SourceCrawler(
            source: try source(server, metro: metro), apiKey: Self.key, fetcher: fetcher, ingestion: FileIngestion(),
            state: catalog, today: TestSupport.today)
        let other = await up.crawl(into: catalog)
        #expect(other.pagesFailed == 0 && other.eventsNew == expected)
    }

    /// A listing whose server asks for a wait past the cap is given up for this run: its
    /// other pages are not asked, and the next listing is crawled.
    @Test func aListingAskedToWaitPastTheCapIsGivenUpAndTheOthersGoOn() async throws {
        let directory = try TestSupport.temporaryDirectory()
        let world = SampleWorld(configuration: .init(eventCount: 300, eventsPerPage: 5))
        _ = try world.writeSongkickJSON(to: directory)
        let metros = world.metroAreas.indices.sorted { world.eventCount(inMetroAreaAt: $0) > world.eventCount(inMetroAreaAt: $1) }
        let (limited, open) = (world.metroAreas[metros[0]].id, world.metroAreas[metros[1]].id)
        let controls = ServerControls()
        // Page 2 of the first metro area answers 429 with a day's wait.
        controls.waitADay = ["\(limited)-2"]
        let server = try makeServer(world: directory, controls: controls)
        defer { server.stop() }
        let config = try source("""
            [[source]]
            name = "songkick"
            format = "songkick-json"
            base_url = "\(server.baseURL.absoluteString)"
            api_key_env = "SONGKICK_API_KEY"
            metro_areas = ["\(limited)", "\(open)"]
            requests_per_second = 1000
            page_size = 5
            """)
        let (catalog, _) = try TestSupport.makeCatalog()
        let recorder = SleepRecorder()
        let fetcher = HTTPFetcher(secrets: [Self.key], sleep: { recorder.record($0) }, jitter: { 0 })
        let lines = LogLines()
        let summary = await SourceCrawler(
            source: config, apiKey: Self.key, fetcher: fetcher, ingestion: FileIngestion(), state: catalog,
            today: TestSupport.today
        ).crawl(into: catalog) { lines.append($0) }
        let limitedPages = server.requests.filter { $0.path.contains("/\(limited)/") }.compactMap { $0.query["page"] }
        #expect(limitedPages == ["1", "2"], "no page after the one that asked to wait")
        let openPages = (world.eventCount(inMetroAreaAt: metros[1]) + 4) / 5
        #expect(summary.pagesFetched == 1 + openPages)
        #expect(summary.pagesFailed == 1)
        #expect(recorder.recorded.allSatisfy { $0 < 1 })
        #expect(lines.all.contains { $0.contains("giving up on metro_areas/\(limited)/calendar for this run") }, "\(lines.all)")
    }
}

/// Lines a crawl logged.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] { lock.withLock { lines } }
    func append(_ line: String) { lock.withLock { lines.append(line) } }
}

/// What the test server leaves out or fails, changed between crawls.
final class ServerControls: @unchecked Sendable {
    private let lock = NSLock()
    private var hiddenIDs: Set<Int> = []
    private var failingPages: Set<String> = []
    private var waitingPages: Set<String> = []

    /// Songkick event ids the server no longer lists.
    var hidden: Set<Int> {
        get { lock.withLock { hiddenIDs } }
        set { lock.withLock { hiddenIDs = newValue } }
    }

    /// `metro-page` keys answered with 500.
    var down: Set<String> {
        get { lock.withLock { failingPages } }
        set { lock.withLock { failingPages = newValue } }
    }

    /// `metro-page` keys answered with 429 and `Retry-After: 86400`.
    var waitADay: Set<String> {
        get { lock.withLock { waitingPages } }
        set { lock.withLock { waitingPages = newValue } }
    }
}
