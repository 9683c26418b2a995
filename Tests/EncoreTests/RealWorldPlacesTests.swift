import Foundation
import Geo
import Ingest
import Listings
import Testing

/// Where the real calendars' events land, each file alone, as a new operator would ingest it.
struct RealWorldPlacesTests {
    static let window = DateWindow(from: LocalDate(iso: "2019-01-01")!, to: LocalDate(iso: "2027-12-31")!)

    static func placed(_ name: String, format: String = "ical") throws -> ListingPage {
        let root = try #require(TestSupport.realWorld(format))
        let data = try Data(contentsOf: URL(fileURLWithPath: root).appendingPathComponent(name))
        let ingester = try #require(IngesterRegistry.standard.ingester(named: format))
        let page = try ingester.parse(data, context: PageContext(locator: name, window: window))
        return GeoEnrichment(gazetteer: try Gazetteer.bundled()).enrich(page)
    }

    @Test(.enabled(if: TestSupport.realWorld("ical") != nil))
    func survey() throws {
        let root = try #require(TestSupport.realWorld("ical"))
        for name in try FileManager.default.contentsOfDirectory(atPath: root).sorted() {
            let page = try Self.placed(name)
            var counts: [String: Int] = [:]
            for event in page.events {
                let key = "\(event.start.timeZone ?? "-") \(event.venue?.country ?? event.venue?.place?.countryCode ?? "-") \(event.venue?.place?.name ?? "-")"
                counts[key, default: 0] += 1
            }
            print("== \(name) \(page.events.count) warnings \(page.warnings.count)")
            for (key, count) in counts.sorted(by: { $0.value > $1.value }).prefix(8) { print("   \(count) \(key)") }
            for warning in page.warnings.prefix(3) { print("   W \(warning.message)") }
            for event in page.events where event.venue != nil && event.venue?.place == nil {
                print("   U \(event.venue!.name) | \(event.venue!.city ?? "-") | \(event.venue!.country ?? "-")")
            }
        }
    }
}
