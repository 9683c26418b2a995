import Foundation
import Geo
@testable import Ingest
import Listings
import Testing

struct BandsintownIngesterTests {
    let ingester = BandsintownIngester()

    func parseFixture(_ relative: String) throws -> ListingPage {
        let path = TestSupport.fixture(relative)
        return try ingester.parse(try Data(contentsOf: URL(fileURLWithPath: path)), context: PageContext(locator: path))
    }

    @Test func readsAnArtistsEventsWithLineupVenueAndOffers() throws {
        let page = try parseFixture("bandsintown/artist-events-night-ferry.json")
        #expect(page.source == "bandsintown")
        #expect(page.events.map(\.sourceID) == ["1031702845", "1031702846"])
        let show = page.events[0]
        #expect(show.title == "Night Ferry, Søren Lys at The Lantern Rooms")
        #expect(show.kind == .concert)
        #expect(show.status == .scheduled)
        #expect(show.start == EventStart(localDate: LocalDate(iso: "2027-03-12")!, localTime: LocalTime(iso: "20:00")))
        // Duplicate lineup entries (any case) are one act; the first listed headlines.
        #expect(show.lineup.map(\.artist.name) == ["Night Ferry", "Søren Lys"])
        #expect(show.lineup.map(\.billing) == [.headline, .support])
        #expect(show.lineup.map(\.artist.sourceID) == ["name:night ferry", "name:søren lys"])
        // The embedded artist gives the calendar's owner its MusicBrainz id.
        #expect(show.lineup[0].artist.musicBrainzIDs == ["19ccb0f4-f511-4c39-8f39-fb22ffef02b9"])
        #expect(show.offers == [
            OfferListing(
                url: "https://www.bandsintown.com/t/1031702845?app_id=encore", status: "available",
                onSale: "2026-12-01T10:00:00"),
        ])
        let venue = try #require(show.venue)
        #expect(venue.name == "The Lantern Rooms")
        #expect(venue.street == "12 Quarry Lane")
        #expect(venue.postalCode == "02108")
        #expect(venue.city == "Boston")
        #expect(venue.region == "MA")
        #expect(venue.country == "United States")
        #expect(venue.coordinate == Coordinate(latitude: 42.3601, longitude: -71.0589))
        #expect(venue.sourceID.hasPrefix("derived:"))
    }

    @Test func readsFestivalsDateOnlyStartsAndSoldOutShows() throws {
        let festival = try parseFixture("bandsintown/artist-events-night-ferry.json").events[1]
        #expect(festival.sourceID == "1031702846")
        #expect(festival.title == "Harbour Lights Festival 2027")
        #expect(festival.kind == .festival)
        #expect(festival.start.localTime == nil, "datetime_display_rule \"date\": no time yet")
        #expect(festival.endDate == LocalDate(iso: "2027-06-20"))
        #expect(festival.venue?.coordinate == nil, "empty coordinate strings are unknown, not zero")
        #expect(festival.offers == [OfferListing(status: "sold out")])
    }

    @Test func readsArtistInfoUnderTheSameKeyAsLineups() throws {
        let page = try parseFixture("bandsintown/artist-night-ferry.json")
        #expect(page.events.isEmpty)
        #expect(page.artists == [
            ArtistListing(
                sourceID: "name:night ferry", name: "Night Ferry", musicBrainzIDs: ["19ccb0f4-f511-4c39-8f39-fb22ffef02b9"],
                url: "https://www.bandsintown.com/a/76765?came_from=267&app_id=encore"),
        ])
    }

    @Test func anEmptyListIsAnArtistWithNoUpcomingEvents() throws {
        let page = try parseFixture("bandsintown/artist-events-none.json")
        #expect(page.events.isEmpty)
    }

    @Test(arguments: [
        ("error-not-found.json", "top level", "the source reported an error: Bandsintown: [NotFound] The artist was not found"),
        ("latitude-not-a-number.json", "[0].venue.latitude", "not a number: \"north\""),
    ])
    func reportsBadPagesWithFileAndPosition(file: String, position: String, detail: String) throws {
        let path = TestSupport.fixture("bad/bandsintown/\(file)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: IngestError.self) { try ingester.parse(data, context: PageContext(locator: path)) }
        #expect(error?.position == position)
        #expect(error?.description.hasPrefix(path) == true)
        #expect(error?.description.contains(detail) == true, "\(error?.description ?? "")")
    }

    @Test func rejectsImpossibleDatesAndEndsBeforeStarts() {
        for bad in [
            #"[{"id":"1","datetime":"2027-02-30T20:00:00","lineup":["A"]}]"#,
            #"[{"id":"1","datetime":"2027-02-03T25:00:00","lineup":["A"]}]"#,
            #"[{"id":"1","datetime":"tomorrow","lineup":["A"]}]"#,
            #"[{"id":"1","lineup":["A"]}]"#,
            #"[{"datetime":"2027-02-03T20:00:00","lineup":["A"]}]"#,
            #"[{"id":"1","datetime":"2027-02-03T20:00:00","venue":{"name":"v","latitude":"91","longitude":"0"}}]"#,
        ] {
            #expect(throws: IngestError.self, "\(bad)") { try ingester.parse(Data(bad.utf8), context: PageContext(locator: "p")) }
        }
    }

    @Test func anEndBeforeTheStartCostsTheEndDateWithAWarning() throws {
        let page = try ingester.parse(
            Data(#"[{"id":"1","datetime":"2027-02-03T20:00:00","festival_start_date":"2027-02-03","festival_end_date":"2027-02-01","lineup":["A"]}]"#.utf8),
            context: PageContext(locator: "p"))
        #expect(page.events.map(\.start.localDate.description) == ["2027-02-03"])
        #expect(page.events.first?.endDate == nil)
        #expect(page.warnings.map(\.description) == ["p: at [0].festival_end_date: ends (2027-02-01) before it starts (2027-02-03); the end date is dropped"])
    }

    /// v2 (`/artists/{name}/events.json`) lists `artists` objects and a `ticket_url`.
    @Test func readsVersionTwoArtistEvents() throws {
        let v2 = #"[{"id":7,"url":"u","datetime":"2027-05-01T19:30:00","ticket_url":"https://t.example/7","ticket_status":"available","on_sale_datetime":null,"artists":[{"name":"Night Ferry","mbid":"9f1c","url":"a"},{"name":"Paper Lanterns"}],"venue":{"name":"Hall","city":"Leeds","region":"","country":"United Kingdom","latitude":53.8,"longitude":-1.55}}]"#
        #expect(ingester.recognizes(ContentSample(Data(v2.utf8))))
        let event = try #require(try ingester.parse(Data(v2.utf8), context: PageContext(locator: "p")).events.first)
        #expect(event.lineup.map(\.artist.name) == ["Night Ferry", "Paper Lanterns"])
        #expect(event.lineup.first?.artist.musicBrainzIDs == ["9f1c"])
        #expect(event.offers.map(\.url) == ["https://t.example/7"])
    }

    @Test func recognizesBandsintownResponsesAndNothingElse() throws {
        for file in ["artist-events-night-ferry.json", "artist-night-ferry.json", "artist-events-none.json"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("bandsintown/\(file)")))
            #expect(IngesterRegistry.standard.detect(ContentSample(data))?.format == "bandsintown", "\(file)")
        }
        for other in [
            "songkick-json/metro-24426-calendar.json", "lastfm-json/geo-getevents-millbrook.json",
            "ticketmaster/events-search-boston.json",
        ] {
            let path = TestSupport.fixture(other)
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            #expect(!ingester.recognizes(ContentSample(data)), "\(other)")
        }
    }
}
