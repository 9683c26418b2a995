import Catalog
import Foundation
import Ingest
import Listings
import SampleWorld
import Testing

/// `encore refresh` against a SeatGeek-speaking server on 127.0.0.1: its query
/// parameters, paging, 10,000-result limit, rate limiting and ETags.
@Suite(.serialized)
struct SeatGeekCrawlTests {
    static let clientID = "sg-client-id-do-not-log"

    /// What the server was asked, beyond its log: the pages to answer 429 once.
    final class Behaviour: @unchecked Sendable {
        private let lock = NSLock()
        private var limited: Set<String> = []

        /// Pages (`gte-page`) answered 429 the first time they are asked for.
        func rateLimitOnce(_ keys: Set<String>) { lock.withLock { limited = keys } }

        func takeRateLimit(_ key: String) -> Bool { lock.withLock { limited.remove(key) != nil } }
    }

    /// `/2/events` over `count` concerts spread over January 2027 (a Chicago venue each,
    /// one performer each), honouring the window, `per_page`/`page`, SeatGeek's rule that
    /// `page × per_page` stays within 10,000, and `If-None-Match`.
    static func server(count: Int, behaviour: Behaviour = Behaviour()) throws -> LocalHTTPServer {
        try LocalHTTPServer { request in
            guard request.query["client_id"] == clientID else {
                return .init(status: 403, body: Data(#"{"errors":[{"code":40307,"message":"Client is required"}],"status":403}"#.utf8))
            }
            guard request.path == "/2/events", request.query["taxonomies.name"] == "concert",
                request.query["sort"] == "datetime_local.asc", let perPage = Int(request.query["per_page"] ?? ""),
                let page = Int(request.query["page"] ?? ""), page >= 1
            else { return .init(status: 400) }
            guard page * perPage <= 10_000 else {
                return .init(status: 400, body: Data(#"{"errors":[{"code":40001,"message":"Results limited to 10000"}],"status":400}"#.utf8))
            }
            let gte = request.query["datetime_local.gte"] ?? ""
            let lte = request.query["datetime_local.lte"] ?? "~"
            if behaviour.takeRateLimit("\(gte.prefix(10))-\(page)") {
                return .init(status: 429, headers: ["Retry-After": "0"])
            }
            var all = (0..<count).map { index in (id: index, local: String(format: "2027-01-%02dT20:00:00", 1 + index % 30)) }
                .filter { $0.local >= gte && $0.local <= lte }
            if let slug = request.query["performers.slug"] { all = all.filter { "band-\($0.id)" == slug } }
            if let venue = request.query["venue.id"] { all = all.filter { "\($0.id % 7)" == venue } }
            if request.query["lat"] != nil {
                guard let lat = Double(request.query["lat"]!), abs(lat - 41.85) < 0.2, request.query["range"] == "30mi" else {
                    return .init(status: 400)
                }
            }
            let events = all.dropFirst((page - 1) * perPage).prefix(perPage).map { event in
                """
                {"id":\(event.id),"type":"concert","title":"Band \(event.id)","datetime_local":"\(event.local)",\
                "datetime_utc":"\(event.local.prefix(10))T23:00:00","time_tbd":false,"date_tbd":false,\
                "url":"https://seatgeek.com/e/\(event.id)","taxonomies":[{"id":2000000,"name":"concert","parent_id":null}],\
                "venue":{"id":\(event.id % 7),"name":"Hall \(event.id % 7)","city":"Chicago","state":"IL","country":"US",\
                "timezone":"America/Chicago","location":{"lat":41.88,"lon":-87.6\(event.id % 7)}},\
                "performers":[{"id":\(event.id),"name":"Band \(event.id)","slug":"band-\(event.id)","primary":true}],\
                "stats":{"lowest_price":20,"highest_price":40}}
                """
            }
            let body = Data(
                (#"{"events":["# + events.joined(separator: ",")
                    + #"],"meta":{"total":\#(all.count),"took":1,"page":\#(page),"per_page":\#(perPage),"geolocation":null}}"#).utf8)
            var hasher = ContentHasher()
            body.withUnsafeBytes { hasher.combine(buffer: $0) }
            let etag = "\"\(hasher.hexDigest)\""
            if request.headers["if-none-match"] == etag { return .init(status: 304) }
            return .init(status: 200, headers: ["ETag": etag, "Content-Type": "application/json"], body: body)
        }
    }

    func source(_ server: LocalHTTPServer, _ scopes: String, pageSize: Int = 500) throws -> SourcesConfiguration.Source {
        let text = """
            [[source]]
            name = "seatgeek"
            format = "seatgeek"
            base_url = "\(server.baseURL.absoluteString)/2"
            api_key_env = "SEATGEEK_CLIENT_ID"
            \(scopes)
            requests_per_second = 1000
            page_size = \(pageSize)
            from = "2027-01-01"
            to = "2027-01-30"
            """
        return try SourcesConfiguration(parsing: text).sources[0]
    }

    func crawler(_ source: SourcesConfiguration.Source, catalog: CatalogDatabase, clientID: String = clientID) -> SourceCrawler {
        SourceCrawler(
            source: source, apiKey: clientID, fetcher: HTTPFetcher(secrets: [clientID], sleep: { _ in }, jitter: { 0 }),
            ingestion: FileIngestion(), state: catalog, today: TestSupport.today)
    }

    @Test func pagesThroughAPlaceAndAsksOnlyForUnchangedPagesTheSecondTime() async throws {
        let behaviour = Behaviour()
        behaviour.rateLimitOnce(["2027-01-01-2"])
        let server = try Self.server(count: 120, behaviour: behaviour)
        defer { server.stop() }
        let (catalog, path) = try TestSupport.makeCatalog()
        let source = try source(server, #"metro_areas = ["Chicago"]"#, pageSize: 50)

        let first = await crawler(source, catalog: catalog).crawl(into: catalog)
        #expect(first.pagesFailed == 0, "\(first.errors)")
        #expect(first.pagesFetched == 3)
        #expect(first.eventsNew == 120)
        #expect(try catalog.stats(today: TestSupport.today).events == 120)
        let asked = server.requests.map { $0.query["page"] ?? "" }
        #expect(asked == ["1", "2", "2", "3"], "page 2 again after its 429")
        #expect(server.requests.allSatisfy { $0.query["datetime_local.gte"] == "2027-01-01T00:00:00" })
        #expect(server.requests.allSatisfy { $0.query["datetime_local.lte"] == "2027-01-30T23:59:59" })

        let before = server.requests.count
        let second = await crawler(source, catalog: catalog).crawl(into: catalog)
        #expect(second.pagesUnchanged == 3 && second.pagesFetched == 0 && second.pagesFailed == 0, "\(second)")
        #expect(second.eventsUnlisted == 0)
        #expect(server.requests.dropFirst(before).allSatisfy { $0.headers["if-none-match"] != nil })
        #expect(try !TestSupport.dump(path).contains(Self.clientID), "the client id is in no stored URL")
    }

    @Test func splitsADateWindowHoldingMoreThanTenThousandResults() async throws {
        let server = try Self.server(count: 10_500)
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let source = try source(server, #"metro_areas = ["41.85,-87.65"]"#)
        let summary = await crawler(source, catalog: catalog).crawl(into: catalog)
        #expect(summary.pagesFailed == 0, "\(summary.errors)")
        #expect(try catalog.stats(today: TestSupport.today).events == 10_500)
        #expect(server.requests.allSatisfy { (Int($0.query["page"] ?? "") ?? 0) * 500 <= 10_000 })
        let windows = Set(server.requests.map { "\($0.query["datetime_local.gte"] ?? "")…\($0.query["datetime_local.lte"] ?? "")" })
        #expect(windows.contains("2027-01-01T00:00:00…2027-01-15T23:59:59"))
        #expect(windows.contains("2027-01-16T00:00:00…2027-01-30T23:59:59"))
        // The whole window was seen, so the listing is complete: nothing is unlisted.
        #expect(await crawler(source, catalog: catalog).crawl(into: catalog).eventsUnlisted == 0)
    }

    @Test func asksForVenuesByIDAndArtistsBySlug() async throws {
        let server = try Self.server(count: 60)
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let source = try source(server, """
            venues = ["3"]
            artists = ["Band 5", "band-8"]
            """)
        let summary = await crawler(source, catalog: catalog).crawl(into: catalog)
        #expect(summary.pagesFailed == 0, "\(summary.errors)")
        #expect(server.requests.compactMap { $0.query["venue.id"] } == ["3"])
        #expect(server.requests.compactMap { $0.query["performers.slug"] } == ["band-5", "band-8"])
        // Venue 3 holds ids 3, 10, ..., 59 (9 shows); bands 5 and 8 play elsewhere, one show each.
        #expect(try catalog.stats(today: TestSupport.today).events == 11)
    }

    @Test func aPageSizeAboveSeatGeeksLimitIsRejectedWithItsLine() {
        let text = """
            [[source]]
            name = "seatgeek"
            format = "seatgeek"
            base_url = "https://api.seatgeek.com/2"
            page_size = 501
            """
        let error = #expect(throws: ConfigurationError.self) {
            try SourcesConfiguration(parsing: text)
        }
        #expect(error?.line == 5)
        #expect(error?.message == "page_size for seatgeek must be 1...500")
    }

    @Test func aRefusedClientIDIsReportedWithoutTheIDAndAnUnknownPlaceByName() async throws {
        let server = try Self.server(count: 10)
        defer { server.stop() }
        let (catalog, _) = try TestSupport.makeCatalog()
        let source = try source(server, #"metro_areas = ["Chicago", "Qqqzzzville"]"#)
        let wrong = "wrong-client-id"
        let summary = await crawler(source, catalog: catalog, clientID: wrong).crawl(into: catalog)
        let text = summary.errors.joined(separator: "\n")
        #expect(summary.pagesFailed == 2, "\(text)")
        #expect(text.contains("metro area \"Qqqzzzville\": no place called \"Qqqzzzville\" is known"))
        #expect(text.contains("HTTP 403") && text.contains("client_id=REDACTED"))
        #expect(!text.contains(wrong))
    }
}
