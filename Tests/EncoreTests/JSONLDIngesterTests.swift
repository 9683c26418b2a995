import Foundation
import Geo
@testable import Ingest
import Listings
import Testing

struct JSONLDIngesterTests {
    let ingester = JSONLDIngester()

    func parse(_ text: String, locator: String = "page.jsonld") throws -> ListingPage {
        try ingester.parse(Data(text.utf8), context: PageContext(locator: locator))
    }

    func parseFixture(_ relative: String) throws -> ListingPage {
        let path = TestSupport.fixture(relative)
        return try ingester.parse(try Data(contentsOf: URL(fileURLWithPath: path)), context: PageContext(locator: path))
    }

    /// One MusicEvent with the given members (JSON text, without braces).
    func event(_ members: String) -> String {
        #"{"@context": "https://schema.org", "@type": "MusicEvent", "# + members + "}"
    }

    // MARK: - HTML pages

    @Test func readsTheEventBlockOfAVenuePageAndIgnoresTheBreadcrumbs() throws {
        let page = try parseFixture("jsonld/venue-page-lantern-rooms.html")
        #expect(page.source == "jsonld")
        // The commented-out block and the JavaScript that spells a script tag are not data.
        #expect(page.events.count == 1)
        let event = try #require(page.events.first)
        #expect(event.sourceID == "https://lanternrooms.example/events/velvet-harbour-2027-03-12#event")
        #expect(event.title == "Velvet Harbour & Søren Lys: Harbour's Edge Tour")
        #expect(event.kind == .concert)
        #expect(event.status == .scheduled)
        #expect(event.url == "https://lanternrooms.example/events/velvet-harbour-2027-03-12")
        #expect(event.ageRestriction == "18+")
        // The wall clock as written, and the instant from the offset; ends the same day.
        #expect(event.start.localDate.description == "2027-03-12")
        #expect(event.start.localTime?.description == "20:00:00")
        #expect(event.start.utc?.description == "2027-03-13T01:00:00Z")
        #expect(event.start.timeZone == nil)
        #expect(event.endDate == nil)
    }

    @Test func readsTheVenueWithItsAddressAndCoordinates() throws {
        let venue = try #require(try parseFixture("jsonld/venue-page-lantern-rooms.html").events.first?.venue)
        #expect(venue.sourceID == "https://lanternrooms.example/#venue")
        #expect(venue.name == "The Lantern Rooms")
        #expect(venue.street == "12 Quarry Lane")
        #expect(venue.postalCode == "01999")
        #expect(venue.city == "Millbrook")
        #expect(venue.region == "MA")
        #expect(venue.country == "US")
        // "latitude": "42.3601" (text) and "longitude": -71.0589 (a number) read alike.
        #expect(venue.coordinate == Coordinate(latitude: 42.3601, longitude: -71.0589))
        #expect(venue.url == "https://lanternrooms.example/")
    }

    @Test func billsTheFirstPerformerAsHeadlinerAndTakesMusicBrainzIDsFromSameAs() throws {
        let lineup = try #require(try parseFixture("jsonld/venue-page-lantern-rooms.html").events.first?.lineup)
        #expect(lineup.map(\.artist.name) == ["Velvet Harbour", "Søren Lys"])
        #expect(lineup.map(\.billing) == [.headline, .support])
        #expect(lineup.map(\.order) == [1, 2])
        #expect(lineup[0].artist.sourceID == "https://musicbrainz.org/artist/6a1f4f0e-3c55-4b7e-9d8a-2f7c1b0e9a11")
        #expect(lineup[0].artist.musicBrainzIDs == ["6a1f4f0e-3c55-4b7e-9d8a-2f7c1b0e9a11"])
        // No @id and no sameAs: the name is the id.
        #expect(lineup[1].artist.sourceID == "name:søren lys")
        #expect(lineup[1].artist.url == "https://sorenlys.example/")
    }

    @Test func readsOffersWithPricesAvailabilityAndSaleDates() throws {
        let offers = try #require(try parseFixture("jsonld/venue-page-lantern-rooms.html").events.first?.offers)
        #expect(offers == [
            OfferListing(
                url: "https://tickets.example/lantern/4100001?tier=ga&ref=ld", priceMin: 25, priceMax: 25,
                currency: "USD", status: "in stock", onSale: "2027-01-15T10:00:00-05:00"),
            OfferListing(
                url: "https://tickets.example/lantern/4100001?tier=vip", priceMin: 40, priceMax: 1250,
                currency: "USD", status: "sold out"),
        ])
    }

    @Test func treatsAPageWithoutEventBlocksAsAnEmptyPage() throws {
        let withOtherBlocks = try parse(
            """
            <!doctype html><html><head>
            <script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"The Signal Box Ltd"}</script>
            <script type='application/ld+json'>{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[]}</script>
            </head><body></body></html>
            """, locator: "about.html")
        #expect(withOtherBlocks.events.isEmpty)
        let withoutBlocks = try parse("<!DOCTYPE html><html><body><p>No shows.</p></body></html>", locator: "empty.html")
        #expect(withoutBlocks.events.isEmpty)
    }

    @Test func readsEveryEventBlockOfAPage() throws {
        let page = try parse(
            """
            <html><body>
            <script type="application/ld+json">\(event(#""name": "Night Ferry", "startDate": "2027-06-13T20:30""#))</script>
            <SCRIPT TYPE="Application/LD+JSON; charset=utf-8">
            <!--
            \(event(#""name": "Paper Lanterns", "startDate": "2027-06-20""#))
            -->
            </SCRIPT>
            </body></html>
            """, locator: "listing.html")
        #expect(page.events.map(\.title) == ["Night Ferry", "Paper Lanterns"])
    }

    // MARK: - Graphs, arrays and envelopes

    @Test func resolvesPlacesAndPerformersReferencedByIDInAGraph() throws {
        let page = try parseFixture("jsonld/events-graph-signal-box.jsonld")
        // Organization, MusicVenue, MusicGroup and WebSite nodes are not events.
        #expect(page.events.count == 5)
        let first = page.events[0]
        #expect(first.sourceID == "https://signalbox.example/events/night-ferry-2027-06-13")
        #expect(first.venue?.sourceID == "https://signalbox.example/#venue")
        #expect(first.venue?.name == "The Signal Box")
        #expect(first.venue?.city == "Eastholm")
        #expect(first.venue?.coordinate == Coordinate(latitude: 52.6309, longitude: 1.2974))
        #expect(first.lineup.map(\.artist.sourceID) == ["https://signalbox.example/artists/night-ferry"])
        #expect(first.lineup.first?.artist.musicBrainzIDs == ["0f3e1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b"])
        #expect(first.start.utc?.description == "2027-06-13T19:30:00Z")
        // "£14.50" names its currency.
        #expect(first.offers == [OfferListing(priceMin: 14.5, priceMax: 14.5, currency: "GBP", status: "limited availability")])
    }

    @Test func readsCancelledAndPostponedStatuses() throws {
        let page = try parseFixture("jsonld/events-graph-signal-box.jsonld")
        #expect(page.events.map(\.status) == [.scheduled, .cancelled, .scheduled, .postponed, .scheduled])
        for (written, status) in [
            ("EventCancelled", EventStatus.cancelled), ("https://schema.org/EventCancelled", .cancelled),
            ("http://schema.org/EventPostponed", .postponed), ("schema:EventRescheduled", .rescheduled),
            ("EventScheduled", .scheduled), ("https://schema.org/EventMovedOnline", .scheduled),
        ] {
            let page = try parse(event(#""name": "x", "startDate": "2027-01-01", "eventStatus": "\#(written)""#))
            #expect(page.events.first?.status == status, "\(written)")
        }
        #expect(throws: IngestError.self) {
            try parse(event(#""name": "x", "startDate": "2027-01-01", "eventStatus": "EventMaybe""#))
        }
    }

    @Test func listsEachDateOfAnEventSeriesWithWhatTheSeriesSays() throws {
        let page = try parseFixture("jsonld/events-graph-signal-box.jsonld")
        let dates = page.events.filter { $0.sourceID.contains("/series/jazz-tuesdays/") }
        #expect(dates.map(\.start.localDate.description) == ["2027-07-06", "2027-07-13"])
        #expect(dates.allSatisfy { $0.title == "Signal Box Jazz Tuesdays" })
        #expect(dates.allSatisfy { $0.venue?.sourceID == "https://signalbox.example/#venue" })
        #expect(dates.allSatisfy { $0.lineup.map(\.artist.name) == ["The Eastholm Quartet"] })
        // The series itself is not an event.
        #expect(!page.events.contains { $0.sourceID == "https://signalbox.example/series/jazz-tuesdays" })
    }

    @Test func marksFestivalsAndKeepsTheirLastDay() throws {
        let page = try parseFixture("jsonld/events-graph-signal-box.jsonld")
        let festival = try #require(page.events.last)
        #expect(festival.kind == .festival)
        #expect(festival.title == "Eastholm Harbour Festival")
        #expect(festival.start.localDate.description == "2027-08-14")
        #expect(festival.start.localTime == nil)
        #expect(festival.endDate?.description == "2027-08-15")
        #expect(festival.lineup.map(\.artist.name) == ["Night Ferry", "Velvet Harbour"])
        #expect(festival.offers == [OfferListing(priceMin: 0, priceMax: 0, currency: "GBP")])
        #expect(page.events.filter { $0.kind == .festival }.count == 1)
    }

    @Test(arguments: [
        #""MusicEvent""#, #""Event""#, #"["Event", "MusicEvent"]"#, #""schema:MusicEvent""#,
        #""http://schema.org/MusicEvent""#, #""https://schema.org/Event""#,
    ])
    func readsEventTypesWrittenAnyWay(type: String) throws {
        let page = try parse(#"{"@context": "https://schema.org", "@type": \#(type), "name": "x", "startDate": "2027-01-01"}"#)
        #expect(page.events.count == 1)
        #expect(page.events.first?.kind == .concert)
    }

    @Test func readsAnArrayOfEventsAndAnAPIEnvelope() throws {
        let one = event(#""name": "Night Ferry", "startDate": "2027-06-13""#)
        let two = event(#""name": "Paper Lanterns", "startDate": "2027-06-20""#)
        #expect(try parse("[\(one), \(two)]").events.count == 2)
        #expect(try parse(#"{"data": [\#(one), \#(two)], "page": "1"}"#).events.count == 2)
        #expect(try parse(#"{"data": [], "page": "1"}"#).events.isEmpty)
        let error = #expect(throws: IngestError.self) { try parse(#"{"name": "not JSON-LD"}"#) }
        #expect(error?.description.contains("unexpected shape") == true)
    }

    @Test func readsEventsListedByAVenueOrInAnItemList() throws {
        let venue = try parse(
            #"""
            {"@context": "https://schema.org", "@type": "MusicVenue", "name": "The Signal Box",
             "address": {"@type": "PostalAddress", "addressLocality": "Eastholm", "addressCountry": "GB"},
             "event": [{"@type": "MusicEvent", "name": "Night Ferry", "startDate": "2027-06-13"}]}
            """#)
        #expect(venue.events.first?.venue?.name == "The Signal Box")
        #expect(venue.events.first?.venue?.city == "Eastholm")
        let list = try parse(
            #"""
            {"@context": "https://schema.org", "@type": "ItemList", "itemListElement": [
              {"@type": "ListItem", "position": 1, "item": {"@type": "MusicEvent", "name": "Night Ferry", "startDate": "2027-06-13"}},
              {"@type": "ListItem", "position": 2, "item": {"@type": "MusicEvent", "name": "Paper Lanterns", "startDate": "2027-06-20"}}]}
            """#)
        #expect(list.events.map(\.title) == ["Night Ferry", "Paper Lanterns"])
    }

    // MARK: - Ids

    @Test func derivesAStableIDWhenAnEventHasNoIDOrURL() throws {
        func id(name: String, start: String, venue: String) throws -> String? {
            try parse(event(#""name": "\#(name)", "startDate": "\#(start)", "location": {"@type": "Place", "name": "\#(venue)"}"#))
                .events.first?.sourceID
        }
        let first = try id(name: "Night Ferry", start: "2027-06-13T20:30", venue: "The Signal Box")
        #expect(first?.hasPrefix("derived:") == true)
        #expect(try id(name: "Night Ferry", start: "2027-06-13T20:30", venue: "The Signal Box") == first)
        #expect(try id(name: "Night Ferry", start: "2027-06-14T20:30", venue: "The Signal Box") != first)
        #expect(try id(name: "Night Ferry", start: "2027-06-13T20:30", venue: "The Lantern Rooms") != first)
        // A page-local @id ("#event", "_:b0") is not an id beyond the page; a URL is.
        let local = try parse(event(##""@id": "#event", "name": "x", "startDate": "2027-01-01""##))
        #expect(local.events.first?.sourceID.hasPrefix("derived:") == true)
        let url = try parse(event(#""@id": "_:b0", "url": "https://x.example/e/1", "name": "x", "startDate": "2027-01-01""#))
        #expect(url.events.first?.sourceID == "https://x.example/e/1")
        let identifier = try parse(event(#""identifier": "urn:uuid:0d5b3c52-9f7e-4f1c-8e0a-6f2d9b7c1a33", "name": "x", "startDate": "2027-01-01""#))
        #expect(identifier.events.first?.sourceID == "urn:uuid:0d5b3c52-9f7e-4f1c-8e0a-6f2d9b7c1a33")
    }

    @Test func givesEventsThatShareThePageURLTheirOwnIDsAndListsRepeatsOnce() throws {
        let first = event(#""url": "https://signalbox.example/whats-on", "name": "Night Ferry", "startDate": "2027-06-13""#)
        let second = event(#""url": "https://signalbox.example/whats-on", "name": "Paper Lanterns", "startDate": "2027-06-20""#)
        let page = try parse("[\(first), \(second), \(first)]")
        #expect(page.events.map(\.title) == ["Night Ferry", "Paper Lanterns"])
        #expect(page.events.allSatisfy { $0.sourceID.hasPrefix("derived:") })
        #expect(page.events.allSatisfy { $0.url == "https://signalbox.example/whats-on" })
        let repeated = try parse("[\(first), \(first)]")
        #expect(repeated.events.map(\.sourceID) == ["https://signalbox.example/whats-on"])
    }

    @Test func readsPlainStringAddressesAndLocationsGivenAsNames() throws {
        let page = try parse(event(#"""
            "name": "x", "startDate": "2027-01-01",
            "location": {"@type": "Place", "name": "The Signal Box", "address": "3 Station Road, Eastholm, "}
            """#))
        let venue = try #require(page.events.first?.venue)
        #expect(venue.street == "3 Station Road")
        #expect(venue.city == "Eastholm")
        #expect(venue.sourceID.hasPrefix("derived:"))
        // A German address: street, then postcode and city.
        let german = try parse(event(#""name": "x", "startDate": "2027-01-01", "location": {"name": "V", "address": "Hauptstraße 5, 10115 Berlin"}"#))
        #expect(german.events.first?.venue?.street == "Hauptstraße 5")
        #expect(german.events.first?.venue?.postalCode == "10115" && german.events.first?.venue?.city == "Berlin")
        // Text that names no place stays whole, as the street.
        let unclear = try parse(event(#""name": "x", "startDate": "2027-01-01", "location": {"name": "V", "address": "Behind the old mill"}"#))
        #expect(unclear.events.first?.venue?.street == "Behind the old mill")
        #expect(unclear.events.first?.venue?.city == nil)
        let named = try parse(event(#""name": "x", "startDate": "2027-01-01", "location": "The Lantern Rooms""#))
        #expect(named.events.first?.venue?.name == "The Lantern Rooms")
        let online = try parse(event(#""name": "x", "startDate": "2027-01-01", "location": {"@type": "VirtualLocation", "url": "https://stream.example"}"#))
        #expect(online.events.first?.venue == nil)
    }

    // MARK: - Dates

    @Test(arguments: [
        ("2024-11-23T8:30PM:00", "2024-11-23", "20:30:00", nil),
        ("2024-11-23T8:30 p.m.", "2024-11-23", "20:30:00", nil),
        ("2024-11-23T12:15AM", "2024-11-23", "00:15:00", nil),
        ("2024-11-23", "2024-11-23", nil, nil),
        ("2024-11-23T20:30", "2024-11-23", "20:30:00", nil),
        ("2024-11-23 20:30:00", "2024-11-23", "20:30:00", nil),
        ("2024-1-5T9:05:00", "2024-01-05", "09:05:00", nil),
        ("2025-02-22T20:30:00-0600", "2025-02-22", "20:30:00", "2025-02-23T02:30:00Z"),
        ("2027-06-13T20:30:00+01:00", "2027-06-13", "20:30:00", "2027-06-13T19:30:00Z"),
        ("2027-06-13T19:30:00.000Z", "2027-06-13", "19:30:00", "2027-06-13T19:30:00Z"),
    ] as [(String, String, String?, String?)])
    func readsDatesThatAreUnambiguousEvenWhenMalformed(written: String, date: String, time: String?, utc: String?) throws {
        let start = try #require(try parse(event(#""name": "x", "startDate": "\#(written)""#)).events.first?.start)
        #expect(start.localDate.description == date)
        #expect(start.localTime?.description == time)
        #expect(start.utc?.description == utc)
    }

    @Test(arguments: [
        ("2026-02-30", "2026-02-30 does not exist"),
        ("11/23/2024", "is not an ISO 8601 date"),
        ("23 November 2024", "is not an ISO 8601 date"),
        ("2024-11-23T25:00", "out of range"),
        ("2024-11-23T20:30 AM", "contradictory"),
        ("2024-11-23T8", "an hour without minutes"),
        ("2024-11-23T20:00:00+15:00", "impossible UTC offset"),
        ("2024-11-23T20:00:00 tomorrow", "is not an ISO 8601 date"),
        ("", "an event without a start date"),
    ])
    func rejectsDatesThatCannotBeUnderstood(written: String, detail: String) throws {
        let error = #expect(throws: IngestError.self) {
            try parse(event(#""name": "x", "startDate": "\#(written)""#))
        }
        #expect(error?.position == "startDate")
        #expect(error?.description.contains(detail) == true, "\(error?.description ?? "")")
    }

    @Test func keepsTheLastDayOnlyForEventsThatRunOverDays() throws {
        func end(_ start: String, _ end: String) throws -> String? {
            try parse(event(#""name": "x", "startDate": "\#(start)", "endDate": "\#(end)""#)).events.first?.endDate?.description
        }
        #expect(try end("2027-06-13T20:00", "2027-06-13T23:00") == nil)
        #expect(try end("2027-06-13T23:00", "2027-06-14T04:00") == nil)  // one night
        #expect(try end("2027-06-13", "2027-06-15") == "2027-06-15")
        let error = #expect(throws: IngestError.self) { try end("2027-06-13", "2027-06-12") }
        #expect(error?.position == "endDate")
    }

    // MARK: - Prices

    @Test(arguments: [
        ("20", 20.0, 20.0, nil),
        ("35.00", 35, 35, nil),
        ("1.250", 1.25, 1.25, nil),
        ("35.", 35, 35, nil),
        ("$1,250.00", 1250, 1250, nil),
        ("1,250", 1250, 1250, nil),
        ("12,50 €", 12.5, 12.5, "EUR"),
        ("1.234,50 EUR", 1234.5, 1234.5, "EUR"),
        ("USD 35", 35, 35, "USD"),
        ("£14.50", 14.5, 14.5, "GBP"),
        ("20 - 35", 20, 35, nil),
        ("Free", 0, 0, nil),
    ] as [(String, Double, Double, String?)])
    func readsPricesWrittenAsText(written: String, low: Double, high: Double, currency: String?) throws {
        #expect(try JSONLDPrice.parse(written) == JSONLDPrice.Parsed(low: low, high: high, currency: currency))
    }

    @Test(arguments: ["-5", "$ -20", "1,23,4", "2 for 30", "1.234.5", "20 or 30"])
    func rejectsPricesThatCannotBeRead(written: String) throws {
        let error = #expect(throws: IngestError.self) {
            try parse(event(#""name": "x", "startDate": "2027-01-01", "offers": {"price": "\#(written)"}"#))
        }
        #expect(error?.position == "offers.price")
    }

    @Test func readsTextWithoutANumberAsNoPrice() throws {
        #expect(try JSONLDPrice.parse("TBA") == nil)
        #expect(try JSONLDPrice.parse("  ") == nil)
        let page = try parse(event(#"""
            "name": "x", "startDate": "2027-01-01",
            "offers": {"url": "https://tickets.example/1", "price": "see website", "availability": {"@id": "https://schema.org/PreOrder"}}
            """#))
        #expect(page.events.first?.offers == [OfferListing(url: "https://tickets.example/1", status: "pre order")])
    }

    @Test func readsNumericPricesAndRejectsNegativeOnesAndInvertedRanges() throws {
        let page = try parse(event(#""name": "x", "startDate": "2027-01-01", "offers": [{"price": 35.5, "priceCurrency": "usd"}, {"lowPrice": 10, "highPrice": "25"}]"#))
        #expect(page.events.first?.offers == [
            OfferListing(priceMin: 35.5, priceMax: 35.5, currency: "USD"), OfferListing(priceMin: 10, priceMax: 25),
        ])
        #expect(throws: IngestError.self) { try parse(event(#""name": "x", "startDate": "2027-01-01", "offers": {"price": -1}"#)) }
        #expect(throws: IngestError.self) {
            try parse(event(#""name": "x", "startDate": "2027-01-01", "offers": {"lowPrice": 40, "highPrice": 20}"#))
        }
    }

    // MARK: - Errors

    @Test(arguments: [
        ("latitude-120.jsonld", "@graph[0].geo.latitude", "latitude 120.0 is outside -90...90"),
        ("february-30.jsonld", "[1].startDate", "2026-02-30 does not exist"),
        ("wrong-type-location.jsonld", "location", "unexpected shape: location is a number"),
        ("malformed-script.html", "line 15, column 5", "malformed content: in the ld+json block starting on line 10"),
    ])
    func reportsBadPagesWithFileAndPosition(file: String, position: String, detail: String) throws {
        let path = TestSupport.fixture("bad/jsonld/\(file)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: IngestError.self) {
            try ingester.parse(data, context: PageContext(locator: path))
        }
        #expect(error?.locator == path)
        #expect(error?.position == position)
        #expect(error?.description.contains(detail) == true, "\(error?.description ?? "")")
        #expect(error?.description.hasPrefix(path) == true)
    }

    @Test func reportsBadValuesInHTMLAtTheirLineAndColumn() throws {
        let error = #expect(throws: IngestError.self) {
            try parse(
                """
                <html><head>
                <script type="application/ld+json">
                {"@type": "MusicEvent", "name": "x", "startDate": "2027-01-01",
                 "location": {"name": "V", "geo": {"latitude": 12, "longitude": 500}}}
                </script>
                </head></html>
                """, locator: "venue.html")
        }
        #expect(error?.position == "line 4, column 65 (location.geo.longitude)")
        #expect(error?.description.contains("longitude 500.0 is outside -180...180") == true)
    }

    @Test func aBadValueInALaterBlockIsNamedByItsPathWithinThatBlock() throws {
        let error = #expect(throws: IngestError.self) {
            try parse(
                """
                <html><head>
                <script type="application/ld+json">{"@type": "WebSite", "name": "Lantern Rooms"}</script>
                <script type="application/ld+json">
                {"@graph": [{"@type": "WebPage"},
                  {"@type": "MusicEvent", "name": "x", "startDate": "2027-01-01",
                   "performer": [{"name": "A"}, 7]}]}
                </script>
                </head></html>
                """, locator: "venue.html")
        }
        #expect(error?.position == "line 6, column 33 (@graph[1].performer[1])")
    }

    @Test func rejectsValuesOfTheWrongType() throws {
        for members in [
            #""name": "x", "startDate": "2027-01-01", "performer": 7"#,
            #""name": "x", "startDate": "2027-01-01", "offers": true"#,
            #""name": "x", "startDate": 20270101"#,
            #""name": "x", "startDate": "2027-01-01", "location": {"name": "V", "geo": "52.6,1.3"}"#,
            #""name": "x", "startDate": "2027-01-01", "location": {"name": "V", "geo": {"latitude": "north", "longitude": 1}}"#,
        ] {
            #expect(throws: IngestError.self, "\(members)") { try parse(event(members)) }
        }
    }

    // MARK: - Detection

    @Test func aSampleFindsTextByteForByteOrIgnoringCase() {
        let sample = ContentSample(Data("<HTML><Script TYPE=\"application/LD+json\">".utf8))
        #expect(sample.contains("<HTML>") && !sample.contains("<html>"))
        #expect(sample.contains("<html>", ignoringCase: true))
        #expect(sample.contains("application/ld+json", ignoringCase: true))
        #expect(sample.contains("json\">") && !sample.contains("json\">x"))
        #expect(sample.contains("") && !ContentSample(Data()).contains("a"))
    }

    @Test func textIsTrimmedCollapsedAndUnescapedOnlyWhenItNeedsIt() {
        #expect(JSONLDText.clean("Rock &amp; Roll") == "Rock & Roll")
        #expect(JSONLDText.clean("  The   Distillers\n") == "The Distillers")
        #expect(JSONLDText.clean("Sigur\u{A0}Rós") == "Sigur Rós")
        #expect(JSONLDText.clean("Low") == "Low")
        #expect(JSONLDText.clean(" ") == nil && JSONLDText.clean("") == nil)
    }

    /// Text that looks clean is returned as it is; everything else is cleaned character
    /// by character. Both ways must agree, for every character of the basic plane
    /// beside letters, spaces and another of its kind.
    @Test func cleanTextIsWhatCleaningItCharacterByCharacterGives() {
        var differing: [String] = []
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for text in ["a\(scalar)b", "Sigur \(scalar)Rós", "\(scalar)", "x \(scalar)\(scalar) y", "Ølhal\(scalar)"]
            where JSONLDText.clean(text) != JSONLDText.cleanedCharacterByCharacter(text) {
                differing.append(String(value, radix: 16))
            }
        }
        #expect(differing.isEmpty, "U+\(differing.prefix(10))")
    }

    @Test func aMusicBrainzLinkGivesItsIDInLowerCase() {
        let id = "6a1f4f0e-3c55-4b7e-9d8a-2f7c1b0e9a11"
        #expect(JSONLDNormalizer.musicBrainzID(in: "https://musicbrainz.org/artist/\(id)") == id)
        #expect(JSONLDNormalizer.musicBrainzID(in: "https://MusicBrainz.org/artist/\(id.uppercased())/") == id)
        #expect(JSONLDNormalizer.musicBrainzID(in: "https://musicbrainz.org/artist/\(id.dropLast())") == nil)
        #expect(JSONLDNormalizer.musicBrainzID(in: "https://musicbrainz.org/artist/\(id.replacingOccurrences(of: "-", with: "_"))") == nil)
        #expect(JSONLDNormalizer.musicBrainzID(in: "https://musicbrainz.org/artist/g\(id.dropFirst())") == nil)
        #expect(JSONLDNormalizer.musicBrainzID(in: "https://musicbrainz.org/release/\(id)") == nil)
    }

    @Test func recognizesJSONLDAndHTMLPagesButNotOtherSources() {
        for text in [
            #"{"@context": "https://schema.org", "@type": "MusicEvent"}"#,
            #"  [{"@context":"http:\/\/schema.org","@graph":[]}]"#,
            #"{"@type": ["Event", "schema:MusicEvent"], "name": "x"}"#,
            #"{"data": [{"@context": "http://schema.org", "@type": "MusicEvent"}], "page": "1"}"#,
            "<!DOCTYPE html><html><head><script type=\"application/ld+json\">",
            "<!doctype html>\n<html lang=\"en\"><head><title>x</title>",
        ] {
            #expect(ingester.recognizes(ContentSample(Data(text.utf8))), "\(text)")
        }
        for text in [
            #"{"resultsPage":{"status":"ok","results":{"event":[{"@type":"MusicEvent"}]}}}"#,
            #"{"_embedded":{"events":[{"type":"event","@context":"https://schema.org"}]}}"#,
            #"{"events":{"event":[{"id":"1"}],"@attr":{"page":"1"}}}"#,
            #"[{"id":"1","artist_id":"2","datetime":"2027-01-01T20:00:00","on_sale_datetime":""}]"#,
            #"{"name": "no types here"}"#,
            "<?xml version=\"1.0\"?><lfm status=\"ok\"><events/></lfm>",
            "<resultsPage status=\"ok\">",
        ] {
            #expect(!ingester.recognizes(ContentSample(Data(text.utf8))), "\(text)")
        }
    }

    // MARK: - Recorded pages

    /// Every recorded JSON-LD page in `../shared/realworld` is detected as JSON-LD and
    /// parses, with the number of events MANIFEST.tsv gives.
    @Test(.enabled(if: TestSupport.realWorld("jsonld") != nil))
    func everyRecordedJSONLDPageParses() throws {
        let registry = IngesterRegistry.standard
        let entries = try TestSupport.realWorldEntries(["jsonld"])
        #expect(entries.count >= 4)
        for entry in entries {
            let data = try Data(contentsOf: URL(fileURLWithPath: entry.path))
            let detected = registry.detect(ContentSample(data))
            #expect(detected?.format == "jsonld", "\(entry.name)")
            do {
                let page = try ingester.parse(data, context: PageContext(locator: entry.path))
                #expect(page.events.count == entry.events, "\(entry.name)")
                #expect(page.events.allSatisfy { $0.venue != nil }, "\(entry.name)")
                #expect(Set(page.events.map(\.sourceID)).count == page.events.count, "\(entry.name)")
            } catch {
                Issue.record("\(entry.name): \(error)")
            }
        }
    }

    @Test(.enabled(if: TestSupport.realWorld("jsonld") != nil))
    func readsTheRecordedPagesQuirks() throws {
        let root = try #require(TestSupport.realWorld("jsonld"))
        func page(_ name: String) throws -> ListingPage {
            let path = URL(fileURLWithPath: root).appendingPathComponent(name).path
            return try ingester.parse(try Data(contentsOf: URL(fileURLWithPath: path)), context: PageContext(locator: path))
        }
        // "startDate": "2024-11-23T8:30PM:00", in an @graph with escaped slashes.
        let sleepingVillage = try #require(try page("goskyr-sleeping-village-black-american-beauty.jsonld").events.first)
        #expect(sleepingVillage.start.localDate.description == "2024-11-23")
        #expect(sleepingVillage.start.localTime?.description == "20:30:00")
        #expect(sleepingVillage.start.utc == nil)
        #expect(sleepingVillage.venue?.street == "3734 W Belmont Ave")
        #expect(sleepingVillage.sourceID.hasPrefix("derived:"))
        // An offset without a colon; the address as one string; a price as text.
        let hideout = try #require(try page("goskyr-hideoutchicago-early-james-event.jsonld").events.first)
        #expect(hideout.start.utc?.description == "2025-02-23T02:30:00Z")
        #expect(hideout.venue?.street == "1354 West Wabansia Ave")
        #expect(hideout.venue?.city == "Chicago")
        #expect(hideout.offers.first?.priceMin == 20)
        // A date-only two-day pass among dated shows.
        let fredAgain = try page("concertmate-tm-ldjson-fred-again.jsonld")
        let pass = try #require(fredAgain.events.first { $0.endDate != nil })
        #expect(pass.start.localTime == nil)
        #expect(pass.endDate?.description == "2024-09-29")
        // The envelope's events have no ids: each gets its own derived key.
        let edSheeran = try page("findmyband-rapidapi-concerts-tracker-edsheeran.json")
        #expect(edSheeran.events.allSatisfy { $0.sourceID.hasPrefix("derived:") })
        #expect(edSheeran.events.contains { $0.lineup.count == 3 })
    }

    /// Other sources' recorded responses are never taken for JSON-LD.
    @Test(.enabled(if: TestSupport.realWorld("jsonld") != nil))
    func doesNotClaimOtherSourcesRecordedResponses() throws {
        let realWorld = URL(fileURLWithPath: try #require(TestSupport.realWorld("jsonld"))).deletingLastPathComponent()
        let files = try FileManager.default.subpathsOfDirectory(atPath: realWorld.path)
            .filter { $0.contains("/") && !$0.hasPrefix("jsonld/") && ($0.hasSuffix(".json") || $0.hasSuffix(".xml")) }
        #expect(!files.isEmpty)
        for file in files {
            let data = try Data(contentsOf: realWorld.appendingPathComponent(file))
            #expect(!ingester.recognizes(ContentSample(data)), "\(file)")
        }
    }
}
