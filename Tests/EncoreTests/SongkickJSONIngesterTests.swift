import Foundation
import Geo
import Ingest
import Listings
import Testing

struct SongkickJSONIngesterTests {
    let ingester = SongkickJSONIngester()

    func parse(_ json: String, locator: String = "page.json") throws -> ListingPage {
        try ingester.parse(Data(json.utf8), context: PageContext(locator: locator))
    }

    func parseFixture(_ relative: String) throws -> ListingPage {
        let path = TestSupport.fixture(relative)
        return try ingester.parse(try Data(contentsOf: URL(fileURLWithPath: path)), context: PageContext(locator: path))
    }

    @Test func readsAnEventListWithLineupVenueAndMetroArea() throws {
        let page = try parseFixture("songkick-json/metro-24426-calendar.json")
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
        #expect(first.venue?.metroArea?.sourceID == "24426")
        #expect(first.ageRestriction == "14+")
    }

    @Test func keepsNullTimesAndStripsTheCancelledMarker() throws {
        let page = try parseFixture("songkick-json/metro-24426-calendar.json")
        let cancelled = page.events[3]
        #expect(cancelled.status == .cancelled)
        #expect(cancelled.title == "Velvet Harbour at Unknown venue (May 1, 2027)")
        #expect(cancelled.start.localTime == nil)
        #expect(cancelled.start.utc == nil)
        // No venue id: a key derived from name and place, stable across runs.
        #expect(cancelled.venue?.sourceID.hasPrefix("derived:") == true)
        #expect(cancelled.venue?.coordinate == nil)
    }

    @Test func readsEventDetailsAsASingleObject() throws {
        let page = try parse("""
            {"resultsPage":{"status":"ok","results":{"event":{"id":7,"displayName":"A at B","type":"Festival",
              "start":{"date":"2027-06-01","time":null,"datetime":null},"end":{"date":"2027-06-03"},
              "performance":[],"venue":{"id":9,"displayName":"B","lat":null,"lng":null,"metroArea":null}}}}}
            """)
        #expect(page.events.count == 1)
        #expect(page.events[0].kind == .festival)
        #expect(page.events[0].endDate?.description == "2027-06-03")
        #expect(page.events[0].lineup.isEmpty)
    }

    @Test func readsArtistSearchAndSimilarArtistsNamedByFile() throws {
        let json = """
            {"resultsPage":{"status":"ok","results":{"artist":[
              {"id":11,"displayName":"Counterparts","uri":"u","onTourUntil":"2027-06-20",
               "identifier":[{"mbid":"4B0DD5E7-C795-42BD-8311-BC9F71FABD0A"}]},
              {"id":12,"displayName":"Counterparts Facts","onTourUntil":null,"identifier":[]}]},
             "perPage":50,"page":1,"totalEntries":2}}
            """
        let search = try parse(json)
        #expect(search.artists.map(\.name) == ["Counterparts", "Counterparts Facts"])
        #expect(search.artists[0].musicBrainzIDs == ["4b0dd5e7-c795-42bd-8311-bc9f71fabd0a"])
        #expect(search.artists[0].onTourUntil?.description == "2027-06-20")
        #expect(search.similarArtists == nil)

        let similar = try parse(json, locator: "dumps/similar-artists-521019.json")
        #expect(similar.similarArtists?.artistSourceID == "521019")
        #expect(similar.similarArtists?.similar.count == 2)
    }

    @Test func readsLocationSearchAsMetroAreas() throws {
        let page = try parse("""
            {"resultsPage":{"status":"ok","results":{"location":[
              {"city":{"displayName":"St. Paul","lat":44.94,"lng":-93.09,"country":{"displayName":"US"},"state":{"displayName":"MN"}},
               "metroArea":{"id":35130,"displayName":"Twin Cities","lat":44.98,"lng":-93.25,"country":{"displayName":"US"},"state":{"displayName":"MN"}}},
              {"city":{"displayName":"South St. Paul","lat":null,"lng":null,"country":{"displayName":"US"}},
               "metroArea":{"id":35130,"displayName":"Twin Cities","lat":44.98,"lng":-93.25,"country":{"displayName":"US"}}}]}}}
            """)
        #expect(page.metroAreas.count == 2)
        #expect(page.metroAreas[0].name == "Twin Cities")
        #expect(page.metroAreas[0].region == "MN")
        #expect(page.metroAreas[0].coordinate == Coordinate(latitude: 44.98, longitude: -93.25))
    }

    @Test func treatsEmptyResultsAsAnEmptyPage() throws {
        let page = try parse(#"{"resultsPage":{"status":"ok","results":{},"perPage":50,"page":1,"totalEntries":0}}"#)
        #expect(page.events.isEmpty && page.artists.isEmpty && page.metroAreas.isEmpty)
    }

    @Test func recognizesSongkickByContentNotByName() {
        #expect(ingester.recognizes(ContentSample(Data(#"  {"resultsPage":{"status":"ok"}}"#.utf8))))
        #expect(!ingester.recognizes(ContentSample(Data(#"[{"id":"1","artist_id":"2"}]"#.utf8))))
        #expect(!ingester.recognizes(ContentSample(Data("<resultsPage status=\"ok\">".utf8))))
    }

    // MARK: - Bad input: every error names the file and the position.

    @Test(arguments: [
        ("latitude-120.json", "resultsPage.results.event[1].venue.lat", "latitude 120.0 is outside -90...90"),
        ("february-30.json", "resultsPage.results.event[2].start.date", "\"2026-02-30\" is not a date"),
        ("wrong-type.json", "resultsPage.results.event[0].performance", "performance is text; expected a list"),
        ("wrong-envelope.json", "top level", "missing key \"resultsPage\""),
        ("error-envelope.json", "resultsPage.status", "Invalid or missing apikey"),
        ("truncated.json", "line 24, column 11", "unexpected end of input"),
    ])
    func reportsBadPagesWithFileAndPosition(file: String, position: String, detail: String) throws {
        let path = TestSupport.fixture("bad/songkick-json/\(file)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: IngestError.self) {
            try ingester.parse(data, context: PageContext(locator: path))
        }
        #expect(error?.locator == path)
        #expect(error?.position == position)
        #expect(error?.description.contains(detail) == true, "\(error?.description ?? "")")
        #expect(error?.description.hasPrefix(path) == true)
    }

    @Test func readsEscapesNumbersAsTextAndSkipsWhatItDoesNotUse() throws {
        let page = try parse(#"""
            {"resultsPage":{"status":"ok","clientId":[1,{"a":[true,false,null,-1.5e3]}],"results":{"event":[
              {"id":"7","displayName":"Caf\u00e9 \ud83c\udfb8 \"Live\"\/\\","extra":{"nested":["x",{"y":null}]},
               "start":{"date":"2027-06-01"},"performance":[{"billing":"headline","artist":{"id":3,"display\u004eame":"Zo\u00eb"}}],
               "venue":{"id":9,"displayName":"B","lat":" 43.26 ","lng":"-2.93","capacity":1200}}]}}}
            """#)
        let event = try #require(page.events.first)
        #expect(event.sourceID == "7")
        #expect(event.title == "Café 🎸 \"Live\"/\\")
        #expect(event.lineup.map(\.artist.name) == ["Zoë"])
        #expect(event.venue?.coordinate == Coordinate(latitude: 43.26, longitude: -2.93))
        #expect(event.venue?.capacity == 1200)
    }

    @Test(arguments: [
        (#"{"resultsPage":{"status":"ok","results":{"event":[{"id":1,"start":{"date":"2027-01-01"},"venue":{"lat":true}}]}}}"#,
         "resultsPage.results.event[0].venue.lat", "lat is true or false; expected text"),
        (#"{"resultsPage":{"status":"ok","results":{"event":[null]}}}"#,
         "resultsPage.results.event[0]", "expected an object, found null"),
        (#"{"resultsPage":{"status":"ok","page":1.5}}"#, "resultsPage.page", "does not fit in Int"),
        (#"{"resultsPage":{"status":"ok","results":{"event":{"id":1.5}}}}"#,
         "resultsPage.results.event.id", "id is a number; expected text"),
        (#"{"resultsPage":{"results":{}}}"#, "resultsPage", "missing key \"status\""),
        (#"{"resultsPage":{"status":null}}"#, "resultsPage.status", "found null"),
        (#"{"resultsPage":{"status":"ok"}} x"#, "line 1, column 33", "unexpected content after the top-level value"),
        (#"{"resultsPage":{"status":"ok","results":{"event":"#, "line 1, column 50", "unexpected end of input"),
    ])
    func reportsAWrongValueWhereItIs(json: String, position: String, detail: String) {
        let error = #expect(throws: IngestError.self) { try parse(json) }
        #expect(error?.position == position)
        #expect(error?.description.contains(detail) == true, "\(error?.description ?? "")")
    }

    @Test func everyCutShortPageFailsWithALineAndColumn() throws {
        let path = TestSupport.fixture("songkick-json/metro-24426-calendar.json")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        // Cut inside the closing whitespace, the page is still whole.
        let whole = data.lastIndex(of: UInt8(ascii: "}"))! + 1
        for length in 0..<whole {
            let error = #expect(throws: IngestError.self) { try ingester.parse(data.prefix(length), context: PageContext(locator: path)) }
            #expect(error?.position?.hasPrefix("line ") == true, "cut at \(length): \(error?.description ?? "")")
        }
    }

    @Test func rejectsImpossibleTimesAndOffsets() throws {
        for start in [
            #"{"date":"2027-01-01","time":"25:00:00","datetime":null}"#,
            #"{"date":"2027-01-01","time":null,"datetime":"2027-01-01T20:00:00+9900"}"#,
        ] {
            #expect(throws: IngestError.self) {
                try parse(#"{"resultsPage":{"status":"ok","results":{"event":[{"id":1,"displayName":"x","start":"# + start + "}]}}}")
            }
        }
    }

    /// A page of one event on 2013-07-25 whose `start.datetime` is `datetime`.
    func parseEvent(startingAt datetime: String) throws -> ListingPage {
        try parse(#"{"resultsPage":{"status":"ok","results":{"event":[{"id":1,"displayName":"x","start":"#
            + #"{"date":"2013-07-25","time":null,"datetime":""# + datetime + #""}}]}}}"#)
    }

    @Test(arguments: [
        ("2013-07-25T12:00:00-0600", "12:00:00", "2013-07-25T18:00:00Z"),
        ("2013-07-25T23:30:00+05:30", "23:30:00", "2013-07-25T18:00:00Z"),
        ("2013-07-25T00:15:00+1400", "00:15:00", "2013-07-24T10:15:00Z"),
        ("2013-07-25T21:00:00Z", "21:00:00", "2013-07-25T21:00:00Z"),
        ("2013-07-25T21:00:00", "21:00:00", "2013-07-25T21:00:00Z"),
    ])
    func readsTheWallClockTimeAndInstantOfADateTime(datetime: String, localTime: String, utc: String) throws {
        let page = try parseEvent(startingAt: datetime)
        #expect(page.events.first?.start.localTime?.description == localTime)
        #expect(page.events.first?.start.utc?.description == utc)
    }

    @Test(arguments: [
        "2013-07-25 12:00:00-0600", "2013-07-25T12:00-0600", "2013-07-25T12:00:00-06", "2013-07-25T12:00:00-0660",
        "2013-07-25T12:00:00-1500", "2013-07-25T12:00:00~0600", "2013-07-25T12:00:00-06a0", "2013-02-30T12:00:00Z",
        "2013-07-25T1２:00:00Z", "2013-07-25T12:00:00+١٢٠٠",
    ])
    func rejectsAnUnreadableDateTimeNamingIt(datetime: String) {
        #expect {
            try parseEvent(startingAt: datetime)
        } throws: { error in
            "\(error)".contains("start.datetime")
        }
    }
}
