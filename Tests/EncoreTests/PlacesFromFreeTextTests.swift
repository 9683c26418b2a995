import Foundation
import Geo
import Ingest
import Listings
import Testing

/// Places read from free text (`Fixtures/places/locations.tsv`): each string as a feed's
/// `LOCATION`, with the calendar zone the feed states, through ingestion and geo enrichment.
struct PlacesFromFreeTextTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var text: String
        var calendarZone: String?
        var city: String?
        var country: String?
        var zone: String?
        var testDescription: String { text }
    }

    static let rows: [Row] = {
        let path = TestSupport.fixture("places/locations.tsv")
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            func value(_ index: Int) -> String? { fields[index] == "-" ? nil : fields[index] }
            return Row(text: fields[0], calendarZone: value(1), city: value(2), country: value(3), zone: value(4))
        }
    }()

    /// The event a one-entry calendar with this `LOCATION` becomes (every kind kept: a cinema or
    /// a stream is a place to read here, and an online place shows as no venue).
    static func placed(_ location: String, calendarZone: String?, extra: String = "") throws -> EventListing {
        let escaped = location.replacingOccurrences(of: ",", with: "\\,")
        let calendar = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            \(calendarZone.map { "X-WR-TIMEZONE:\($0)\r\n" } ?? "")\(extra)BEGIN:VEVENT\r
            UID:one@example\r
            SUMMARY:Show\r
            DTSTART:20270612T190000Z\r
            LOCATION:\(escaped)\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let page = try ICalendarIngester().parse(Data(calendar.utf8), context: PageContext(locator: "places.ics", keptKinds: Set(NonConcertKind.allCases)))
        let enriched = GeoEnrichment(gazetteer: try Gazetteer.bundled()).enrich(page)
        return try #require(enriched.events.first, "\(location) skipped: \(page.skipped)")
    }

    static func outcome(_ event: EventListing) -> (city: String?, country: String?, zone: String?) {
        (event.venue?.place?.name, event.venue?.place?.countryCode ?? event.venue?.country, event.venue == nil ? nil : event.start.timeZone)
    }

    @Test func everyRowIsReadAsExpected() throws {
        #expect(Self.rows.count >= 60)
        var wrong: [String] = []
        for row in Self.rows {
            let got = Self.outcome(try Self.placed(row.text, calendarZone: row.calendarZone))
            if got.city != row.city || got.country != row.country || got.zone != row.zone {
                wrong.append("\(row.text): \(got.city ?? "-") \(got.country ?? "-") \(got.zone ?? "-")")
            }
        }
        let rate = Double(Self.rows.count - wrong.count) / Double(Self.rows.count)
        print("places from free text: \(Self.rows.count - wrong.count) of \(Self.rows.count) right (\(Int(rate * 1000)) ‰)")
        #expect(rate >= 0.95, "\(wrong.joined(separator: "\n"))")
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
    }
}
