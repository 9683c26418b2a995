import Foundation
@testable import Ingest
import Listings
import Testing

/// Ticketmaster's add-ons to a show (packages, resale, parking) are no shows of their own.
struct TicketmasterPackagesTests {
    @Test(arguments: [
        "Parking: 8th Annual Beerfest", "Os Lobos Elétricos - VIP Package", "Os Lobos Elétricos (Resale)",
        "Helmet - Official Platinum", "Helmet VIP Experience Upgrade", "Premium Seating: Helmet",
    ])
    func addOnsAreMarked(_ title: String) {
        #expect(TicketmasterPackages.marker(of: title) != nil)
    }

    /// Titles of real Music listings (HRSF84-Pluto/Eventger `api/sampleTMData.js`,
    /// RonyBrosh/next_gig's recorded searches) that are shows.
    @Test(arguments: [
        "Foo Fighters: Concrete And Gold Tour '18", "Tyler, the Creator", "Billy Joel - In Concert",
        "Cold Waves X Front 242", "Vampire Weekend", "The Parking Lot Band",
    ])
    func showsAreNotMarked(_ title: String) {
        #expect(TicketmasterPackages.marker(of: title) == nil)
    }

    func listing(_ id: String, _ title: String, time: String) -> EventListing {
        EventListing(
            sourceID: id, title: title,
            start: EventStart(localDate: LocalDate(iso: "2027-03-14")!, localTime: LocalTime(iso: time)),
            venue: VenueListing(sourceID: "v1", name: "Warsaw"))
    }

    /// An "Early Show" listing is left out only beside the same show at the same time.
    @Test func anEarlyShowIsLeftOutOnlyBesideTheSameShow() {
        var page = ListingPage(source: .ticketmaster, locator: "tm")
        page.events = [
            listing("1", "Helmet", time: "19:00"), listing("2", "Helmet - Early Show", time: "19:00"),
            listing("3", "Low - Early Show", time: "18:00"), listing("4", "Low", time: "21:00"),
            listing("5", "Parking: Helmet", time: "19:00"),
        ]
        TicketmasterPackages.leaveOut(from: &page)
        #expect(page.events.map(\.sourceID) == ["1", "3", "4"])
        #expect(page.skipped == ["ticket packages": 1, "parking passes": 1])
    }
}
