import Foundation
import Ingest
import Testing

/// Inputs whose cost grew with the square of their size: the work each does is counted at
/// n and 4n, so a quadratic return shows as a ratio near 16 (linear is near 4). Work is
/// counted, not timed, so the tests hold on any machine, loaded or not.
struct QuadraticInputTests {
    /// The catalog's work (thousands of SQLite instructions) to ingest `file` into a
    /// catalog that already holds another source's listings (so the page is not an initial
    /// load, which skips the search for others).
    func ingestWork(_ file: URL) throws -> (work: Int, summary: IngestSummary) {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("bandsintown")], into: catalog)
        var summary = IngestSummary()
        let work = try catalog.countingWriterWork { summary = TestSupport.ingest([file.path], into: catalog) }
        return (work, summary)
    }

    /// One JSON page of `count` events at the same venue, on the same date, with the same
    /// bill, and distinct ids.
    func sameShowPage(_ count: Int) throws -> URL {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("songkick-json/metro-24426-calendar.json")))
        var root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        var page = root["resultsPage"] as! [String: Any]
        var results = page["results"] as! [String: Any]
        let event = (results["event"] as! [[String: Any]])[0]
        results["event"] = (0..<count).map { index -> [String: Any] in
            var copy = event
            copy["id"] = 500_000 + index
            return copy
        }
        page["results"] = results
        page["totalEntries"] = count
        root["resultsPage"] = page
        let file = try TestSupport.temporaryDirectory().appendingPathComponent("same-\(count).json")
        try JSONSerialization.data(withJSONObject: root).write(to: file)
        return file
    }

    /// 5k such events took 4.5 s, 10k 18.8 s, 20k 71.8 s: each looked at every one before
    /// it for another source's listing of the show.
    @Test func eventsAtOneVenueDateAndBillCostLinearTime() throws {
        let small = try ingestWork(try sameShowPage(2_000))
        let large = try ingestWork(try sameShowPage(8_000))
        #expect(small.summary.pagesApplied == 1 && large.summary.pagesApplied == 1)
        #expect(large.summary.eventsNew == 8_000)
        #expect(small.work > 0)
        #expect(large.work < 6 * small.work, "2,000: \(small.work), 8,000: \(large.work) thousand instructions")
    }

    /// An XML element with `count` attributes on a Songkick event.
    func manyAttributes(_ count: Int) throws -> URL {
        let text = try String(contentsOfFile: TestSupport.fixture("songkick-xml/metro-24426-calendar.xml"), encoding: .utf8)
        let attributes = (0..<count).map { "x\($0)=\"v\"" }.joined(separator: " ")
        let changed = text.replacingOccurrences(of: "<event id=\"1001\"", with: "<event \(attributes) id=\"1001\"")
        let file = try TestSupport.temporaryDirectory().appendingPathComponent("attributes-\(count).xml")
        try Data(changed.utf8).write(to: file)
        return file
    }

    /// libxml2's duplicate check compares every attribute with every other (400k took
    /// 40 s): more than 1,000 on an element refuse the page at once, with a clear error.
    /// The message is Encore's own scan's, made before libxml2 sees the page, so the
    /// pairwise check never runs.
    @Test func anElementWithTooManyAttributesIsRefusedAtOnce() throws {
        let allowed = try ingestWork(try manyAttributes(990))
        #expect(allowed.summary.pagesApplied == 1, "\(allowed.summary.failures)")
        for count in [50_000, 200_000] {
            let run = try ingestWork(try manyAttributes(count))
            #expect(run.summary.pagesFailed == 1)
            #expect(run.summary.failures.first?.description.contains("more than 1000 attributes") == true)
        }
    }
}
