import Foundation
import Geo
@testable import Ingest
import Listings
import Testing

struct TicketmasterIngesterTests {
    let ingester = TicketmasterIngester()

    func parseFixture(_ relative: String) throws -> ListingPage {
        let path = TestSupport.fixture(relative)
        return try ingester.parse(try Data(contentsOf: URL(fileURLWithPath: path)), context: PageContext(locator: path))
    }

    @Test func readsAnEventSearchKeepingMusicAndCountingTheRest() throws {
        let page = try parseFixture("ticketmaster/events-search-boston.json")
        #expect(page.source == "ticketmaster")
        #expect(page.paging == ListingPage.Paging(page: 2, perPage: 4, totalEntries: 9), "number counts from 0")
        #expect(page.events.map(\.sourceID) == ["vvG1zZ4kNmPqRs", "vvG1zZ4kCancel"])
        #expect(page.skipped == ["non-music events (Sports)": 1, "events with no date yet": 1])
    }

    /// `/venues/{id}` and `/attractions/{id}` answer one object: a venue's and an
    /// artist's details, not an error nor an empty listing.
    @Test func venueAndAttractionDetailsAreAVenueAndAnArtist() throws {
        let venuePage = try parseFixture("ticketmaster/venue-details-lantern-rooms.json")
        #expect(venuePage.events.isEmpty && venuePage.artists.isEmpty)
        let venue = try #require(venuePage.venues.first)
        #expect(venuePage.venues.count == 1)
        #expect(venue.sourceID == "KovZpZAEdFtJ" && venue.name == "The Lantern Rooms")
        #expect(venue.city == "Boston" && venue.street == "12 Quarry Lane" && venue.postalCode == "02108")
        #expect(venue.coordinate == Coordinate(latitude: 42.3601, longitude: -71.0589))
        #expect(venue.timeZone == "America/New_York")

        let artistPage = try parseFixture("ticketmaster/attraction-details-night-ferry.json")
        #expect(artistPage.events.isEmpty && artistPage.venues.isEmpty)
        let artist = try #require(artistPage.artists.first)
        #expect(artistPage.artists.count == 1)
        #expect(artist.sourceID == "K8vZ917Gku7" && artist.name == "Night Ferry")
        #expect(artist.musicBrainzIDs == ["19ccb0f4-f511-4c39-8f39-fb22ffef02b9"])
        for fixture in ["venue-details-lantern-rooms.json", "attraction-details-night-ferry.json"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("ticketmaster/\(fixture)")))
            #expect(IngesterRegistry.standard.detect(ContentSample(data))?.format == "ticketmaster", "\(fixture)")
        }
    }

    @Test func readsTimesZonesLineupVenueAndPrices() throws {
        let show = try parseFixture("ticketmaster/events-search-boston.json").events[0]
        #expect(show.title == "Night Ferry")
        #expect(show.status == .scheduled, "onsale is about tickets, not the show")
        #expect(show.start.localDate == LocalDate(iso: "2027-03-12"))
        #expect(show.start.localTime == LocalTime(iso: "20:00:00"))
        #expect(show.start.timeZone == "America/New_York")
        #expect(show.start.utc?.description == "2027-03-13T01:00:00Z")
        #expect(show.lineup.map(\.artist.name) == ["Night Ferry", "Søren Lys"])
        #expect(show.lineup.map(\.artist.sourceID) == ["K8vZ917Gku7", "K8vZ9175BhV"])
        #expect(show.lineup.map(\.billing) == [.headline, .support])
        #expect(show.lineup[0].artist.musicBrainzIDs == ["19ccb0f4-f511-4c39-8f39-fb22ffef02b9"])
        #expect(show.offers == [
            OfferListing(
                url: "https://www.ticketmaster.com/night-ferry-boston-03-12-2027/event/01005E8B", priceMin: 25,
                priceMax: 45.5, currency: "USD", status: "onsale", onSale: "2026-12-01T15:00:00Z"),
        ])
        let venue = try #require(show.venue)
        #expect(venue.sourceID == "KovZpZAEdFtJ")
        #expect(venue.name == "The Lantern Rooms")
        #expect(venue.street == "12 Quarry Lane")
        #expect(venue.city == "Boston")
        #expect(venue.region == "MA")
        #expect(venue.country == "US")
        #expect(venue.timeZone == "America/New_York")
        #expect(venue.coordinate == Coordinate(latitude: 42.3601, longitude: -71.0589))
    }

    @Test func cancelledShowsWithoutATimeKeepTheirDateAndStatus() throws {
        let show = try parseFixture("ticketmaster/events-search-boston.json").events[1]
        #expect(show.status == .cancelled)
        #expect(show.start.localDate == LocalDate(iso: "2027-04-02"))
        #expect(show.start.localTime == nil)
        #expect(show.start.utc == nil)
        #expect(show.venue == nil)
        #expect(show.offers == [OfferListing(url: "https://www.ticketmaster.com/event/02")])
    }

    @Test func readsEventDetailsOfAMultiDayFestival() throws {
        let page = try parseFixture("ticketmaster/event-details-summer-festival.json")
        #expect(page.paging == nil)
        let festival = try #require(page.events.first)
        #expect(page.events.count == 1)
        #expect(festival.kind == .festival)
        #expect(festival.status == .rescheduled)
        #expect(festival.endDate == LocalDate(iso: "2027-06-20"))
        #expect(festival.start.timeZone == "Europe/Madrid")
        #expect(festival.start.utc?.description == "2027-06-18T15:00:00Z")
        #expect(festival.venue?.timeZone == nil)
        #expect(festival.lineup.map(\.artist.name) == ["Night Ferry", "Velvet Harbour"])
    }

    @Test func anEmptySearchIsAnEmptyPage() throws {
        let page = try parseFixture("ticketmaster/events-search-empty.json")
        #expect(page.events.isEmpty)
        #expect(page.paging == ListingPage.Paging(page: 1, perPage: 20, totalEntries: 0))
    }

    @Test(arguments: [
        ("fault-invalid-key.json", "fault", "Ticketmaster: Invalid ApiKey (oauth.v2.InvalidApiKey)"),
        ("date-does-not-exist.json", "_embedded.events[0].dates.start.localDate", "\"2027-02-30\" is not a date"),
    ])
    func reportsBadPagesWithFileAndPosition(file: String, position: String, detail: String) throws {
        let path = TestSupport.fixture("bad/ticketmaster/\(file)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: IngestError.self) { try ingester.parse(data, context: PageContext(locator: path)) }
        #expect(error?.position == position)
        #expect(error?.description.hasPrefix(path) == true)
        #expect(error?.description.contains(detail) == true, "\(error?.description ?? "")")
    }

    @Test func rejectsImpossibleValues() {
        func event(_ dates: String, venue: String = "{}") -> String {
            #"{"_embedded":{"events":[{"id":"1","name":"n","dates":"# + dates + #","_embedded":{"venues":["# + venue + "]}}]}}"
        }
        for bad in [
            event(#"{"start":{"localDate":"2027-01-01","localTime":"24:30:00"}}"#),
            event(#"{"start":{"localDate":"01/02/2027"}}"#),
            event(#"{"start":{"localDate":"2027-01-01","localTime":"20:00:00","dateTime":"2027-01-01 20:00"}}"#),
            event(#"{"start":{"localDate":"2027-01-02"},"end":{"localDate":"2027-01-01"}}"#),
            event(#"{"start":{"localDate":"2027-01-02"},"timezone":"Mars/Olympus_Mons"}"#),
            event(#"{"start":{"localDate":"2027-01-02"}}"#, venue: #"{"location":{"latitude":"-95","longitude":"0"}}"#),
            #"{"errors":[{"code":"DIS1004","detail":"Resource not found with provided criteria"}]}"#,
            #"{"name":"nothing Ticketmaster would send"}"#,
        ] {
            #expect(throws: IngestError.self, "\(bad)") { try ingester.parse(Data(bad.utf8), context: PageContext(locator: "p")) }
        }
    }

    @Test func recognizesTicketmasterResponsesAndNothingElse() throws {
        for file in ["events-search-boston.json", "event-details-summer-festival.json", "events-search-empty.json"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("ticketmaster/\(file)")))
            #expect(IngesterRegistry.standard.detect(ContentSample(data))?.format == "ticketmaster", "\(file)")
        }
        let fault = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("bad/ticketmaster/fault-invalid-key.json")))
        #expect(ingester.recognizes(ContentSample(fault)))
        for other in ["songkick-json/metro-24426-calendar.json", "bandsintown/artist-night-ferry.json"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture(other)))
            #expect(!ingester.recognizes(ContentSample(data)), "\(other)")
        }
    }
}
