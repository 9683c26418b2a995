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
}
