import Catalog
import Foundation
import Geo
import Ingest
import Listings
import Testing

/// A venue's place and zone from the evidence a feed carries beyond its address.
struct PlaceEvidenceTests {
    /// A calendar of `entries` (LOCATION, DTSTART, extra lines), read and enriched.
    static func page(
        header: String = "", entries: [(location: String, start: String)], locator: String = "feed.ics",
        hint: PlaceEvidence = PlaceEvidence(), keeping kept: Set<NonConcertKind> = []
    ) throws -> ListingPage {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + header
        for (index, entry) in entries.enumerated() {
            text += "BEGIN:VEVENT\r\nUID:e\(index)@example\r\nSUMMARY:Show \(index)\r\n\(entry.start)\r\n"
            text += "LOCATION:\(entry.location.replacingOccurrences(of: ",", with: "\\,"))\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        var page = try ICalendarIngester().parse(Data(text.utf8), context: PageContext(locator: locator, keptKinds: kept, sourceHint: hint))
        page.placeEvidence.adoptHint(hint)
        return GeoEnrichment(gazetteer: try Gazetteer.bundled()).enrich(page)
    }

    static let windsor = ("The Firestation Arts Centre, Windsor", "DTSTART:20270612T190000")

    @Test func withoutEvidenceANameIsItsMostPopulousCity() throws {
        let venue = try #require(try Self.page(entries: [Self.windsor]).events.first?.venue)
        #expect(venue.place?.countryCode == "CA")
    }

    @Test func theCalendarsZoneKeepsAnEnglishTownInEngland() throws {
        let page = try Self.page(header: "X-WR-TIMEZONE:Europe/London\r\n", entries: [Self.windsor])
        let event = try #require(page.events.first)
        #expect(event.venue?.place?.countryCode == "GB" && event.venue?.place?.name == "Windsor")
        #expect(event.start.timeZone == "Europe/London")
        #expect(event.start.localTime == LocalTime(hour: 19, minute: 0))
    }

    @Test func theWebAddressCountryPlacesIt() throws {
        let page = try Self.page(entries: [Self.windsor], locator: "https://www.firestationartscentre.co.uk/whats-on.ics")
        #expect(page.events.first?.venue?.place?.countryCode == "GB")
        // A generic domain says nothing.
        let generic = try Self.page(entries: [Self.windsor], locator: "https://windsor-gigs.io/feed.ics")
        #expect(generic.events.first?.venue?.place?.countryCode == "CA")
    }

    @Test func theSourcesCountryOrPlaceSettingPlacesIt() throws {
        let byCountry = try Self.page(entries: [Self.windsor], hint: PlaceEvidence(configuredCountry: "GB"))
        #expect(byCountry.events.first?.venue?.place?.countryCode == "GB")
        let byPlace = try Self.page(entries: [Self.windsor], hint: PlaceEvidence(configuredPlace: "Slough, GB"))
        #expect(byPlace.events.first?.venue?.place?.countryCode == "GB")
        #expect(byPlace.events.first?.start.timeZone == "Europe/London")
    }

    @Test func theFeedsOtherVenuesKeepAnAmbiguousOneInTheirCountry() throws {
        let page = try Self.page(entries: [
            ("Rock City, Nottingham, UK", "DTSTART:20270610T190000"),
            ("The Leadmill, Sheffield, UK", "DTSTART:20270611T190000"),
            Self.windsor,
        ])
        #expect(page.events.map { $0.venue?.place?.countryCode } == ["GB", "GB", "GB"])
    }

    @Test func evidenceThatDisagreesLeavesTheVenueWithoutAPositionAndWarns() throws {
        let page = try Self.page(header: "X-WR-TIMEZONE:Europe/London\r\n", entries: [("Living Arts Centre, Mississauga", "DTSTART:20270612T190000")])
        let event = try #require(page.events.first)
        #expect(event.venue?.coordinate == nil && event.venue?.place == nil)
        #expect(event.venue?.country == "GB" && event.start.timeZone == "Europe/London")
        #expect(page.warnings.contains { $0.message.contains("Mississauga") && $0.message.contains("without a position") })
    }

    @Test func aCountryOfOneZoneGivesItToATownTooSmallForTheGazetteer() throws {
        // Wacken's running order: UTC times, "Wacken, Germany".
        let page = try Self.page(entries: [("Wacken, Germany", "DTSTART:20190801T190000Z"), ("Wacken, Germany", "DTSTART:20190802T224500Z")])
        let starts = page.events.map(\.start)
        #expect(page.events.allSatisfy { $0.venue?.city == "Wacken" && $0.venue?.country == "DE" })
        #expect(starts.allSatisfy { $0.timeZone == "Europe/Berlin" })
        #expect(starts.map(\.localTime) == [LocalTime(hour: 21, minute: 0), LocalTime(hour: 0, minute: 45)])
        #expect(starts.map(\.localDate) == [LocalDate(iso: "2019-08-01"), LocalDate(iso: "2019-08-03")], "after midnight is the next day")
    }

    @Test func anExplicitTZIDIsNeverReplacedByTheNearestCitysZone() throws {
        // Lord Howe Island keeps half-hour daylight time; its nearest gazetteer city is on Sydney's clock.
        let page = try Self.page(entries: [("Lord Howe Island Public Hall, Lord Howe Island", "DTSTART;TZID=Australia/Lord_Howe:20270110T193000\r\nGEO:-31.5553;159.0821")])
        let start = try #require(page.events.first?.start)
        #expect(start.timeZone == "Australia/Lord_Howe")
        #expect(start.localTime == LocalTime(hour: 19, minute: 30))
        #expect(start.utc?.description == "2027-01-10T08:30:00Z")
    }

    @Test func aUSStateAfterATownTooSmallForTheGazetteerIsTheStatesZone() throws {
        let page = try Self.page(entries: [("Rayne, LA", "DTSTART:20270612T010000Z")])
        let event = try #require(page.events.first)
        #expect(event.venue?.country == "US" && event.venue?.region == "LA")
        #expect(event.start.timeZone == "America/Chicago")
        #expect(event.start.localDate == LocalDate(iso: "2027-06-11") && event.start.localTime == LocalTime(hour: 20, minute: 0))
    }

    /// Skipped as an online item unless the source keeps those; kept, it has no venue.
    @Test func anOnlineLocationIsNoVenue() throws {
        let entries = [("Weverse 直播", "DTSTART:20270612T110000Z")]
        let skipped = try Self.page(header: "X-WR-TIMEZONE:Asia/Seoul\r\n", entries: entries)
        #expect(skipped.events.isEmpty && skipped.skipped[NonConcertKind.online.skippedKey] == 1)
        let page = try Self.page(header: "X-WR-TIMEZONE:Asia/Seoul\r\n", entries: entries, keeping: [.online])
        let event = try #require(page.events.first)
        #expect(event.venue == nil)
        #expect(event.start.timeZone == "Asia/Seoul" && event.start.localTime == LocalTime(hour: 20, minute: 0))
    }

    @Test func explainSaysHowThePlaceAndZoneWereChosen() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(try Self.page(entries: [
            ("The Eastern, 800 Old Flat Shoals Rd SE, Atlanta, GA 30316", "DTSTART:20270612T000000Z"),
            ("Wacken, Germany", "DTSTART:20270801T190000Z"),
        ]))
        let ids = try catalog.eventIDs(since: LocalDate(iso: "2027-01-01")!)
        let places = try ids.map { try #require(try catalog.explain(eventID: $0)).place }.sorted()
        #expect(places == [
            "city Atlanta, GA, US from the address (the city's centre); zone America/New_York, the venue's",
            "no position: the address (Wacken, DE) names no city the gazetteer places; zone Europe/Berlin, the venue's",
        ])
    }
}
