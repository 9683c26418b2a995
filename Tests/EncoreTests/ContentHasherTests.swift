import Listings
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
