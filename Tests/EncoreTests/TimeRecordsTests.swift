import Foundation
import Geo
import Ingest
import Listings
import Testing

/// Local date, local time, zone and instant of labelled records in every format, over
/// zones with DST gaps and repeats, half-hour and 45-minute offsets, southern DST and rule
/// changes (`Fixtures/times/records.json`; its expectations are computed with Python's
/// zoneinfo by `Fixtures/times/generate.py`).
struct TimeRecordsTests {
    struct Record: Decodable {
        struct Expect: Decodable {
            var date: String
            var time: String?
            var zone: String
            var utc: String?
        }
        var format: String
        var zone: String
        var `case`: String
        var page: String
        var expect: Expect
    }

    @Test func everyRecordHasTheRightLocalDateTimeZoneAndInstant() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("times/records.json")))
        let records = try JSONDecoder().decode([Record].self, from: data)
        #expect(records.count >= 700)
        let enrichment = GeoEnrichment(gazetteer: try Gazetteer.bundled())
        let window = DateWindow(from: LocalDate(iso: "2010-01-01")!, to: LocalDate(iso: "2030-12-31")!)
        var wrong: [String: [String]] = ["date": [], "time": [], "zone": [], "utc": []]
        for (index, record) in records.enumerated() {
            let ingester = try #require(IngesterRegistry.standard.ingester(named: record.format))
            let page = try ingester.parse(Data(record.page.utf8), context: PageContext(locator: "record-\(index)", window: window))
            let label = "\(index) \(record.format) \(record.zone) \(record.case)"
            guard let start = enrichment.enrich(page).events.first?.start else {
                for field in wrong.keys { wrong[field]!.append("\(label): no event") }
                continue
            }
            if start.localDate.description != record.expect.date { wrong["date"]!.append("\(label): \(start.localDate)") }
            if start.localTime?.description != record.expect.time { wrong["time"]!.append("\(label): \(start.localTime?.description ?? "none")") }
            if start.timeZone != record.expect.zone { wrong["zone"]!.append("\(label): \(start.timeZone ?? "none")") }
            if start.utc?.description != record.expect.utc { wrong["utc"]!.append("\(label): \(start.utc?.description ?? "none")") }
        }
        for field in ["date", "time", "zone", "utc"] {
            let right = Double(records.count - wrong[field]!.count) / Double(records.count)
            print("time records, \(field): \(records.count - wrong[field]!.count) of \(records.count) right")
            #expect(right >= 0.99, "\(field): \(wrong[field]!.prefix(20).joined(separator: "\n"))")
            #expect(wrong[field]!.isEmpty, "\(field): \(wrong[field]!.prefix(40).joined(separator: "\n"))")
        }
    }
}
