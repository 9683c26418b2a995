import Foundation
import Ingest
import Listings
import SampleWorld
import Testing

/// Similar artists from ListenBrainz and Last.fm, as files and crawled by `encore refresh`
/// for followed artists, a few a run; and from the catalog's own bills.
@Suite(.serialized)
struct SimilarSourcesTests {
    static let mavi = "1f2857e9-147e-41b9-b160-28f5842f5e17"
    let scratch: CLIScratch

    init() throws {
        scratch = try CLIScratch(ingesting: "sample")
    }

    func similarNames(_ artist: String) throws -> [String] {
        let page = try scratch.encore(["artist", artist, "--json"]).json() as? [String: Any]
        return (page?["similar"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test(arguments: ["listenbrainz-mavi-vapur.json", "lastfm-getsimilar-mavi-vapur.xml", "lastfm-getsimilar-mavi-vapur.json"])
    func aSimilarListFileLandsOnTheArtistItNames(file: String) throws {
        let run = try scratch.encore(["ingest", TestSupport.fixture("similar/" + file)])
        #expect(run.status == 0, "\(run.stderr)")
        let names = try similarNames("Mavi Vapur")
        #expect(names.contains("Uzak Kuşlar"), "\(names)")
    }

    @Test func aMatchOutsideZeroToOneIsAnErrorNamingWhere() throws {
        let run = try scratch.encore(["ingest", TestSupport.fixture("similar/lastfm-getsimilar-bad-match.json")])
        #expect(run.status == 1)
        #expect(run.stderr.contains("artist[0].match"), "\(run.stderr)")
    }

    @Test func scoresRankTheListAndLastfmMatchesAreKept() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("similar/listenbrainz-mavi-vapur.json")))
        let page = try ListenBrainzSimilarIngester().parse(data, context: PageContext(locator: "lb.json"))
        let list = try #require(page.similarArtists)
        #expect(list.artistSourceID == "mbid:" + Self.mavi)
        #expect(list.scores == [1, 0.5, 0.1])
        let xml = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("similar/lastfm-getsimilar-mavi-vapur.xml")))
        let lastfm = try #require(try LastFMSimilarIngester().parse(xml, context: PageContext(locator: "s.xml")).similarArtists)
        #expect(lastfm.artistSourceID == "name:mavi vapur")
        #expect(lastfm.scores == [0.873412, 0.5])
        #expect(lastfm.similar.map(\.name) == ["Les Orages Dorés", "Uzak Kuşlar"])
    }

    @Test func refreshAsksAboutFollowedArtistsAtMostTheCapARun() throws {
        for artist in ["Mavi Vapur", "Deniz Güneş", "Tessa Whitlock"] {
            #expect(try scratch.encore(["track", "artist", artist]).status == 0)
        }
        let answer = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("similar/listenbrainz-mavi-vapur.json")))
        let server = try LocalHTTPServer { request in
            guard request.path == "/similar-artists/json", request.query["algorithm"] != nil else { return .init(status: 404) }
            let body = request.query["artist_mbids"] == Self.mavi ? answer : Data("[]".utf8)
            return .init(status: 200, headers: ["Content-Type": "application/json"], body: body)
        }
        func refresh(cap: Int) throws -> CLIRun {
            let config = scratch.directory.appendingPathComponent("similar-\(cap).toml")
            try """
                [[source]]
                name = "listenbrainz"
                format = "listenbrainz-similar"
                base_url = "\(server.baseURL.absoluteString)"
                requests_per_second = 50
                similar_artists_per_run = \(cap)
                """.write(to: config, atomically: true, encoding: .utf8)
            return try scratch.encore(["refresh", "--config", config.path, "--no-build"])
        }
        let first = try refresh(cap: 2)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(server.requests.count == 2, "two of the three followed artists with MusicBrainz ids")
        _ = try refresh(cap: 3)
        #expect(server.requests.filter { $0.query["artist_mbids"] == Self.mavi }.count >= 1)
        let names = try similarNames("Mavi Vapur")
        #expect(names.contains("Uzak Kuşlar") && names.contains("Deniz Güneş"), "\(names)")
    }

    @Test func turnsCoverEveryFollowedArtistDayByDay() {
        let followed = (0..<5).map { (name: "Artist \($0)", mbid: String?.none) }
        var asked: Set<String> = []
        for day in 0..<3 {
            let today = LocalDate(year: 2026, month: 11, day: 22)!.adding(days: day)
            let chosen = SimilarArtistTurns.artists(followed: followed, listBrainzIDsOnly: false, cap: 2, today: today)
            #expect(chosen.count == 2)
            asked.formUnion(chosen)
        }
        #expect(asked.count == 5)
        #expect(SimilarArtistTurns.artists(followed: followed, listBrainzIDsOnly: true, cap: 2, today: LocalDate(year: 2026, month: 1, day: 1)!).isEmpty)
    }

    @Test func theCapGoesWithSimilarSourcesOnly() throws {
        let text = """
            [[source]]
            name = "songkick"
            format = "songkick-json"
            base_url = "https://api.songkick.com/api/3.0"
            similar_artists_per_run = 5
            """
        #expect(throws: ConfigurationError.self) { try SourcesConfiguration(parsing: text) }
    }

    @Test func onSaleTimesReadEveryFormAndRefuseImpossibleDates() {
        let zone = "Europe/Madrid"
        #expect(OnSaleTime.instant("2026-12-01T10:00:00Z", venueZone: zone)?.description == "2026-12-01T10:00:00Z")
        #expect(OnSaleTime.instant("2026-12-01T10:00:00+01:00", venueZone: nil)?.description == "2026-12-01T09:00:00Z")
        #expect(OnSaleTime.instant("2026-12-01T10:00:00", venueZone: zone)?.description == "2026-12-01T09:00:00Z")
        #expect(OnSaleTime.instant("2026-12-01", venueZone: zone)?.description == "2026-11-30T23:00:00Z")
        #expect(OnSaleTime.instant("2026-02-30T10:00:00", venueZone: zone) == nil)
        #expect(OnSaleTime.instant("2026-12-01T25:00:00", venueZone: zone) == nil)
        #expect(OnSaleTime.instant("soon", venueZone: zone) == nil)
    }
}
