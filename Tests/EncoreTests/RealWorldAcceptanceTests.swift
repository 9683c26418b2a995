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
        let summary = TestSupport.ingest([directory], into: catalog)
        #expect(summary.failures.map(\.description) == [])
        #expect(summary.pagesApplied == 12)
        let stats = try catalog.stats(today: TestSupport.today)
        #expect(stats.events == 97)
        let before = try TestSupport.dump(path)
        _ = TestSupport.ingest([directory], into: catalog)
        #expect(try TestSupport.dump(path) == before)
    }

    /// Bandsintown and Ticketmaster: every recorded response is detected by content as its
    /// format and ingests; Ticketmaster's records are all either kept or counted as skipped.
    @Test(arguments: ["bandsintown", "ticketmaster"])
    func everyRecordedResponseIsDetectedAndIngests(format: String) throws {
        guard let root = TestSupport.realWorld(format) else { return }
        let realWorld = URL(fileURLWithPath: root).deletingLastPathComponent()
        let manifest = try String(contentsOf: realWorld.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        var expected = 0
        var files = 0
        for line in manifest.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count > 6, columns[1] == format else { continue }
            let path = realWorld.appendingPathComponent(columns[0]).path
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(IngesterRegistry.standard.detect(ContentSample(data))?.format == format, "\(columns[0])")
            expected += Int(columns[6]) ?? 0
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
