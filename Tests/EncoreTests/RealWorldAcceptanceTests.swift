import Catalog
import Foundation
import Ingest
import Testing

/// Real responses recorded from public APIs (`../shared/realworld`): every one in a
/// format Encore reads must ingest without error.
struct RealWorldAcceptanceTests {
    @Test(.enabled(if: TestSupport.realWorld("songkick-json") != nil))
    func everyRecordedSongkickResponseIngests() throws {
        let directory = try #require(TestSupport.realWorld("songkick-json"))
        let (catalog, path) = try TestSupport.makeCatalog()
        let entries = try TestSupport.realWorldEntries(["songkick-json"])
        let summary = TestSupport.ingest([directory], into: catalog)
        #expect(summary.failures.map(\.description) == [])
        #expect(summary.pagesApplied == entries.count)
        let records = summary.eventsNew + summary.eventsMerged + summary.eventsUpdated + summary.eventsUnchanged
        // A venue-details page counts its one venue.
        #expect(records == entries.filter { $0.kind != "venue-details" }.map(\.events).reduce(0, +))
        // The event-details page repeats one event of a venue calendar: it joins it.
        let stats = try catalog.stats(today: TestSupport.today)
        #expect(stats.events == records - summary.eventsMerged - summary.eventsUpdated - summary.eventsUnchanged)
        let before = try TestSupport.dump(path)
        _ = TestSupport.ingest([directory], into: catalog)
        #expect(try TestSupport.dump(path) == before)
    }

    /// Bandsintown and Ticketmaster: every recorded response is detected by content as its
    /// format and ingests; Ticketmaster's records are all either kept or counted as skipped.
    @Test(arguments: ["bandsintown", "ticketmaster"])
    func everyRecordedResponseIsDetectedAndIngests(format: String) throws {
        guard let root = TestSupport.realWorld(format) else { return }
        var expected = 0
        var files = 0
        for entry in try TestSupport.realWorldEntries([format]) {
            let data = try Data(contentsOf: URL(fileURLWithPath: entry.path))
            #expect(IngesterRegistry.standard.detect(ContentSample(data))?.format == format, "\(entry.name)")
            expected += entry.events
            files += 1
        }
        #expect(files >= 3)
        let (catalog, _) = try TestSupport.makeCatalog()
        let summary = TestSupport.ingest([root], into: catalog)
        #expect(summary.failures.map(\.description) == [])
        #expect(summary.pagesApplied == files)
        let records = summary.eventsNew + summary.eventsMerged + summary.eventsUpdated + summary.eventsUnchanged
        #expect(records + summary.skipped.values.reduce(0, +) == expected)
    }
}
