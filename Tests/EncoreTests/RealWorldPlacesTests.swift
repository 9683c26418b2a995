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

    static let feeds: [Feed] = [
        Feed(file: "no_tromso_events_aggregator.ics", zone: "Europe/Oslo", country: "NO", placed: 0.94),
        Feed(file: "us_nj_sports_illustrated_stadium_sports_and_concerts.ics", zone: "America/New_York", country: "US", placed: 1),
        Feed(file: "wackenschedule-wacken-2019-filtered-running-order.ics", zone: "Europe/Berlin", country: "DE", placed: 0),
        Feed(file: "us_la_downbeat_jazz_picks.ics", zone: "America/Los_Angeles", country: "US", placed: 0.75),
        Feed(file: "de_burg_wilhelmstein_wuerselen_castle_events.ics", zone: "Europe/Berlin", country: "DE", placed: 1),
        Feed(file: "nl_de_hallen_amsterdam_agenda.ics", zone: "Europe/Amsterdam", country: "NL", placed: 0),
        Feed(file: "jp_saishumiraishoujo_idol_live_schedule.ics", zone: "Asia/Tokyo", country: "JP", placed: 0.5),
        Feed(file: "cn_kr_idolcal_evan_official_schedule_zh.ics", zone: "Asia/Seoul", country: "KR", placed: 0.5),
        Feed(file: "us_laramie_visitlaramie_events.ics", zone: "America/Denver", country: "US", placed: 0.9),
        Feed(file: "hse_orchestra_concerts.ics", zone: "Europe/Moscow", country: "RU", placed: 0),
        Feed(file: "fasnacht_rocks_events.ics", zone: "Europe/Zurich", country: "CH", placed: 1),
        Feed(file: "suomijazz_gigpress.ics", zone: "Europe/Helsinki", country: "FI", placed: 1),
        Feed(file: "jazz_finland_unified_gcal_rrule.ics", zone: "Europe/Helsinki", country: "FI", placed: 0.98),
        Feed(file: "widespread_panic_tour.ics", zone: nil, country: "US", placed: 0.8),
        Feed(file: "uk_london_songkick_microformat_musicevents_2016.json", format: "jsonld", zone: "Europe/London", country: "GB", placed: 1),
    ]

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
