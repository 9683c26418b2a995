import Catalog
import Foundation
import GRDB
import Ingest
import Listings
import Testing

/// An event is unlisted once every listing that showed it missed it in two complete crawls
/// in a row; a listing shown again unchanged decides nothing new.
struct ListingLifecycleTests {
    private let scope = "metro_areas/1/calendar"

    private func catalogListing(_ ids: [String]) throws -> (CatalogDatabase, path: String) {
        let (catalog, path) = try TestSupport.makeCatalog()
        var page = ListingPage(source: .songkick, locator: "calendar")
        page.events = ids.map { id in
            EventListing(
                sourceID: id, title: "Show \(id)", start: EventStart(localDate: TestSupport.today.adding(days: 30)),
                venue: VenueListing(sourceID: "v1", name: "The Echo", city: "Los Angeles"))
        }
        _ = try catalog.apply(page)
        return (catalog, path)
    }

    private func complete(_ catalog: CatalogDatabase, showing ids: Set<String>) throws -> ListingLifecycleOutcome {
        try catalog.completeListing(source: "songkick", scope: scope, eventSourceIDs: ids, today: TestSupport.today)
    }

    private func unlisted(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT title FROM event WHERE unlisted_since IS NOT NULL ORDER BY title")
        }
    }

    @Test func aListingShownAgainUnchangedLeavesItsEventsListed() throws {
        let (catalog, path) = try catalogListing(["a", "b"])
        for _ in 0..<3 { #expect(try complete(catalog, showing: ["a", "b"]) == ListingLifecycleOutcome()) }
        #expect(try unlisted(path).isEmpty)
    }

    @Test func aShowMissedOnceThenShownAgainStartsCountingItsMissesAnew() throws {
        let (catalog, path) = try catalogListing(["a", "b"])
        _ = try complete(catalog, showing: ["a", "b"])
        _ = try complete(catalog, showing: ["a"])
        // The same listing as two crawls ago, but b's miss must be forgotten now.
        _ = try complete(catalog, showing: ["a", "b"])
        #expect(try complete(catalog, showing: ["a"]).unlisted == 0)
        #expect(try unlisted(path).isEmpty)
        #expect(try complete(catalog, showing: ["a"]).unlisted == 1)
        #expect(try unlisted(path) == ["Show b"])
        // Shown again: listed again, and the listing as it was.
        #expect(try complete(catalog, showing: ["a", "b"]).relisted == 1)
        #expect(try complete(catalog, showing: ["a", "b"]) == ListingLifecycleOutcome())
        #expect(try unlisted(path).isEmpty)
    }
}
