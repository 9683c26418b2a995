import Catalog
import Foundation
@testable import Ingest
import Listings
import Testing

/// The reading thread finishes a page (hashes its records, has the catalog prepare its
/// events) only while the applying thread has pages to go on with; otherwise the
/// catalog does that work as it applies the page. Either way the catalog is the same.
struct PagePreparationTests {
    @Test func aPageFinishedWhereItWasReadOrWhereItIsAppliedMakesTheSameCatalog() throws {
        let files = try FileIngestion.listingFiles(at: TestSupport.fixture("sample-multi"))
        var dumps: [String] = []
        for finishing in [true, false] {
            let (catalog, path) = try TestSupport.makeCatalog()
            let ingestion = FileIngestion()
            for file in files {
                let prepared = ingestion.prepare(file: file, for: catalog, checkingAgainst: catalog, finishing: { finishing })
                guard case .page(let page, _, _) = prepared else {
                    Issue.record("\(file) did not parse")
                    continue
                }
                #expect((page.contentHashes != nil) == finishing)
                #expect((page.preparation != nil) == finishing)
                #expect((try? ingestion.apply(prepared, into: catalog).get()) != nil, "\(file) did not apply")
            }
            dumps.append(try TestSupport.dump(path, includingProvenanceTimes: false))
        }
        #expect(dumps[0] == dumps[1])
    }
}
