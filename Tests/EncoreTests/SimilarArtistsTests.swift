@testable import Catalog
import Foundation
import GRDB
import Ingest
import Testing

/// Songkick's similar-artist responses say which artist they are for only in the request
/// (here, the file name): the same bytes for two artists are two lists, and an empty
/// response is a list too.
struct SimilarArtistsTests {
    /// A Songkick artist list; page 1 of one page unless told.
    static func artists(_ entries: [(id: Int, name: String)], page: Int = 1, perPage: Int = 50, total: Int? = nil) -> String {
        let list = entries.map { #"{"id":\#($0.id),"displayName":"\#($0.name)","identifier":[]}"# }
        let results = list.isEmpty ? "{}" : #"{"artist":[\#(list.joined(separator: ","))]}"#
        return #"{"resultsPage":{"status":"ok","results":\#(results),"perPage":\#(perPage),"page":\#(page),"#
            + #""totalEntries":\#(total ?? list.count)}}"#
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

    /// Songkick pages a long list: each page replaces the ranks it covers, so pages may
    /// come in any order, and an artist moving between pages is listed once.
    @Test func thePagesOfALongListMakeOneListInAnyOrder() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try ingest(["search.json": Self.artists([(1, "Low")])], into: catalog)
        func page(_ number: Int, _ entries: [(id: Int, name: String)]) -> String {
            Self.artists(entries, page: number, perPage: 2, total: 3)
        }
        _ = try ingest(["similar-artists-1-p2.json": page(2, [(5, "Codeine")])], into: catalog)
        _ = try ingest(["similar-artists-1-p1.json": page(1, [(3, "Duster"), (4, "Bedhead")])], into: catalog)
        #expect(try similarNames(of: "1", in: catalog) == ["Duster", "Bedhead", "Codeine"])

        // Codeine moves up to the first page, Bedhead down to the second.
        _ = try ingest(["similar-artists-1-p1.json": page(1, [(5, "Codeine"), (3, "Duster")])], into: catalog)
        #expect(try similarNames(of: "1", in: catalog) == ["Codeine", "Duster"])
        _ = try ingest(["similar-artists-1-p2.json": page(2, [(4, "Bedhead")])], into: catalog)
        #expect(try similarNames(of: "1", in: catalog) == ["Codeine", "Duster", "Bedhead"])
    }
}
