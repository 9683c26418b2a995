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
    /// generated pages, with ETags, and 500s for the pages listed in `failing`.
    func makeServer(world: URL, failing: Set<String> = []) throws -> LocalHTTPServer {
        try LocalHTTPServer { request in
            guard request.query["apikey"] == Self.key else { return .init(status: 403) }
            let parts = request.path.split(separator: "/")
            guard parts.count == 3, parts[0] == "metro_areas", parts[2] == "calendar.json" else { return .init(status: 404) }
            let page = request.query["page"] ?? "1"
            if failing.contains("\(parts[1])-\(page)") { return .init(status: 500) }
            let file = world.appendingPathComponent("songkick-json/metro-areas/\(parts[1])-calendar-p\(page).json")
            guard let body = try? Data(contentsOf: file) else { return .init(status: 404) }
            let etag = "\"\(body.count)-\(page)\""
            if request.headers["if-none-match"] == etag { return .init(status: 304) }
            return .init(status: 200, headers: ["ETag": etag, "Content-Type": "application/json"], body: body)
        }
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
        return try SourcesConfiguration(parsing: text, formats: IngesterRegistry.standard.formats).sources[0]
    }

    func crawler(_ source: SourcesConfiguration.Source, catalog: CatalogDatabase) -> SourceCrawler {
        let fetcher = HTTPFetcher(secrets: [Self.key], sleep: { _ in }, jitter: { 0 })
        return SourceCrawler(source: source, apiKey: Self.key, fetcher: fetcher, ingestion: FileIngestion(), state: catalog)
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
}
