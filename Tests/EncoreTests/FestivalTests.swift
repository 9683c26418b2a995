import Feeds
import Foundation
import GRDB
import Geo
import Ingest
import Listings
import Testing

@testable import Catalog

/// A festival listed once over its days by one source and set by set by another
/// (`Fixtures/festivals`): Songkick's "Golden Sound 2027" at Victoria Park, 9–11 July, and
/// Bandsintown's sets of three of its acts at a place named after the festival 400 m
/// away, one of them on a day after the festival's first; plus a billed act's club show
/// 3 km away on a festival night and another festival's set the weekend after.
struct FestivalTests {
    static let festival = TestSupport.fixture("festivals/songkick-festival.json")
    static let sets = TestSupport.fixture("festivals/bandsintown-sets.json")

    func ingested(_ paths: [String]) throws -> String {
        let (catalog, path) = try TestSupport.makeCatalog()
        let summary = TestSupport.ingest(paths, into: catalog)
        #expect(summary.failures.map(\.description) == [])
        return path
    }

    /// Records grouped by the event that holds them.
    func groups(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: """
                SELECT group_concat(source || ':' || source_id, ' ') FROM (
                    SELECT entity_id, source, source_id FROM source_record WHERE kind = 'event' ORDER BY source, source_id)
                GROUP BY entity_id ORDER BY 1
                """)
        }
    }

    @Test func eachSetJoinsTheFestivalWhicheverArrivesFirst() throws {
        let festivalFirst = try ingested([Self.festival, Self.sets])
        let setsFirst = try ingested([Self.sets, Self.festival])
        let expected = [
            "bandsintown:3001 bandsintown:3002 bandsintown:3003 songkick:2001",
            "bandsintown:3004",
            "songkick:2002",
        ]
        #expect(try groups(festivalFirst) == expected)
        #expect(try groups(setsFirst) == expected)
        #expect(try IngestOrderTests.content(festivalFirst) == IngestOrderTests.content(setsFirst))
    }

    @Test func theFestivalKeepsItsOwnDatesPlaceAndTitle() throws {
        for order in [[Self.festival, Self.sets], [Self.sets, Self.festival]] {
            let path = try ingested(order)
            let row = try DatabaseQueue(path: path).read { db in
                try Row.fetchOne(db, sql: """
                    SELECT e.title, e.kind, e.local_date, e.end_date, v.name FROM event e JOIN venue v ON v.id = e.venue_id
                    JOIN source_record r ON r.kind = 'event' AND r.entity_id = e.id AND r.source = 'songkick'
                    WHERE r.source_id = '2001'
                    """)
            }
            let values = try #require(row).map { $0.1.description }
            #expect(values == ["\"Golden Sound 2027\"", "\"festival\"", "\"2027-07-09\"", "\"2027-07-11\"", "\"Victoria Park\""])
        }
    }

    @Test func eachSetsDayAndTimeIsItsActsSlotOnTheBill() throws {
        let path = try ingested([Self.sets, Self.festival])
        let slots = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: """
                SELECT a.name || ' ' || coalesce(l.slot_date, '-') || ' ' || coalesce(l.slot_time, '-')
                FROM lineup l JOIN artist a ON a.id = l.artist_id
                JOIN source_record r ON r.kind = 'event' AND r.entity_id = l.event_id AND r.source = 'songkick'
                WHERE r.source_id = '2001' ORDER BY l.position
                """)
        }
        #expect(slots == [
            "Velvet Harbour 2027-07-09 21:00:00", "Night Ferry 2027-07-11 19:30:00", "Søren Lys - -",
            "Chapel Moon 2027-07-10 15:00:00", "The Neon Rivers - -",
        ])
    }

    /// The slots a fan sees: `encore event` (text and JSON), the concert page's JSON and
    /// its HTML; acts without a set of their own show none.
    @Test func eachActsSlotIsShownWhereTheBillIs() throws {
        let scratch = try CLIScratch(ingesting: "festivals/bandsintown-sets.json", "festivals/songkick-festival.json")
        let id = try #require(try DatabaseQueue(path: scratch.db).read { db in
            try Int64.fetchOne(db, sql: "SELECT entity_id FROM source_record WHERE source = 'songkick' AND source_id = '2001'")
        })
        let text = try scratch.encore(["event", String(id)]).stdout
        #expect(text.contains("  1. Velvet Harbour  (headline)  2027-07-09 21:00\n"))
        #expect(text.contains("  4. Chapel Moon  2027-07-10 15:00\n"))
        #expect(text.contains("  3. Søren Lys\n"))
        func slots(_ event: [String: Any]?) -> [String] {
            (event?["lineup"] as? [[String: Any]] ?? []).map { act in
                let slot = act["slot"] as? [String: String]
                return "\(act["name"] ?? "") \(slot?["date"] ?? "-") \(slot?["time"] ?? "-")"
            }
        }
        let expected = [
            "Velvet Harbour 2027-07-09 21:00:00", "Night Ferry 2027-07-11 19:30:00", "Søren Lys - -",
            "Chapel Moon 2027-07-10 15:00:00", "The Neon Rivers - -",
        ]
        #expect(slots(try scratch.encore(["event", String(id), "--json"]).json() as? [String: Any]) == expected)

        let catalog = try CatalogDatabase(path: scratch.db)
        let tree = try FeedBuilder(
            source: catalog, today: TestSupport.today, generatedAt: UTCInstant(iso: "2026-11-22T08:00:00Z")!
        ).build()
        let page = try #require(tree.files["events/\(id).json"])
        #expect(slots(try JSONSerialization.jsonObject(with: page) as? [String: Any]) == expected)
        let html = String(decoding: try #require(tree.files["events/\(id).html"]), as: UTF8.self)
        #expect(html.contains("Chapel Moon</a> <small>2027-07-10 15:00</small>"))
    }

    @Test func explainSaysWhyASetJoinedTheFestival() throws {
        let path = try ingested([Self.festival, Self.sets])
        let reason = try DatabaseQueue(path: path).read { db in
            try String.fetchOne(db, sql: "SELECT merge_reason FROM source_record WHERE source = 'bandsintown' AND source_id = '3003'")
        }
        #expect(reason == "a set on 2027-07-10, a day of the festival (2027-07-09 to 2027-07-11), 400 m from its grounds, with an act on its bill")
    }

    /// A festival over 9–11 July and three sets of Bandsintown's that stay apart from it,
    /// each for one rule: an act not on its bill, a day after it, a place 2 km away.
    @Test func explainNamesTheRuleThatKeptASetFromTheNearestFestival() throws {
        let grounds = Coordinate(latitude: 51.5362, longitude: -0.0388)
        func venue(_ source: String, _ name: String, metresNorth: Double) -> VenueListing {
            VenueListing(
                sourceID: "\(source)-\(name)", name: name, city: "London", country: "GB",
                coordinate: Coordinate(latitude: grounds.latitude + metresNorth / 111_195, longitude: grounds.longitude))
        }
        func act(_ source: String, _ name: String) -> PerformanceListing {
            PerformanceListing(artist: ArtistListing(sourceID: "\(source)-\(name)", name: name), billing: .headline, order: 1)
        }
        var festival = ListingPage(source: .songkick, locator: "festival")
        festival.events = [EventListing(
            sourceID: "1", title: "Golden Sound 2027", kind: .festival, start: EventStart(localDate: LocalDate(iso: "2027-07-09")!),
            endDate: LocalDate(iso: "2027-07-11"), venue: venue("songkick", "Victoria Park", metresNorth: 0),
            lineup: [act("songkick", "Velvet Harbour"), act("songkick", "Night Ferry")])]
        var sets = ListingPage(source: .bandsintown, locator: "sets")
        for (id, name, day, metres) in [
            ("b1", "Chapel Moon", "2027-07-10", 400.0), ("b2", "Night Ferry", "2027-07-12", 400), ("b3", "Velvet Harbour", "2027-07-10", 2000),
        ] {
            sets.events.append(EventListing(
                sourceID: id, title: "Golden Sound 2027", start: EventStart(localDate: LocalDate(iso: day)!),
                venue: venue("bandsintown", "Golden Sound 2027 \(id)", metresNorth: metres), lineup: [act("bandsintown", name)]))
        }
        let (catalog, path) = try TestSupport.makeCatalog()
        _ = try catalog.apply(festival)
        _ = try catalog.apply(sets)
        let festivalID = try #require(try DatabaseQueue(path: path).read { db in
            try Int64.fetchOne(db, sql: "SELECT entity_id FROM source_record WHERE source = 'songkick' AND kind = 'event'")
        })
        func missed(_ id: String) throws -> MergeExplanation.NearMiss? {
            let event = try #require(try DatabaseQueue(path: path).read { db in
                try Int64.fetchOne(db, sql: "SELECT entity_id FROM source_record WHERE source_id = ? AND kind = 'event'", arguments: [id])
            })
            return try catalog.explain(eventID: event)?.festivalNearMiss
        }
        #expect(try missed("b1")?.eventID == festivalID)
        #expect(try missed("b1")?.keptApartBecause == "no act of its bill (Chapel Moon) is on the festival's")
        #expect(try missed("b2")?.keptApartBecause == "its day (2027-07-12) is not a day of the festival (2027-07-09 to 2027-07-11)")
        #expect(try missed("b3")?.keptApartBecause == "2000 m from the festival's grounds, more than 1000 m")
        #expect(try catalog.explain(eventID: festivalID)?.festivalNearMiss == nil, "a festival is not a set")
    }

    // MARK: - The decision, as plain values

    func nearby(
        _ id: Int64, from start: String = "2027-07-09", to end: String? = "2027-07-11", kilometres: Double = 0.4,
        acts: Set<String> = ["nightferry"], sources: Set<String> = ["songkick"], whole: Set<String> = ["songkick"]
    ) -> PageApplier.NearbyEvent {
        PageApplier.NearbyEvent(
            id: id, localDate: start, endDate: end, kilometres: kilometres, actKeys: acts, sources: sources,
            wholeSources: whole)
    }

    @Test func aSetBelongsToTheNearestFestivalOfItsDayPlaceAndAct() {
        let set = (start: "2027-07-10", end: "2027-07-10", acts: Set(["nightferry"]))
        func chosen(_ festivals: [PageApplier.NearbyEvent], source: String = "bandsintown") -> Int64? {
            PageApplier.festival(for: set, source: source, among: festivals)?.festival.id
        }
        #expect(chosen([nearby(1)]) == 1)
        #expect(chosen([nearby(1, kilometres: 0.9), nearby(2, kilometres: 0.3)]) == 2)
        #expect(chosen([nearby(1, kilometres: 1.2)]) == nil, "too far from the grounds")
        #expect(chosen([nearby(1, from: "2027-07-11", to: "2027-07-12")]) == nil, "not a day of the span")
        #expect(chosen([nearby(1, acts: ["chapelmoon"])]) == nil, "the act is not on the bill")
        #expect(chosen([nearby(1, whole: [])]) == nil, "not a festival row")
        #expect(chosen([nearby(1)], source: "songkick") == nil, "the source lists the festival whole")
    }

    @Test func aFestivalTakesInTheSetsOfItsBillDaysAndGrounds() {
        let festival = (localDate: "2027-07-09", endDate: "2027-07-11", acts: Set(["nightferry"]), wholeSources: Set(["songkick"]))
        let events = [
            nearby(1, from: "2027-07-10", to: nil, sources: ["bandsintown"], whole: []),
            nearby(2, from: "2027-07-12", to: nil, sources: ["bandsintown"], whole: []),
            nearby(3, from: "2027-07-10", to: nil, kilometres: 3, sources: ["bandsintown"], whole: []),
            nearby(4, from: "2027-07-10", to: nil, sources: ["songkick"], whole: []),
            nearby(5, from: "2027-07-09", to: "2027-07-11", sources: ["ticketmaster"], whole: ["ticketmaster"]),
        ]
        #expect(PageApplier.sets(of: festival, among: events).map(\.id) == [1])
    }

    @Test func aFestivalIsASpanOrAFestivalWithABillOfSeveralOrNone() {
        #expect(PageApplier.isWholeFestival(kind: "festival", localDate: "2027-07-09", endDate: "2027-07-09", acts: 5))
        #expect(PageApplier.isWholeFestival(kind: "concert", localDate: "2027-07-09", endDate: "2027-07-11", acts: 0))
        #expect(!PageApplier.isWholeFestival(kind: "festival", localDate: "2027-07-10", endDate: "2027-07-11", acts: 1))
        #expect(!PageApplier.isWholeFestival(kind: "concert", localDate: "2027-07-09", endDate: nil, acts: 3))
    }
}
