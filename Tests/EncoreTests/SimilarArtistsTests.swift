@testable import Catalog
import Foundation
import GRDB
import Ingest
import Testing

/// Songkick's similar-artist responses say which artist they are for only in the request
/// (here, the file name): the same bytes for two artists are two lists, and an empty
/// response is a list too.
struct SimilarArtistsTests {
    static func artists(_ entries: [(id: Int, name: String)]) -> String {
        let list = entries.map { #"{"id":\#($0.id),"displayName":"\#($0.name)","identifier":[]}"# }
        let results = list.isEmpty ? "{}" : #"{"artist":[\#(list.joined(separator: ","))]}"#
        return #"{"resultsPage":{"status":"ok","results":\#(results),"perPage":50,"page":1,"totalEntries":\#(list.count)}}"#
    }

    /// Writes each file, ingests them all in one run, and returns the run's summary.
    func ingest(_ files: KeyValuePairs<String, String>, into catalog: CatalogDatabase) throws -> IngestSummary {
        let directory = try TestSupport.temporaryDirectory()
        let paths = try files.map { name, text in
            let path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        return TestSupport.ingest(paths, into: catalog, format: "songkick-json")
    }

    /// The names on the band page of Songkick's artist `sourceID`.
    func similarNames(of sourceID: String, in catalog: CatalogDatabase) throws -> [String] {
        let id = try #require(try catalog.writer.read { db in
            try PageApplier.row(ofRecord: "songkick", .artist, sourceID, in: db)
        })
        let page = try #require(try catalog.artistPage(artistID: id, today: TestSupport.today))
        return page.similar.map(\.name)
    }

    @Test func theSameListForTwoArtistsIsAppliedForBoth() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try ingest(["search.json": Self.artists([(1, "Low"), (2, "Codeine")])], into: catalog)
        let similar = Self.artists([(3, "Red House Painters"), (4, "Galaxie 500")])
        let summary = try ingest(["similar-artists-1.json": similar, "similar-artists-2.json": similar], into: catalog)
        #expect(summary.pagesApplied == 2)
        #expect(try similarNames(of: "1", in: catalog) == ["Red House Painters", "Galaxie 500"])
        #expect(try similarNames(of: "2", in: catalog) == ["Red House Painters", "Galaxie 500"])
    }

    @Test func anEmptyListClearsTheArtistsSimilarArtists() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try ingest(
            ["search.json": Self.artists([(1, "Low")]), "similar-artists-1.json": Self.artists([(3, "Codeine")])],
            into: catalog)
        #expect(try similarNames(of: "1", in: catalog) == ["Codeine"])
        let summary = try ingest(["similar-artists-1.json": Self.artists([])], into: catalog)
        #expect(summary.succeeded)
        #expect(try similarNames(of: "1", in: catalog).isEmpty)
    }
}
