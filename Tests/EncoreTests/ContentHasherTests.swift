import Listings
import Foundation
import Ingest
import Testing

/// Content hashes are stored in catalogs: a change to the function would make every
/// record look changed on the next ingest. These digests were computed independently.
struct ContentHasherTests {
    @Test func digestsStayTheSameAcrossReleases() {
        var hasher = ContentHasher()
        hasher.combine("Sigur Rós" as String?)
        hasher.combine(nil as String?)
        hasher.combine(42 as Int?)
        hasher.combine(-1.5 as Double?)
        hasher.combine(true)
        hasher.combine(nil as Double?)
        hasher.combine(-7 as Int?)
        #expect(hasher.hexDigest == "fe1140076d72c360")
        #expect(ContentHasher().hexDigest == "cbf29ce484222325")
        #expect(ContentHasher.hexDigest(of: [UInt8]()) == "cbf29ce484222325")
    }
}

/// Pages are hashed on the thread that parses them (`computeContentHashes()`), and the
/// catalog trusts those hashes: they must be the listings' own, and gone once a listing
/// changes.
struct PageContentHashesTests {
    @Test func hashesMadeInAdvanceAreTheListingsOwn() throws {
        var page = try Self.bandsintownPage()
        page.computeContentHashes()
        let hashes = try #require(page.contentHashes)
        #expect(hashes.events.map(\.event) == page.events.map(\.contentHash))
        #expect(hashes.events.map(\.venue) == page.events.map(\.venue?.contentHash))
        #expect(hashes.events.map(\.acts) == page.events.map { $0.lineup.map(\.artist.contentHash) })
        #expect(!hashes.events.isEmpty)
    }

    @Test func anyChangeToAListingDropsTheHashes() throws {
        var page = try Self.bandsintownPage()
        page.computeContentHashes()
        page.events[0].lineup[0].artist.name = "Someone Else"
        #expect(page.contentHashes == nil)

        page.computeContentHashes()
        page.venues.append(VenueListing(sourceID: "v1", name: "The Hall"))
        #expect(page.contentHashes == nil)

        page.computeContentHashes()
        page.skipped["sports"] = 1
        #expect(page.contentHashes != nil, "the listings did not change")
    }

    @Test func pagesHashedWhereParsedLandAsPagesHashedWhileApplying() throws {
        for format in ["bandsintown", "songkick-json", "lastfm-xml"] {
            let files = try FileIngestion.listingFiles(at: TestSupport.fixture(format))
            let (inAdvance, inAdvancePath) = try TestSupport.makeCatalog()
            _ = FileIngestion(format: format).ingest(paths: files, into: inAdvance)
            let (whileApplying, whileApplyingPath) = try TestSupport.makeCatalog()
            for file in files {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                let (_, page) = FileIngestion(format: format).ingestPage(data: data, locator: file, into: whileApplying)
                #expect(page?.contentHashes == nil, "this path hashes while applying")
            }
            // Applied pages aside: the two paths hash a page's bytes differently.
            func records(_ path: String) throws -> [Substring] {
                try TestSupport.dump(path).split(separator: "\n").filter { !$0.hasPrefix("applied_page:") }
            }
            #expect(try records(inAdvancePath) == records(whileApplyingPath), "\(format)")
            #expect(try records(inAdvancePath).count > 10)
        }
    }

    private static func bandsintownPage() throws -> ListingPage {
        let file = TestSupport.fixture("bandsintown/artist-events-night-ferry.json")
        return try BandsintownIngester().parse(
            Data(contentsOf: URL(fileURLWithPath: file)), context: PageContext(locator: file))
    }
}
