import Catalog
import Foundation
import Geo
import Listings
import Testing

struct FanListsTests {
    let calendar = TestSupport.fixture("songkick-json/metro-24426-calendar.json")
    let relisted = TestSupport.fixture("changes/songkick-json/metro-24426-calendar.json")

    func londonCatalog() throws -> CatalogDatabase {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([calendar], into: catalog)
        return catalog
    }

    func eventID(_ catalog: CatalogDatabase, titled prefix: String) throws -> Int64 {
        let window = DateWindow(from: LocalDate(iso: "2027-01-01")!, to: LocalDate(iso: "2027-12-31")!)!
        let events = try catalog.events(inMetroAreas: [1], window: window)
        return try #require(events.first { $0.title.hasPrefix(prefix) }).id
    }

    @Test func plansAreChronologicalAndFlagSameEveningsAndCancellations() throws {
        let catalog = try londonCatalog()
        let early = try eventID(catalog, titled: "Night Ferry (early")
        let late = try eventID(catalog, titled: "Night Ferry (late")
        let cancelled = try eventID(catalog, titled: "Velvet Harbour at Unknown")
        let roundhouse = try eventID(catalog, titled: "Velvet Harbour with")
        for id in [cancelled, late, roundhouse, early] { try catalog.addPlan(user: "ana", eventID: id) }
        #expect(try catalog.addPlan(user: "ana", eventID: early) == false)

        let plans = try catalog.plans(user: "ana", today: TestSupport.today)
        #expect(plans.map(\.event.id) == [roundhouse, early, late, cancelled])
        #expect(plans[1].conflicts == [late] && plans[2].conflicts == [early])
        #expect(plans[3].alert == "cancelled")
        #expect(plans[0].alert == nil)
        #expect(try catalog.plans(user: "bo", today: TestSupport.today).isEmpty)
        #expect(throws: CatalogError.noSuchEvent(9999)) { try catalog.addPlan(user: "ana", eventID: 9999) }
    }

    @Test func aRelistingCarriesPlansAlongAndFlagsChanges() throws {
        let catalog = try londonCatalog()
        let early = try eventID(catalog, titled: "Night Ferry (early")
        try catalog.addPlan(user: "ana", eventID: early)
        _ = TestSupport.ingest([relisted], into: catalog)
        let plans = try catalog.plans(user: "ana", today: TestSupport.today)
        #expect(plans.map(\.event.id) == [early])
        #expect(plans.first?.alert == "cancelled")
    }

    @Test func trackingIsPerProfileAndIdempotent() throws {
        let catalog = try londonCatalog()
        let artist = try #require(try catalog.artists(named: "night ferry", today: TestSupport.today).first)
        #expect(try catalog.track(user: "ana", TrackedItem(kind: .artist, id: artist.id, name: artist.name)))
        #expect(try catalog.track(user: "ana", TrackedItem(kind: .artist, id: artist.id, name: artist.name)) == false)
        #expect(try catalog.tracked(user: "ana").map(\.name) == ["Night Ferry"])
        #expect(try catalog.tracked(user: "bo").isEmpty)
        #expect(try catalog.untrack(user: "ana", kind: .artist, id: artist.id))
        #expect(try catalog.tracked(user: "ana").isEmpty)
    }

    @Test func theFeedFollowsHomeRadiusAndModeAndMarksWhatIsNew() throws {
        let catalog = try londonCatalog()
        let window = DateWindow(from: TestSupport.today, to: TestSupport.today.adding(days: 365))!
        #expect(throws: CatalogError.noHome("ana")) { try catalog.feed(user: "ana", window: window, markSeen: true) }

        let camden = Coordinate(latitude: 51.539, longitude: -0.1426)
        _ = try catalog.updateSettings(user: "ana", home: ("Camden", camden), radiusKilometres: 2)
        let near = try catalog.feed(user: "ana", window: window, markSeen: true)
        #expect(near.map(\.event.title).allSatisfy { $0.contains("Roundhouse") })
        #expect(near.allSatisfy { $0.isNew })
        #expect(try catalog.feed(user: "ana", window: window, markSeen: true).allSatisfy { !$0.isNew })

        _ = try catalog.updateSettings(user: "ana", radiusKilometres: 10, feedMode: .trackedArtists)
        #expect(try catalog.feed(user: "ana", window: window, markSeen: false).isEmpty)
        let ferry = try #require(try catalog.artists(named: "Night Ferry", today: TestSupport.today).first)
        try catalog.track(user: "ana", TrackedItem(kind: .artist, id: ferry.id, name: ferry.name))
        let tracked = try catalog.feed(user: "ana", window: window, markSeen: false)
        #expect(tracked.count == 2)
        #expect(tracked.allSatisfy { $0.isNew })
    }
}
