import Foundation
import Geo
@testable import Ingest
import Listings
import Testing

struct SeatGeekIngesterTests {
    let ingester = SeatGeekIngester()

    func parseFixture(_ relative: String) throws -> ListingPage {
        let path = TestSupport.fixture(relative)
        return try ingester.parse(try Data(contentsOf: URL(fileURLWithPath: path)), context: PageContext(locator: path))
    }

    @Test func readsAnEventSearchKeepingConcertsAndCountingTheRest() throws {
        let page = try parseFixture("seatgeek/events-search-chicago.json")
        #expect(page.source == "seatgeek")
        #expect(page.paging == ListingPage.Paging(page: 2, perPage: 4, totalEntries: 14))
        #expect(page.events.map(\.sourceID) == ["7100201", "7100202"])
        #expect(page.skipped == ["non-concert events (sports)": 1, "events with no date yet": 1])
    }

    @Test func readsWallClockAndInstantVenueAndPrices() throws {
        let show = try parseFixture("seatgeek/events-search-chicago.json").events[0]
        #expect(show.title == "Night Ferry with Paper Lanterns")
        #expect(show.kind == .concert)
        #expect(show.status == .scheduled)
        #expect(show.start.localDate == LocalDate(iso: "2027-03-12"))
        #expect(show.start.localTime == LocalTime(iso: "20:00:00"))
        #expect(show.start.timeZone == "America/Chicago")
        #expect(show.start.utc?.description == "2027-03-13T02:00:00Z")
        #expect(show.offers == [
            OfferListing(
                url: "https://seatgeek.com/night-ferry-tickets/chicago-illinois-the-lantern-rooms-2027-03-12-8-pm/concert/7100201",
                priceMin: 31, priceMax: 118.5),
        ])
        let venue = try #require(show.venue)
        #expect(venue.sourceID == "410023")
        #expect(venue.name == "The Lantern Rooms")
        #expect(venue.street == "1200 W Quarry St")
        #expect(venue.postalCode == "60607")
        #expect(venue.city == "Chicago")
        #expect(venue.region == "IL")
        #expect(venue.country == "US")
        #expect(venue.timeZone == "America/Chicago")
        #expect(venue.coordinate == Coordinate(latitude: 41.8781, longitude: -87.6298))
        #expect(venue.url == "https://seatgeek.com/venues/the-lantern-rooms/tickets")
    }

    @Test func thePrimaryPerformerHeadlinesAndTheOthersKeepTheirOrder() throws {
        let show = try parseFixture("seatgeek/events-search-chicago.json").events[0]
        #expect(show.lineup.map(\.artist.name) == ["Night Ferry", "Paper Lanterns", "Søren Lys"])
        #expect(show.lineup.map(\.artist.sourceID) == ["88002", "88001", "88003"])
        #expect(show.lineup.map(\.billing) == [.headline, .support, .support])
        #expect(show.lineup.map(\.order) == [1, 2, 3])
    }

    @Test func aTimeToBeDecidedKeepsTheDateAndDropsThePlaceholderTime() throws {
        let show = try parseFixture("seatgeek/events-search-chicago.json").events[1]
        #expect(show.start.localDate == LocalDate(iso: "2027-03-20"))
        #expect(show.start.localTime == nil, "03:30 is SeatGeek's placeholder")
        #expect(show.start.utc == nil)
        #expect(show.offers == [OfferListing(url: show.url)], "no prices: the link alone")
    }

    @Test func readsEventDetailsOfAMultiDayFestival() throws {
        let page = try parseFixture("seatgeek/event-details-lakeside-festival.json")
        #expect(page.paging == nil)
        let festival = try #require(page.events.first)
        #expect(page.events.count == 1)
        #expect(festival.kind == .festival)
        #expect(festival.status == .postponed)
        #expect(festival.endDate == LocalDate(iso: "2027-06-20"), "04:00 UTC on the 21st is the 20th in Chicago")
        #expect(festival.venue?.coordinate == Coordinate(latitude: 43.0389, longitude: -87.9065), "numbers as text")
        #expect(festival.venue?.country == "United States")
        #expect(festival.lineup.map(\.artist.name) == ["Night Ferry", "Velvet Harbour"])
        #expect(page.artists.isEmpty, "its performers are its lineup, not a performer search")
    }

    @Test func readsVenueAndPerformerSearches() throws {
        let venues = try parseFixture("seatgeek/venues-search.json")
        #expect(venues.events.isEmpty)
        #expect(venues.venues.map(\.sourceID) == ["410023"])
        #expect(venues.venues.first?.timeZone == "America/Chicago")
        let performers = try parseFixture("seatgeek/performers-search.json")
        #expect(performers.artists.map(\.name) == ["Night Ferry", "Velvet Harbour"])
        #expect(performers.artists.first?.url == "https://seatgeek.com/night-ferry-tickets")
    }

    @Test func anEmptySearchIsAnEmptyPage() throws {
        let page = try parseFixture("seatgeek/events-search-empty.json")
        #expect(page.events.isEmpty && page.skipped.isEmpty)
        #expect(page.paging == ListingPage.Paging(page: 1, perPage: 100, totalEntries: 0))
    }

    @Test func unusableValuesCostThoseValuesNotTheEventWithAWarningEach() throws {
        let page = try parseFixture("seatgeek/events-with-unusable-values.json")
        let show = try #require(page.events.first)
        let path = TestSupport.fixture("seatgeek/events-with-unusable-values.json")
        #expect(page.warnings.map(\.description) == [
            "\(path): at events[0].venue.timezone: \"Central Time\" is not an IANA time zone; the venue's place gives it",
            "\(path): at events[0].venue.location.latitude: latitude 141.9 is outside -90...90; the venue is placed by its city",
            "\(path): at events[0].datetime_utc: \"not a time\" is not a UTC time; it is computed from the venue's zone",
        ])
        #expect(show.start.localTime == LocalTime(iso: "20:00:00"))
        #expect(show.venue?.timeZone == nil, "\"Central Time\" is not an IANA zone")
        #expect(show.venue?.coordinate == nil, "latitude 141.9 is off the globe")
        #expect(show.start.utc == nil, "\"not a time\", and no zone to compute it from")
        #expect(show.venue?.name == "The Lantern Rooms")
    }

    @Test(arguments: [
        ("error-client-required.json", "at errors: the source reported an error: SeatGeek: Client is required - visit https://seatgeek.com/account/develop (40307)"),
        ("date-does-not-exist.json", "at events[0].datetime_local: invalid value: \"2027-02-30T20:00:00\" is not a date: 2027-02-30 does not exist"),
        ("truncated.json", "malformed content"),
    ])
    func badPagesFailWithTheirFileAndPosition(file: String, message: String) throws {
        let path = TestSupport.fixture("bad/seatgeek/\(file)")
        let error = #expect(throws: IngestError.self) {
            try ingester.parse(try Data(contentsOf: URL(fileURLWithPath: path)), context: PageContext(locator: path))
        }
        #expect(error?.description.hasPrefix(path) == true)
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
    }

    @Test func everyFixtureIsDetectedAsSeatGeekByContent() throws {
        for directory in ["seatgeek", "bad/seatgeek"] {
            for file in try FileIngestion.listingFiles(at: TestSupport.fixture(directory)) where !file.hasSuffix("truncated.json") {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                #expect(IngesterRegistry.standard.detect(ContentSample(data))?.format == "seatgeek", "\(file)")
            }
        }
    }

    @Test func slugsAreWrittenTheWaySeatGeekWritesThem() {
        #expect(SeatGeekCrawlScheme.slug("Maroon 5") == "maroon-5")
        #expect(SeatGeekCrawlScheme.slug("Beyoncé") == "beyonce")
        #expect(SeatGeekCrawlScheme.slug("AC/DC") == "ac-dc")
        #expect(SeatGeekCrawlScheme.slug("Guns N' Roses") == "guns-n-roses")
        #expect(SeatGeekCrawlScheme.slug("night-ferry") == "night-ferry")
        #expect(SeatGeekCrawlScheme.slug("!!!") == "")
    }
}

/// The SeatGeek responses recorded from public repositories (`../shared/realworld`):
/// each ingests as its MANIFEST row says, the non-concerts skipped and counted.
struct SeatGeekRealWorldTests {
    @Test(.enabled(if: TestSupport.realWorld("seatgeek") != nil))
    func everyRecordedSeatGeekResponseIngestsWithTheManifestsCounts() throws {
        let rows = try TestSupport.realWorldEntries(["seatgeek"])
        #expect(rows.count >= 4)
        for row in rows {
            let path = row.path
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(IngesterRegistry.standard.detect(ContentSample(data))?.format == "seatgeek", "\(row.name)")
            let (catalog, _) = try TestSupport.makeCatalog()
            let summary = TestSupport.ingest([path], into: catalog)
            if row.kind.hasPrefix("error body") {
                // An error body is SeatGeek refusing the request: the page fails, saying why.
                #expect(row.events == 0)
                #expect(summary.failures.map(\.description) == [
                    "\(path): at errors: the source reported an error: SeatGeek: "
                        + "Client is required - visit \"https://seatgeek.com/account/develop\" (40307)",
                ])
                continue
            }
            #expect(summary.failures.map(\.description) == [], "\(row.name)")
            #expect(summary.warnings.map(\.description) == [], "\(row.name)")
            let kept = summary.eventsNew + summary.eventsMerged + summary.eventsUpdated + summary.eventsUnchanged
            #expect(kept + summary.skipped.values.reduce(0, +) == row.events, "\(row.name): \(summary.skipped)")
        }
    }

    /// What the recorded responses hold, read by hand: the one concert of each mixed search.
    @Test(.enabled(if: TestSupport.realWorld("seatgeek") != nil))
    func recordedSearchesKeepTheirConcertsOnly() throws {
        let root = try #require(TestSupport.realWorld("seatgeek"))
        func page(_ name: String) throws -> ListingPage {
            let path = root + "/" + name
            return try SeatGeekIngester().parse(try Data(contentsOf: URL(fileURLWithPath: path)), context: PageContext(locator: path))
        }
        let baseball = try page("viresh_testdata_events.json")
        #expect(baseball.events.isEmpty)
        #expect(baseball.skipped == ["non-concert events (sports)": 10])

        let brasilia = try page("zachbrown_sgresults_events.json")
        #expect(brasilia.events.map(\.title) == ["Maroon 5"])
        #expect(brasilia.events.first?.start.localTime == nil, "time_tbd: 03:30 is a placeholder")
        #expect(brasilia.events.first?.venue?.timeZone == "America/Sao_Paulo")

        let tbd = try page("localllm_events_tbd_canada.json")
        #expect(tbd.events.map(\.title) == ["Cayucas"])
        #expect(tbd.events.first?.offers.first?.priceMin == nil)
        #expect(tbd.skipped.values.reduce(0, +) == 9)
    }
}
