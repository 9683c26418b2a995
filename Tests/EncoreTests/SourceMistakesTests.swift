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
