import Foundation
import Ingest
import Listings
import Testing

struct SourcesConfigurationTests {

    let valid = """
        # Nightly crawl
        [[source]]
        name = "songkick"                      # unique label
        format = "songkick-json"
        base_url = "https://api.songkick.com/api/3.0"
        api_key_env = "SONGKICK_API_KEY"
        metro_areas = ["24426", 28755,
                       "Bilbao"]
        artists = ["Radiohead", "Sigur Rós # not a comment"]
        venues = []
        requests_per_second = 5
        page_size = 50
        max_pages = 20
        from = "today"
        to = "+180d"

        [[source]]
        name = 'lastfm'
        format = "lastfm-xml"
        base_url = "http://ws.audioscrobbler.com/2.0"
        requests_per_second = 0.5
        """

    @Test func readsTheContractKeys() throws {
        let configuration = try SourcesConfiguration(parsing: valid)
        #expect(configuration.sources.count == 2)
        let songkick = configuration.sources[0]
        #expect(songkick.name == "songkick" && songkick.format == "songkick-json")
        #expect(songkick.baseURL.absoluteString == "https://api.songkick.com/api/3.0")
        #expect(songkick.apiKeyEnvironmentVariable == "SONGKICK_API_KEY")
        #expect(songkick.metroAreas == ["24426", "28755", "Bilbao"])
        #expect(songkick.artists == ["Radiohead", "Sigur Rós # not a comment"])
        #expect(songkick.requestsPerSecond == 5 && songkick.pageSize == 50 && songkick.maxPages == 20)
        #expect(songkick.line == 2)
        #expect(configuration.sources[1].requestsPerSecond == 0.5)
        #expect(configuration.sources[1].apiKeyEnvironmentVariable == nil)
    }

    @Test(arguments: [
        ("format = \"songkick-json\"", "format = \"songkik-json\"", 4, "unknown format"),
        ("page_size = 50", "page_size = 500", 12, "page_size for songkick-json must be 1...50"),
        ("requests_per_second = 5", "requests_per_second = -1", 11, "requests_per_second"),
        ("venues = []", "venues = [", 10, "array is not closed"),
        ("base_url = \"https://api.songkick.com/api/3.0\"", "base_url = \"ftp://x\"", 5, "base_url must be an http(s) URL"),
        ("max_pages = 20", "max_pagez = 20", 13, "unknown key \"max_pagez\""),
        ("api_key_env = \"SONGKICK_API_KEY\"", "api_key_env = \"abc-123 secret\"", 6, "names an environment variable"),
        ("name = 'lastfm'", "name = 'songkick'", 18, "already used on line 3"),
        ("to = \"+180d\"", "to = \"+180d\" x", 15, "unexpected text"),
        ("to = \"+180d\"", "to = +180d", 15, "strings need quotes"),
        ("venues = []", "venues = { a = 1 }", 10, "inline tables are not supported"),
    ])
    func namesTheLineOfEachMistake(original: String, replacement: String, line: Int, message: String) {
        let broken = valid.replacingOccurrences(of: original, with: replacement)
        let error = #expect(throws: ConfigurationError.self) {
            try SourcesConfiguration(parsing: broken, file: "encore.toml")
        }
        #expect(error?.line == line, "\(error?.description ?? "")")
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
        #expect(error?.description.hasPrefix("encore.toml:\(line)") == true)
    }

    @Test func rejectsAFileWithoutSources() {
        #expect(throws: ConfigurationError.self) { try SourcesConfiguration(parsing: "# nothing\n") }
        #expect(throws: ConfigurationError.self) {
            try SourcesConfiguration(parsing: "name = \"x\"\n")
        }
    }

    let pages = """
        [[source]]
        name = "venues"
        format = "jsonld"
        urls = ["https://venue.example/calendar",
                "https://venue.example/festival"]
        follow = "https://venue.example/events/*"
        max_pages = 200
        requests_per_second = 1
        contact = "ops@example.org"
        """

    @Test func readsAPageSource() throws {
        let source = try #require(try SourcesConfiguration(parsing: pages).sources.first)
        #expect(source.isPageSource)
        #expect(source.urls.map(\.absoluteString) == ["https://venue.example/calendar", "https://venue.example/festival"])
        #expect(source.follow == "https://venue.example/events/*" && source.contact == "ops@example.org")
        #expect(source.maxPages == 200)
        let minimal = "[[source]]\nname = \"feed\"\nformat = \"ical\"\nurls = [\"https://band.example/tour.ics\"]\ncontact = \"https://ops.example\"\n"
        let feed = try #require(try SourcesConfiguration(parsing: minimal).sources.first)
        #expect(feed.maxPages == SourcesConfiguration.defaultMaxPages && feed.requestsPerSecond == 1)
    }

    @Test(arguments: [
        ("follow = \"https://venue.example/events/*\"", "follow = \"https://elsewhere.example/*\"", 6, "on the host of one of the urls"),
        ("contact = \"ops@example.org\"", "", 1, "needs contact"),
        ("urls = [\"https://venue.example/calendar\",\n        \"https://venue.example/festival\"]", "urls = []", 4, "urls is empty"),
        ("format = \"jsonld\"", "format = \"ticketmaster\"", 4, "crawled through its API"),
        ("max_pages = 200", "max_pages = 200\nbase_url = \"https://venue.example\"", 8, "applies to API sources"),
        ("\"https://venue.example/festival\"", "\"file:///etc/passwd\"", 4, "must be http(s) URLs"),
    ])
    func namesTheLineOfEachPageSourceMistake(original: String, replacement: String, line: Int, message: String) {
        let broken = pages.replacingOccurrences(of: original, with: replacement)
        let error = #expect(throws: ConfigurationError.self) {
            try SourcesConfiguration(parsing: broken, file: "encore.toml")
        }
        #expect(error?.line == line, "\(error?.description ?? "")")
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
    }

    /// `keep`: kinds of non-concerts a source keeps, on API and page sources alike.
    @Test func keepNamesKindsOfNonConcertsAndRejectsOthers() throws {
        let kept = pages + "\nkeep = [\"sports\", \"Films\"]\n"
        let source = try #require(try SourcesConfiguration(parsing: kept).sources.first)
        #expect(source.keep == [.sports, .films])
        let api = try SourcesConfiguration(parsing: valid.replacingOccurrences(of: "max_pages = 20", with: "max_pages = 20\nkeep = [\"passes\"]"))
        #expect(api.sources[0].keep == [.passes] && api.sources[1].keep.isEmpty)
        let error = #expect(throws: ConfigurationError.self) {
            try SourcesConfiguration(parsing: pages + "\nkeep = [\"sport\"]\n", file: "encore.toml")
        }
        #expect(error?.line == 10, "\(error?.description ?? "")")
        #expect(error?.description.contains("\"sport\" is none. Kinds: sports, anniversaries") == true, "\(error?.description ?? "")")
    }

    @Test func theCrawlerReadsWithTheKindsASourceKeeps() throws {
        let source = try #require(try SourcesConfiguration(parsing: pages + "\nkeep = [\"sports\"]\n").sources.first)
        let (catalog, _) = try TestSupport.makeCatalog()
        let crawler = SourceCrawler(
            source: source, apiKey: nil, fetcher: HTTPFetcher(secrets: [], sleep: { _ in }, jitter: { 0 }), ingestion: FileIngestion(),
            state: catalog, today: TestSupport.today)
        #expect(crawler.ingestion.keptKinds == [.sports])
    }

    @Test func aSourceMaySayWhereItsEventsAre() throws {
        let text = """
            [[source]]
            name = "town"
            format = "ical"
            urls = ["https://www.windsor-arts.co.uk/events.ics"]
            contact = "ops@example.org"
            country = "United Kingdom"
            place = "Windsor, GB"
            time_zone = "Europe/London"
            """
        let source = try #require(try SourcesConfiguration(parsing: text).sources.first)
        #expect(source.placeHint == PlaceEvidence(configuredCountry: "GB", configuredPlace: "Windsor, GB", configuredZone: "Europe/London"))
        let api = try #require(try SourcesConfiguration(parsing: valid.replacingOccurrences(of: "to = \"+180d\"", with: "to = \"+180d\"\ncountry = \"de\"")).sources.first)
        #expect(api.placeHint.configuredCountry == "DE")
    }

    @Test(arguments: [
        ("country = \"Atlantis\"", "country must be an ISO 3166 code"),
        ("time_zone = \"CET+1\"", "time_zone must be an IANA zone"),
    ])
    func rejectsAPlaceHintItCannotRead(line: String, message: String) {
        let broken = pages.replacingOccurrences(of: "max_pages = 200", with: "max_pages = 200\n" + line)
        let error = #expect(throws: ConfigurationError.self) { try SourcesConfiguration(parsing: broken) }
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
    }
}
