import Catalog
import Feeds
import Foundation
import Geo
import Listings
import Testing

/// A band page's address, once published, stays with its band: "AC DC" had `ac-dc-6`
/// until "AC DC 6" arrived, took it, and moved "AC DC" (and its Atom feed's subscribers)
/// to `ac-dc-6-6`.
struct ArtistAddressTests {
    let stamp = UTCInstant(iso: "2026-11-22T08:00:00Z")!

    /// A page of one show per act, each billed alone, on its own day.
    func page(_ acts: [String], source: ListingSource = .songkick, from day: Int = 1) -> ListingPage {
        var page = ListingPage(source: source, locator: "inline \(acts)")
        let venue = VenueListing(
            sourceID: "v1", name: "Roundhouse", city: "London", country: "GB", coordinate: Coordinate(latitude: 51.5432, longitude: -0.1519))
        for (index, act) in acts.enumerated() {
            let artist = ArtistListing(sourceID: "a-\(act)", name: act)
            page.events.append(
                EventListing(
                    sourceID: "e-\(act)", title: act, start: EventStart(localDate: LocalDate(iso: "2027-01-01")!.adding(days: day + index)),
                    venue: venue, lineup: [PerformanceListing(artist: artist, billing: .headline, order: 1)]))
        }
        return page
    }

    /// Each band page's artist: id and name.
    func bandPages(_ catalog: CatalogDatabase) throws -> [String: Band] {
        try catalog.assignArtistAddresses()
        let tree = try FeedBuilder(source: catalog.readingOneSnapshot(), today: TestSupport.today, generatedAt: stamp).build()
        var pages: [String: Band] = [:]
        for (path, data) in tree.files where path.hasPrefix("artists/") && path.hasSuffix(".json") && !path.dropFirst(8).contains("/") {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let artist = object["artist"] as? [String: Any], let id = artist["id"] as? Int, let name = artist["name"] as? String
            else { continue }
            pages[path] = Band(id: id, name: name)
        }
        return pages
    }

    struct Band: Equatable {
        var id: Int
        var name: String
    }

    @Test func aNewcomerWhoseNameWouldTakeAnAddressGetsAnotherOne() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(page(["AC/DC", "AC DC"]), pageHash: "1", format: "songkick-json")
        let before = try bandPages(catalog)
        let acdc = try #require(before.first { $0.value.name == "AC DC" }?.key)
        #expect(acdc.hasPrefix("artists/ac-dc-") && before["artists/ac-dc.json"]?.name == "AC/DC", "\(before)")

        let newcomer = String(acdc.dropFirst("artists/ac-".count).dropLast(".json".count)).uppercased().replacingOccurrences(of: "-", with: " ")
        _ = try catalog.apply(page(["AC \(newcomer)"], from: 10), pageHash: "2", format: "songkick-json")
        let after = try bandPages(catalog)
        #expect(after[acdc] == before[acdc], "\(after)")
        #expect(after["artists/ac-dc.json"] == before["artists/ac-dc.json"])
        #expect(after.values.contains { $0.name == "AC \(newcomer)" } && after.count == 3)
    }

    @Test(arguments: [["Sigur Ros", "Sigur Rós"], ["con", "Con"], ["Café Tacvba", "Cafe\u{301} Tacvba"]])
    func namesWithOneSlugKeepTheirAddressesWhateverArrivesLater(names: [String]) throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(page([names[1]]), pageHash: "1", format: "songkick-json")
        let first = try bandPages(catalog)
        #expect(first.count == 1)
        _ = try catalog.apply(page([names[0]], source: .bandsintown, from: 10), pageHash: "2", format: "bandsintown")
        let second = try bandPages(catalog)
        // Whether or not the two merge, the first band keeps its address.
        for (path, band) in first { #expect(second[path]?.id == band.id, "\(second)") }
    }

    @Test func addressesAreTheOnesBuildsMadeBeforeTheyWereKept() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(page(["AC DC", "AC/DC", "AC DC 2", "Mavi Vapur"]), pageHash: "1", format: "songkick-json")
        let names = try catalog.artistNames(withEventsSince: TestSupport.today)
        #expect(try catalog.artistAddresses(for: names) == Slug.unique(names.map { (key: $0.id, name: $0.name) }))
        try catalog.assignArtistAddresses()
        #expect(try catalog.artistAddresses(for: names) == Slug.unique(names.map { (key: $0.id, name: $0.name) }))
    }

    /// "MV Band" from Bandsintown and "Mavi Vapur" from Songkick, two bands until `merge`
    /// relists Songkick's with the MusicBrainz id Bandsintown gave.
    func twoBandsThatAreOne() throws -> (CatalogDatabase, merge: () throws -> Void) {
        let (catalog, _) = try TestSupport.makeCatalog()
        let mbid = "5b11f4ce-a62d-471e-81fc-a69a8278c7da"
        var band = page(["MV Band"], source: .bandsintown)
        band.events[0].lineup[0].artist.musicBrainzIDs = [mbid]
        _ = try catalog.apply(band, pageHash: "1", format: "bandsintown")
        var songkick = page(["Mavi Vapur"], from: 5)
        _ = try catalog.apply(songkick, pageHash: "2", format: "songkick-json")
        songkick.events[0].lineup[0].artist.musicBrainzIDs = [mbid]
        return (catalog, { _ = try catalog.apply(songkick, pageHash: "3", format: "songkick-json") })
    }

    /// "Mavi Vapur" published at `mavi-vapur`, then found to be the band Bandsintown calls
    /// "MV Band" (one MusicBrainz id): the address stays, as pages leading to the band.
    @Test func aMergedBandsAddressLeadsToTheBandItJoined() throws {
        let (catalog, merge) = try twoBandsThatAreOne()
        let before = try bandPages(catalog)
        #expect(Set(before.keys) == ["artists/mv-band.json", "artists/mavi-vapur.json"])

        try merge()
        try catalog.assignArtistAddresses()
        let tree = try FeedBuilder(source: catalog.readingOneSnapshot(), today: TestSupport.today, generatedAt: stamp).build()
        let files = tree.files
        let moved = try #require(files["artists/mavi-vapur.json"].flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: String] })
        #expect(moved == ["moved_to": "mv-band", "url": "artists/mv-band.json"])
        let html = String(decoding: try #require(files["artists/mavi-vapur.html"]), as: UTF8.self)
        #expect(html.contains("<meta http-equiv=refresh content=\"0; url=artists/mv-band.html\">") && html.contains("<a href=\"artists/mv-band.html\">"), "\(html)")
        let atom = String(decoding: try #require(files["artists/mavi-vapur.atom"]), as: UTF8.self)
        let oldID = try #require(before["artists/mavi-vapur.json"]?.id)
        #expect(atom.contains("<id>tag:encore.invalid,2026:artist/\(oldID)</id>"), "the feed keeps its id: \(atom)")
        #expect(atom.contains("href=\"../artists/mv-band.atom\"") && atom.contains("<entry>") && !atom.contains("1970-01-01"))
        // The band it joined keeps its own page; no band is given the old address.
        #expect(try bandPages(catalog).keys.sorted() == ["artists/mv-band.json"])
    }

    /// An incremental build after the merge leaves what a full build does: the old band
    /// page's files are the moved pages, not removed as a band gone.
    @Test func anIncrementalBuildAfterAMergeKeepsTheMovedPages() throws {
        let (catalog, merge) = try twoBandsThatAreOne()
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        func build(into directory: URL, full: Bool) throws -> Bool {
            try catalog.assignArtistAddresses()
            let builder = FeedBuilder(source: try catalog.readingOneSnapshot(), today: TestSupport.today, generatedAt: stamp)
            return try builder.write(to: FeedTreeWriter(outputDirectory: directory), full: full).incremental
        }
        _ = try build(into: out, full: false)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("artists/mavi-vapur.atom").path))

        try merge()
        #expect(try build(into: out, full: false), "the second build is incremental")
        let full = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        _ = try build(into: full, full: true)
        for name in ["mavi-vapur.json", "mavi-vapur.html", "mavi-vapur.atom"] {
            let incremental = try Data(contentsOf: out.appendingPathComponent("artists/" + name))
            #expect(incremental == (try Data(contentsOf: full.appendingPathComponent("artists/" + name))), "\(name)")
        }
        #expect(String(decoding: try Data(contentsOf: out.appendingPathComponent("artists/mavi-vapur.json")), as: UTF8.self).contains("moved_to"))
    }
}
