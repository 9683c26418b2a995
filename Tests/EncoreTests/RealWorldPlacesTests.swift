import Foundation
import Geo
import Ingest
import Listings
import Testing

/// Where the real calendars' events land, each file alone into a fresh page, as a new
/// operator would ingest it: the zone of every event and the country of every placed one.
struct RealWorldPlacesTests {
    static let window = DateWindow(from: LocalDate(iso: "2019-01-01")!, to: LocalDate(iso: "2027-12-31")!)

    static func placed(_ name: String, format: String = "ical") throws -> ListingPage {
        let root = try #require(TestSupport.realWorld(format))
        let data = try Data(contentsOf: URL(fileURLWithPath: root).appendingPathComponent(name))
        let ingester = try #require(IngesterRegistry.standard.ingester(named: format))
        let page = try ingester.parse(data, context: PageContext(locator: name, window: window))
        return GeoEnrichment(gazetteer: try Gazetteer.bundled()).enrich(page)
    }

    struct Feed: Sendable, CustomTestStringConvertible {
        var file: String
        var format = "ical"
        /// Every event's zone; nil when the feed spans several.
        var zone: String?
        /// The country of every event that has a venue.
        var country: String
        /// The share of events with a venue whose venue has a position.
        var placed: Double
        var testDescription: String { file }
    }

    /// File, format, the zone of every event (`-`: several), the country of every venue,
    /// the least share of venues with a position.
    static let feeds: [Feed] = """
        no_tromso_events_aggregator.ics ical Europe/Oslo NO 0.94
        us_nj_sports_illustrated_stadium_sports_and_concerts.ics ical America/New_York US 1
        wackenschedule-wacken-2019-filtered-running-order.ics ical Europe/Berlin DE 0
        us_la_downbeat_jazz_picks.ics ical America/Los_Angeles US 0.75
        de_burg_wilhelmstein_wuerselen_castle_events.ics ical Europe/Berlin DE 1
        nl_de_hallen_amsterdam_agenda.ics ical Europe/Amsterdam NL 0
        jp_saishumiraishoujo_idol_live_schedule.ics ical Asia/Tokyo JP 0.5
        cn_kr_idolcal_evan_official_schedule_zh.ics ical Asia/Seoul KR 0.5
        us_laramie_visitlaramie_events.ics ical America/Denver US 0.9
        hse_orchestra_concerts.ics ical Europe/Moscow RU 0
        fasnacht_rocks_events.ics ical Europe/Zurich CH 1
        suomijazz_gigpress.ics ical Europe/Helsinki FI 1
        jazz_finland_unified_gcal_rrule.ics ical Europe/Helsinki FI 0.98
        widespread_panic_tour.ics ical - US 0.8
        uk_london_songkick_microformat_musicevents_2016.json jsonld Europe/London GB 1
        """.split(separator: "\n").map { line in
        let fields = line.split(separator: " ").map(String.init)
        return Feed(file: fields[0], format: fields[1], zone: fields[2] == "-" ? nil : fields[2], country: fields[3], placed: Double(fields[4])!)
    }

    @Test(.enabled(if: TestSupport.realWorld("ical") != nil), arguments: feeds)
    func everyEventOfARealFeedIsInItsZoneAndCountry(feed: Feed) throws {
        let page = try Self.placed(feed.file, format: feed.format)
        #expect(!page.events.isEmpty)
        if let zone = feed.zone {
            let others = page.events.filter { $0.start.timeZone != zone }
            #expect(others.isEmpty, "\(others.prefix(3).map { "\($0.title): \($0.start.timeZone ?? "none")" })")
        } else {
            #expect(page.events.allSatisfy { $0.start.timeZone != nil })
        }
        let venues = page.events.compactMap(\.venue)
        let countries = venues.map { $0.place?.countryCode ?? $0.country.flatMap(CountryNames.code(for:)) }
        // One of the K-pop calendar's shows is in Osaka (its times are in Seoul's TZID, the same clock).
        let elsewhere = zip(venues, countries).filter { $0.1 != feed.country && !(feed.file.hasPrefix("cn_kr") && $0.0.city == "Osaka") }
        #expect(elsewhere.isEmpty, "\(elsewhere.prefix(3).map { "\($0.0.name): \($0.1 ?? "none")" })")
        let placed = Double(venues.filter { $0.coordinate != nil }.count) / Double(max(venues.count, 1))
        #expect(placed >= feed.placed, "\(venues.filter { $0.coordinate == nil }.prefix(5).map(\.name))")
    }

    @Test(.enabled(if: TestSupport.realWorld("ical") != nil))
    func wackensUTCRunningOrderIsOnGermanClocks() throws {
        let page = try Self.placed("wackenschedule-wacken-2019-filtered-running-order.ics")
        let slave = try #require(page.events.first { $0.title.hasPrefix("Slave to Sirens") }?.start)
        #expect(slave.timeZone == "Europe/Berlin")
        #expect(slave.localDate == LocalDate(iso: "2019-07-31") && slave.localTime == LocalTime(hour: 14, minute: 45))
        #expect(slave.utc?.description == "2019-07-31T12:45:00Z")
    }

    @Test(.enabled(if: TestSupport.realWorld("ical") != nil))
    func theStadiumsLateKickOffsAreOnTheEvenings() throws {
        // "DTSTART:20260806T233000Z": 19:30 in New Jersey.
        let page = try Self.placed("us_nj_sports_illustrated_stadium_sports_and_concerts.ics")
        let starts = page.events.map(\.start)
        #expect(starts.allSatisfy { $0.timeZone == "America/New_York" })
        #expect(starts.contains { $0.localDate == LocalDate(iso: "2026-09-05") && $0.localTime == LocalTime(hour: 18, minute: 0) })
    }
}
