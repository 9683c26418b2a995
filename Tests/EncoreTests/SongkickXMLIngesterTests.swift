import Foundation
import Geo
import Ingest
import Listings
import Testing

struct SongkickXMLIngesterTests {
    let ingester = SongkickXMLIngester()

    func parse(_ xml: String, locator: String = "page.xml") throws -> ListingPage {
        try ingester.parse(Data(xml.utf8), context: PageContext(locator: locator))
    }

    func parseFixture(_ relative: String) throws -> ListingPage {
        let path = TestSupport.fixture(relative)
        return try ingester.parse(try Data(contentsOf: URL(fileURLWithPath: path)), context: PageContext(locator: path))
    }

    @Test func jsonAndXMLOfTheSameDataGiveIdenticalPages() throws {
        let context = PageContext(locator: "metro-24426-calendar")
        let jsonData = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("songkick-json/metro-24426-calendar.json")))
        let xmlData = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("songkick-xml/metro-24426-calendar.xml")))
        let fromJSON = try SongkickJSONIngester().parse(jsonData, context: context)
        let fromXML = try ingester.parse(xmlData, context: context)
        #expect(fromXML.events.count == 4)
        #expect(fromXML == fromJSON)
    }

    @Test func readsAnEventListWithLineupVenueAndMetroArea() throws {
        let page = try parseFixture("songkick-xml/metro-24426-calendar.xml")
        #expect(page.source == "songkick")
        #expect(page.paging == .init(page: 1, perPage: 50, totalEntries: 4))
        #expect(page.events.count == 4)
        let first = page.events[0]
        #expect(first.sourceID == "1001")
        #expect(first.start.localDate.description == "2027-03-14")
        #expect(first.start.localTime?.description == "19:30:00")
        #expect(first.start.utc?.description == "2027-03-14T19:30:00Z")
        #expect(first.lineup.map(\.artist.name) == ["Velvet Harbour", "Søren Lys"])
        #expect(first.lineup.map(\.billing) == [.headline, .support])
        #expect(first.lineup[0].artist.musicBrainzIDs == ["6a1f4f0e-3c55-4b7e-9d8a-2f7c1b0e9a11"])
        #expect(first.venue?.name == "Roundhouse")
        #expect(first.venue?.city == "London")
        #expect(first.venue?.country == "UK")
        #expect(first.venue?.coordinate == Coordinate(latitude: 51.5432, longitude: -0.1519))
        #expect(first.venue?.metroArea?.sourceID == "24426")
        #expect(first.ageRestriction == "14+")
        #expect(first.popularity == 0.12)
    }

    @Test func treatsEmptyAttributesAsNullAndStripsTheCancelledMarker() throws {
        let page = try parseFixture("songkick-xml/metro-24426-calendar.xml")
        let cancelled = page.events[3]
        #expect(cancelled.status == .cancelled)
        #expect(cancelled.title == "Velvet Harbour at Unknown venue (May 1, 2027)")
        // time="" and datetime="" are null, as in the JSON.
        #expect(cancelled.start.localTime == nil)
        #expect(cancelled.start.utc == nil)
        // id="" is no id: a key derived from name and place.
        #expect(cancelled.venue?.sourceID.hasPrefix("derived:") == true)
        #expect(cancelled.venue?.coordinate == nil)
    }

    @Test func treatsMissingAttributesAsNull() throws {
        let page = try parse("""
            <resultsPage status="ok"><results>
              <event id="7" displayName="A at B">
                <start date="2027-06-01"/>
                <venue displayName="B"/>
              </event>
            </results></resultsPage>
            """)
        let event = try #require(page.events.first)
        #expect(event.start.localTime == nil && event.start.utc == nil)
        #expect(event.kind == .concert && event.status == .scheduled)
        #expect(event.popularity == nil && event.url == nil && event.ageRestriction == nil)
        #expect(event.lineup.isEmpty)
        #expect(event.venue?.sourceID.hasPrefix("derived:") == true)
        #expect(page.paging == nil)
    }

    @Test func readsEventDetailsAsASingleEvent() throws {
        let page = try parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <resultsPage status="ok"><results>
              <event id="7" displayName="A at B" type="Festival">
                <start date="2027-06-01" time="" datetime=""/><end date="2027-06-03"/>
                <venue id="9" displayName="B" lat="" lng=""/>
              </event>
            </results></resultsPage>
            """)
        #expect(page.events.count == 1)
        #expect(page.events[0].kind == .festival)
        #expect(page.events[0].endDate?.description == "2027-06-03")
        #expect(page.events[0].venue?.sourceID == "9")
    }

    @Test func readsArtistSearchAndSimilarArtistsNamedByFile() throws {
        let xml = """
            <resultsPage status="ok" page="1" perPage="50" totalEntries="2"><results>
              <artist id="11" displayName="Counterparts" uri="u" onTourUntil="2027-06-20">
                <identifier mbid="4B0DD5E7-C795-42BD-8311-BC9F71FABD0A" href="h"/>
              </artist>
              <artist id="12" displayName="Counterparts Facts" onTourUntil=""/>
            </results></resultsPage>
            """
        let search = try parse(xml)
        #expect(search.artists.map(\.name) == ["Counterparts", "Counterparts Facts"])
        #expect(search.artists[0].musicBrainzIDs == ["4b0dd5e7-c795-42bd-8311-bc9f71fabd0a"])
        #expect(search.artists[0].onTourUntil?.description == "2027-06-20")
        #expect(search.artists[1].onTourUntil == nil)
        #expect(search.similarArtists == nil)

        let similar = try parse(xml, locator: "dumps/similar-artists-521019.xml")
        #expect(similar.similarArtists?.artistSourceID == "521019")
        #expect(similar.similarArtists?.similar.count == 2)
    }

    @Test func readsLocationSearchAsMetroAreas() throws {
        let page = try parse("""
            <resultsPage status="ok"><results>
              <location>
                <city displayName="St. Paul" lat="44.94" lng="-93.09"><country displayName="US"/><state displayName="MN"/></city>
                <metroArea id="35130" displayName="Twin Cities" lat="44.98" lng="-93.25"><country displayName="US"/><state displayName="MN"/></metroArea>
              </location>
              <location>
                <city displayName="South St. Paul" lat="" lng=""><country displayName="US"/></city>
                <metroArea id="35130" displayName="Twin Cities" lat="44.98" lng="-93.25"><country displayName="US"/></metroArea>
              </location>
            </results></resultsPage>
            """)
        #expect(page.metroAreas.count == 2)
        #expect(page.metroAreas[0].name == "Twin Cities")
        #expect(page.metroAreas[0].region == "MN")
        #expect(page.metroAreas[0].coordinate == Coordinate(latitude: 44.98, longitude: -93.25))
    }

    @Test func readsVenueDetailsWithValuesAsAttributesOrChildElements() throws {
        let page = try parse("""
            <resultsPage status="ok"><results>
              <venue id="17522" displayName="Roundhouse" lat="51.5432" lng="-0.1519" capacity="3300">
                <city id="24426" displayName="London"><country displayName="UK"/></city>
                <metroArea id="24426" displayName="London"><country displayName="UK"/></metroArea>
                <street>Chalk Farm Road</street>
                <zip>NW1 8EH</zip>
                <website>http://www.roundhouse.org.uk/</website>
              </venue>
            </results></resultsPage>
            """)
        let venue = try #require(page.venues.first)
        #expect(venue.sourceID == "17522")
        #expect(venue.street == "Chalk Farm Road")
        #expect(venue.postalCode == "NW1 8EH")
        #expect(venue.website == "http://www.roundhouse.org.uk/")
        #expect(venue.capacity == 3300)
        #expect(venue.city == "London")
        #expect(venue.country == "UK")
    }

    @Test func treatsEmptyResultsAsAnEmptyPage() throws {
        let page = try parse(#"<resultsPage status="ok" page="1" perPage="50" totalEntries="0"><results/></resultsPage>"#)
        #expect(page.events.isEmpty && page.artists.isEmpty && page.venues.isEmpty && page.metroAreas.isEmpty)
        #expect(page.paging == .init(page: 1, perPage: 50, totalEntries: 0))
    }

    @Test func recognizesSongkickXMLByItsRootElement() {
        #expect(ingester.recognizes(ContentSample(Data(#"<?xml version="1.0"?><resultsPage status="ok">"#.utf8))))
        #expect(ingester.recognizes(ContentSample(Data("\n  <!-- saved --><resultsPage status=\"ok\">".utf8))))
        #expect(!ingester.recognizes(ContentSample(Data(#"{"resultsPage":{"status":"ok"}}"#.utf8))))
        #expect(!ingester.recognizes(ContentSample(Data(#"<?xml version="1.0"?><lfm status="ok">"#.utf8))))
        #expect(!ingester.recognizes(ContentSample(Data(#"<?xml version="1.0"?><results>"#.utf8))))
        #expect(!SongkickJSONIngester().recognizes(ContentSample(Data(#"<resultsPage status="ok">"#.utf8))))
    }

    // MARK: - Bad input: every error names the file, the line and column, and the value's path.

    @Test(arguments: [
        ("latitude-120.xml", "line 26, ", "(resultsPage.results.event[1].venue.lat)", "latitude 120.0 is outside -90...90"),
        ("february-30.xml", "line 34, ", "(resultsPage.results.event[2].start.date)", "\"2026-02-30\" is not a date"),
        ("truncated.xml", "line 26, ", "", "not well-formed XML"),
        ("error-envelope.xml", "line 2, ", "(resultsPage.status)", "Invalid or missing apikey"),
        ("wrong-root.xml", "line 2, ", "", "the root element is <results>, not <resultsPage>"),
    ])
    func reportsBadPagesWithFileLineAndPath(file: String, line: String, valuePath: String, detail: String) throws {
        let path = TestSupport.fixture("bad/songkick-xml/\(file)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: IngestError.self) {
            try ingester.parse(data, context: PageContext(locator: path))
        }
        #expect(error?.locator == path)
        #expect(error?.position?.hasPrefix(line) == true, "\(error?.position ?? "")")
        #expect(error?.position?.hasSuffix(valuePath) == true, "\(error?.position ?? "")")
        #expect(error?.description.contains(detail) == true, "\(error?.description ?? "")")
        #expect(error?.description.hasPrefix(path) == true)
    }

    @Test func reportsTheSameValueErrorsAsTheJSONReader() throws {
        let page = { (lat: String) in
            """
            <resultsPage status="ok"><results>
              <event id="1" displayName="x"><start date="2027-01-01"/>
                <venue id="2" displayName="v" lat="\(lat)" lng="0"/>
              </event>
            </results></resultsPage>
            """
        }
        let notANumber = #expect(throws: IngestError.self) { try parse(page("north")) }
        #expect(notANumber?.reason == .invalidValue("not a number: \"north\""))
        #expect(notANumber?.position?.hasSuffix("(resultsPage.results.event[0].venue.lat)") == true)
        let outOfRange = #expect(throws: IngestError.self) { try parse(page("-91")) }
        #expect(outOfRange?.position?.hasPrefix("line 3, ") == true, "\(outOfRange?.position ?? "")")
        for start in [#"<start date="2027-01-01" time="25:00:00"/>"#, #"<start date="2027-01-01" datetime="2027-01-01T20:00:00+9900"/>"#] {
            #expect(throws: IngestError.self) {
                try parse(#"<resultsPage status="ok"><results><event id="1" displayName="x">"# + start + "</event></results></resultsPage>")
            }
        }
    }
}
