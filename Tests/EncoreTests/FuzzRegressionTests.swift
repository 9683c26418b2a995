import Foundation
import Ingest
import Listings
import Testing

/// Inputs the fuzz runs (`scripts/fuzz.sh`) found crashing a parser, kept in
/// `Fixtures/bad/fuzz/FORMAT-what.ext`: each is now refused with a clear error.
struct FuzzRegressionTests {
    static let files = (try? FileManager.default.contentsOfDirectory(atPath: TestSupport.fixture("bad/fuzz")).sorted()) ?? []

    @Test(arguments: files)
    func aPageThatCrashedAParserIsRefused(file: String) throws {
        let format = IngesterRegistry.standard.formats.first { file.hasPrefix($0 + "-") }
        let ingester = try #require(format.flatMap(IngesterRegistry.standard.ingester(named:)), "\(file) names no format")
        let path = TestSupport.fixture("bad/fuzz/\(file)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: IngestError.self) { try ingester.parse(data, context: PageContext(locator: path)) }
        if file.contains("utf7") {
            #expect(error?.description.contains("the encoding \"UTF-7\" is refused") == true || error?.description.contains("\"utf-7\"") == true, "\(String(describing: error))")
        }
    }

    @Test func theCrashesAreKept() {
        #expect(Self.files.count >= 2)
    }
}
