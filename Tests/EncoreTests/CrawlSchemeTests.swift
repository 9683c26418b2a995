import Catalog
import Foundation
import Ingest
import Listings
import SampleWorld
import Testing

/// Each API's URL scheme and paging, against servers on 127.0.0.1 that answer the way the
/// real APIs do.
@Suite(.serialized)
struct CrawlSchemeTests {
    static let key = "s3cret-key-value"

    func source(_ format: String, _ server: LocalHTTPServer, path: String = "", _ scopes: String, pageSize: Int? = nil)
        throws -> SourcesConfiguration.Source
    {
        let text = """
            [[source]]
            name = "\(format)"
            format = "\(format)"
            base_url = "\(server.baseURL.absoluteString)\(path)"
            api_key_env = "KEY"
            \(scopes)
            requests_per_second = 1000
            from = "2027-01-01"
            to = "2027-01-30"
            \(pageSize.map { "page_size = \($0)" } ?? "")
            """
        return try SourcesConfiguration(parsing: text).sources[0]
    }

    func crawler(_ source: SourcesConfiguration.Source, catalog: CatalogDatabase) -> SourceCrawler {
        SourceCrawler(
            source: source, apiKey: Self.key, fetcher: HTTPFetcher(secrets: [Self.key], sleep: { _ in }, jitter: { 0 }),
            ingestion: FileIngestion(), state: catalog, today: TestSupport.today)
    }

    /// A Ticketmaster Discovery event search over `count` concerts spread over January
    /// 2027, honouring `startDateTime`/`endDateTime`, `page`/`size` and the rule that
    /// `page × size` must stay under 1,000.
    static func ticketmasterServer(count: Int) throws -> LocalHTTPServer {
        try LocalHTTPServer { request in
            guard request.query["apikey"] == key, request.path == "/discovery/v2/events.json",
                request.query["classificationName"] == "music", request.query["dmaId"] == "324"
            else { return .init(status: 400) }
            let start = request.query["startDateTime"].map { String($0.prefix(10)) } ?? "0000-00-00"
            let end = request.query["endDateTime"].map { String($0.prefix(10)) } ?? "9999-99-99"
            let page = Int(request.query["page"] ?? "0") ?? 0
            let size = Int(request.query["size"] ?? "20") ?? 20
            guard page * size < 1000 else {
                return .init(status: 400, body: Data(#"{"errors":[{"code":"DIS1035","detail":"API Limits Exceeded"}]}"#.utf8))
            }
            let all = (0..<count).map { index -> (id: Int, day: String) in
                (index, String(format: "2027-01-%02d", 1 + index % 30))
            }.filter { $0.day >= start && $0.day <= end }
            let slice = all.dropFirst(page * size).prefix(size)
            let events = slice.map { event in
                """
                {"name":"Band \(event.id)","id":"tm\(event.id)","dates":{"start":{"localDate":"\(event.day)","localTime":"20:00:00"},\
                "timezone":"America/Chicago","status":{"code":"onsale"}},"classifications":[{"primary":true,"segment":{"name":"Music"}}],\
                "_embedded":{"venues":[{"id":"v\(event.id % 7)","name":"Hall \(event.id % 7)","city":{"name":"Chicago"},\
                "country":{"countryCode":"US"},"location":{"latitude":"41.88","longitude":"-87.6\(event.id % 7)"}}],\
                "attractions":[{"id":"a\(event.id)","name":"Band \(event.id)"}]}}
                """
            }
            let pages = (all.count + size - 1) / size
            let body = #"{"_embedded":{"events":["# + events.joined(separator: ",")
                + #"]},"page":{"size":\#(size),"totalElements":\#(all.count),"totalPages":\#(pages),"number":\#(page)}}"#
            return .init(status: 200, body: Data(body.utf8))
        }
    }

    @Test func ticketmasterSplitsADateWindowTooDeepToPageThrough() async throws {
        let server = try Self.ticketmasterServer(count: 1_500)
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let source = try source("ticketmaster", server, path: "/discovery/v2", #"metro_areas = ["324"]"#, pageSize: 200)
        let summary = await crawler(source, catalog: catalog).crawl(into: catalog)
        #expect(summary.pagesFailed == 0, "\(summary.errors)")
        #expect(try catalog.stats(today: TestSupport.today).events == 1_500)
        #expect(server.requests.allSatisfy { (Int($0.query["page"] ?? "0") ?? 0) * 200 < 1000 })
        #expect(server.requests.allSatisfy { $0.query["sort"] == "date,asc" })
        #expect(!summary.errors.joined().contains(Self.key))
        // The whole window was seen, so the listing counts as complete: crawling again with
        // nothing changed unlists nothing.
        #expect(await crawler(source, catalog: catalog).crawl(into: catalog).eventsUnlisted == 0)
    }

    @Test func bandsintownAsksForEachArtistsEventsAndInfoByName() async throws {
        let events = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("bandsintown/artist-events-night-ferry.json")))
        let artist = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("bandsintown/artist-night-ferry.json")))
        let server = try LocalHTTPServer { request in
            guard request.query["app_id"] == Self.key else { return .init(status: 403) }
            switch String(request.rawTarget.split(separator: "?")[0]) {
            case "/artists/Night%20Ferry/events":
                return request.query["date"] == "2027-01-01,2027-01-30" ? .init(status: 200, body: events) : .init(status: 400)
            case "/artists/Night%20Ferry": return .init(status: 200, body: artist)
            case "/artists/AC%252FDC/events": return .init(status: 200, body: Data("[]".utf8))
            case "/artists/AC%252FDC": return .init(status: 200, body: Data(#"{"name":"AC/DC","tracker_count":1,"upcoming_event_count":0}"#.utf8))
            default: return .init(status: 404)
            }
        }
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let source = try source("bandsintown", server, #"artists = ["Night Ferry", "AC/DC"]"#)
        let summary = await crawler(source, catalog: catalog).crawl(into: catalog)
        #expect(summary.pagesFailed == 0, "\(server.requests.map(\.rawTarget)) \(summary.errors)")
        #expect(summary.eventsNew == 2)
        #expect(try catalog.stats(today: TestSupport.today).events == 2)
    }

    @Test func bandsintownTakesArtistsOnly() {
        let text = """
            [[source]]
            name = "bit"
            format = "bandsintown"
            base_url = "https://rest.bandsintown.com"
            metro_areas = ["Chicago"]
            """
        let error = #expect(throws: ConfigurationError.self) {
            try SourcesConfiguration(parsing: text)
        }
        #expect(error?.line == 5)
    }

    @Test func lastFMPagesThroughAnArtistsEventsWithItsMethodAndKey() async throws {
        let fixture = try String(
            contentsOf: URL(fileURLWithPath: TestSupport.fixture("lastfm-json/artist-getevents-night-ferry.json")), encoding: .utf8)
        let server = try LocalHTTPServer { request in
            guard request.query["api_key"] == Self.key, request.query["method"] == "artist.getEvents",
                request.query["artist"] == "Night Ferry", request.query["format"] == "json", request.query["limit"] == "50"
            else { return .init(status: 400) }
            return .init(status: 200, body: Data(fixture.utf8))
        }
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let source = try source("lastfm-json", server, path: "/2.0/", #"artists = ["Night Ferry"]"#)
        let summary = await crawler(source, catalog: catalog).crawl(into: catalog)
        #expect(summary.pagesFailed == 0, "\(summary.errors)")
        #expect(summary.eventsNew > 0)
        #expect(server.requests.first?.path == "/2.0/")
    }
}
