import Foundation
import Ingest
import Listings
import Testing

/// Mistakes of sources and of operators that Encore names instead of hiding: a reused
/// iCalendar `UID`, a file of an API Encore does not read.
struct SourceMistakesTests {
    @Test func aReusedUIDKeepsEveryDateAndWarnsWithTheUID() throws {
        let path = TestSupport.fixture("mistakes/reused-uid.ics")
        let page = try ICalendarIngester().parse(
            Data(contentsOf: URL(fileURLWithPath: path)), context: PageContext(locator: path))
        #expect(page.events.map(\.sourceID) == ["residency@club.example", "residency@club.example#2027-01-12T20:00:00"])
        #expect(page.events.map(\.start.localDate.description) == ["2027-01-05", "2027-01-12"])
        #expect(page.warnings.count == 2)
        #expect(page.warnings.allSatisfy { $0.message.contains("\"residency@club.example\"") })
        #expect(page.warnings.last?.message.contains("repeats one already read") == true)
    }

    @Test(arguments: ["mistakes/jambase-v1-events.json", "mistakes/jambase-legacy-events.json"])
    func aFileOfAnAPIEncoreDoesNotReadSaysWhichAPIItLooksLike(file: String) throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        for format: String? in [nil, "jsonld"] {
            let summary = TestSupport.ingest([TestSupport.fixture(file)], into: catalog, format: format)
            #expect(summary.pagesFailed == 1)
            let message = try #require(summary.failures.first?.description)
            #expect(message.contains("looks like a JamBase response; Encore does not read JamBase"), "\(message)")
            #expect(message.contains(file))
        }
    }

    /// The signatures are specific: every fixture Encore reads still reaches its reader.
    @Test func noListingEncoreReadsLooksUnsupported() throws {
        let root = URL(fileURLWithPath: TestSupport.fixture(""))
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path)
            .filter { file in
                !file.hasPrefix("mistakes/") && !file.hasPrefix("bad/")
                    && [".json", ".jsonld", ".html", ".ics", ".xml"].contains { file.hasSuffix($0) }
            }
        #expect(files.count > 20)
        for file in files {
            let data = try Data(contentsOf: root.appendingPathComponent(file))
            #expect(UnsupportedFormat.of(ContentSample(data)) == nil, "\(file)")
        }
    }
}

/// Text past its documented length costs its tail, with a warning naming the record: a
/// 10 MB name was stored whole and copied into every feed.
struct TextLengthCapTests {
    @Test func aHugeNameTitleAndLinkAreCutOrDroppedWithWarnings() throws {
        let text = try String(contentsOfFile: TestSupport.fixture("songkick-json/metro-24426-calendar.json"), encoding: .utf8)
        let huge = String(repeating: "Velvet Harbour ", count: 70_000)
        let changed = text.replacingOccurrences(of: "\"displayName\": \"Velvet Harbour\"", with: "\"displayName\": \"\(huge)\"")
            .replacingOccurrences(of: "\"displayName\": \"Roundhouse\"", with: "\"displayName\": \"Roundhouse \(huge)\"")
            .replacingOccurrences(
                of: "\"uri\": \"http://www.songkick.com/concerts/1001-velvet-harbour-at-roundhouse\"",
                with: "\"uri\": \"http://www.songkick.com/concerts/1001?\(String(repeating: "x", count: 3_000))\"")
        #expect(changed.utf8.count > 2_000_000)
        let file = try TestSupport.temporaryDirectory().appendingPathComponent("huge-names.json")
        try Data(changed.utf8).write(to: file)
        let (catalog, path) = try TestSupport.makeCatalog()
        let summary = TestSupport.ingest([file.path], into: catalog)
        #expect(summary.pagesApplied == 1, "\(summary.failures)")
        let messages = summary.warnings.map(\.description)
        // Names are trimmed first: the repeated words' last space goes.
        #expect(messages.filter { $0.hasSuffix("at artist 301 name: cut to 300 of its 1049999 characters") }.count == 1, "\(messages)")
        #expect(messages.contains { $0.hasSuffix("at venue 17 name: cut to 300 of its 1050010 characters") })
        #expect(messages.contains { $0.hasSuffix("at event 1001 url: a link of 3038 bytes is dropped (at most 2000)") })
        let dump = try TestSupport.dump(path)
        #expect(dump.utf8.count < 1_000_000, "nothing of the names' megabytes is stored")
    }
}

/// One page's recurring events expand to at most ``ICalendarIngester/maximumOccurrencesPerPage``
/// dates: a 490 KB feed of daily rules gave 147,864 events.
struct RecurrenceCapTests {
    func hostileFeed(events: Int, rule: String) -> Data {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\n"
        for index in 0..<events {
            text += "BEGIN:VEVENT\r\nUID:daily-\(index)@hostile.example\r\nDTSTART:20270101T200000Z\r\n"
            text += "SUMMARY:Night \(index) with Tide Parades\r\nLOCATION:The Lantern Rooms, Bristol, GB\r\n\(rule)\r\nEND:VEVENT\r\n"
        }
        return Data((text + "END:VCALENDAR\r\n").utf8)
    }

    @Test(arguments: ["RRULE:FREQ=DAILY", "RRULE:FREQ=WEEKLY;COUNT=999999999"])
    func aPageOfEndlessRulesExpandsToThePagesCapWithWarnings(rule: String) throws {
        let data = hostileFeed(events: 404, rule: rule)
        let page = try ICalendarIngester().parse(data, context: PageContext(locator: "hostile.ics"))
        let recurring = page.events.filter { $0.sourceID.contains("#") }
        #expect(recurring.count == ICalendarIngester.maximumOccurrencesPerPage)
        // 13 events expand fully (13 × 366 = 4,758); the 14th gets the 242 dates left; the
        // other 390 keep their first date.
        #expect(page.events.count == ICalendarIngester.maximumOccurrencesPerPage + 390)
        let messages = page.warnings.map(\.message)
        #expect(messages.contains { $0.hasPrefix("recurring events cut at 366 dates each: \"Night 0 with Tide Parades\"") }, "\(messages)")
        #expect(messages.contains { $0.contains("recurring dates are spent") && $0.hasSuffix("and 388 more") }, "\(messages)")
    }
}
