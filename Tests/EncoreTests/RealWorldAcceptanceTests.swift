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
}
