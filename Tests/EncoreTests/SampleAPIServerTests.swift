import Catalog
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Geo
import Ingest
import Listings
import SampleWorld
import Testing

/// The sample world served with Songkick's and Last.fm's URL schemes (what the refresh
/// benchmark and `encore-sample --serve` crawl), crawled with the configuration it prints.
@Suite(.serialized)
struct SampleAPIServerTests {
    static let key = "sample-test-key"

    func crawlers(_ server: SampleAPIServer, catalog: CatalogDatabase) throws -> [SourceCrawler] {
        let configuration = try SourcesConfiguration(
            parsing: server.sourcesConfiguration())
        return configuration.sources.map { source in
            SourceCrawler(
                source: source, apiKey: Self.key, fetcher: HTTPFetcher(secrets: [Self.key], sleep: { _ in }, jitter: { 0 }),
                ingestion: FileIngestion(), state: catalog, today: TestSupport.today)
        }
    }

    /// Last.fm by location names, SeatGeek by each metro area's centre.
    @Test(arguments: [SampleFormat.lastfmJSON, .seatgeek])
    func songkickAndAnotherSourceCrawlToEachConcertOnceAndAnUnchangedSecondCrawlAppliesNothing(
        other: SampleFormat
    ) async throws {
        let directory = try TestSupport.temporaryDirectory()
        let world = SampleWorld(configuration: .init(eventCount: 400, eventsPerPage: 20))
        _ = try world.write(formats: [.songkickJSON, other], to: directory)
        let concerts = Set(try String(contentsOf: directory.appendingPathComponent("labels.tsv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: "\t")[2] })
        let server = try SampleAPIServer(corpus: directory, apiKey: Self.key)
        defer { server.stop() }
        #expect(server.songkickPageSize == 20)
        #expect(!server.songkickMetroAreas.isEmpty)
        if other == .seatgeek {
            #expect(server.seatGeekPageSize == 20)
            #expect(server.seatGeekPlaces.count == world.metroAreas.count)
        } else {
            #expect(!server.lastFMLocations.isEmpty)
        }
        let (catalog, _) = try TestSupport.makeCatalog()

        var first: [SourceRunSummary] = []
        for crawler in try crawlers(server, catalog: catalog) { first.append(await crawler.crawl(into: catalog)) }
        #expect(first.map(\.name) == ["songkick", other.source])
        #expect(first.allSatisfy { $0.pagesFailed == 0 && $0.pagesFetched > 0 }, "\(first.flatMap(\.errors))")
        #expect(first[1].eventsMerged > 0)
        #expect(try catalog.stats(today: TestSupport.today).events == concerts.count)

        var second: [SourceRunSummary] = []
        for crawler in try crawlers(server, catalog: catalog) { second.append(await crawler.crawl(into: catalog)) }
        #expect(second.allSatisfy { $0.pagesFetched == 0 && $0.pagesFailed == 0 && $0.pagesUnchanged > 0 })
        #expect(zip(first, second).allSatisfy { $0.pagesFetched == $1.pagesUnchanged })
        #expect(try catalog.stats(today: TestSupport.today).events == concerts.count)
    }

    /// The JSON-LD share served as venue web sites: the printed page source crawls every
    /// venue page from the index, keeps out of the path robots.txt disallows, and asks
    /// conditionally the second time.
    @Test func theVenuePagesCrawlAsAPageSourceThatObeysRobots() async throws {
        let directory = try TestSupport.temporaryDirectory()
        let world = SampleWorld(configuration: .init(eventCount: 200))
        _ = try world.write(formats: [.jsonld], to: directory)
        let server = try SampleAPIServer(corpus: directory, apiKey: Self.key)
        defer { server.stop() }
        #expect(!server.venuePages.isEmpty)
        let (catalog, _) = try TestSupport.makeCatalog()
        let crawler = try #require(try crawlers(server, catalog: catalog).first { $0.source.isPageSource })
        let first = await crawler.crawl(into: catalog)
        #expect(first.pagesFailed == 0 && first.pagesFetched == server.venuePages.count + 1, "\(first.errors)")
        #expect(first.disallowedByRobots == [server.baseURL.absoluteString + "/private/guest-list.html"])
        let files = TestSupport.ingest([directory.appendingPathComponent("jsonld").path], into: try TestSupport.makeCatalog().0)
        #expect(first.eventsNew == files.eventsNew)
        let second = await crawler.crawl(into: catalog)
        #expect(second.pagesFetched == 0 && second.pagesUnchanged == first.pagesFetched)

        // The feed of the same pages: every show is one the pages listed, on the venue's
        // clock once the venue is placed (the feed gives UTC times).
        var feed = try #require(try crawlers(server, catalog: catalog).first { $0.source.format == "ical" })
        feed = SourceCrawler(
            source: feed.source, apiKey: nil, fetcher: feed.fetcher,
            ingestion: FileIngestion(enrichment: GeoEnrichment(gazetteer: try Gazetteer.bundled())), state: catalog,
            today: TestSupport.today)
        let read = await feed.crawl(into: catalog)
        #expect(read.pagesFailed == 0 && read.pagesFetched == 1, "\(read.errors)")
        #expect(read.eventsNew + read.eventsMerged == files.eventsNew)
        #expect(read.eventsMerged >= files.eventsNew * 9 / 10, "\(read)")
    }

    @Test func aWrongKeyIsRefusedAndNamesCannotLeaveTheCorpus() async throws {
        let directory = try TestSupport.temporaryDirectory()
        _ = try SampleWorld(configuration: .init(eventCount: 50)).write(formats: [.songkickJSON], to: directory)
        let server = try SampleAPIServer(corpus: directory, apiKey: Self.key)
        defer { server.stop() }
        let metro = try #require(server.songkickMetroAreas.first)
        func status(_ target: String) async throws -> Int {
            let (_, response) = try await URLSession.shared.data(from: URL(string: server.baseURL.absoluteString + target)!)
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        }
        #expect(try await status("/songkick/metro_areas/\(metro)/calendar.json?apikey=\(Self.key)&page=1") == 200)
        #expect(try await status("/songkick/metro_areas/\(metro)/calendar.json?apikey=wrong&page=1") == 403)
        #expect(try await status("/songkick/metro_areas/..%2F..%2Flabels/calendar.json?apikey=\(Self.key)") == 404)
        #expect(try await status("/lastfm/2.0/?method=geo.getEvents&location=..&api_key=\(Self.key)") == 400)
    }

    /// Validators are remembered between requests (an unchanged page is answered without
    /// being read), but never outlive the page: one rewritten is served again.
    @Test func aRewrittenPageIsServedAgainWithNewValidators() async throws {
        let directory = try TestSupport.temporaryDirectory()
        _ = try SampleWorld(configuration: .init(eventCount: 50)).write(formats: [.songkickJSON], to: directory)
        let server = try SampleAPIServer(corpus: directory, apiKey: Self.key)
        defer { server.stop() }
        let metro = try #require(server.songkickMetroAreas.first)
        let url = URL(string: server.baseURL.absoluteString + "/songkick/metro_areas/\(metro)/calendar.json?apikey=\(Self.key)&page=1")!
        let session = URLSession(configuration: .ephemeral)
        func fetch(ifNoneMatch etag: String? = nil) async throws -> (status: Int, etag: String?, body: Data) {
            var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
            if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            let (data, response) = try await session.data(for: request)
            let http = response as? HTTPURLResponse
            return (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "ETag"), data)
        }
        let first = try await fetch()
        let etag = try #require(first.etag)
        #expect(first.status == 200)
        #expect(try await fetch(ifNoneMatch: etag).status == 304)
        #expect(try await fetch(ifNoneMatch: etag).status == 304)

        let page = directory.appendingPathComponent("songkick-json/metro-areas/\(metro)-calendar-p1.json")
        let rewritten = Data(#"{"resultsPage":{"status":"ok","results":{},"perPage":50,"page":1,"totalEntries":0}}"#.utf8)
        try rewritten.write(to: page)
        let again = try await fetch(ifNoneMatch: etag)
        #expect(again.status == 200)
        #expect(again.body == rewritten)
        #expect(again.etag != nil && again.etag != etag)
    }
}
