import GRDB
import Catalog
import Ingest
import Foundation
import Geo
import Listings
import Testing

/// How real sources list one concert differently (issue "One concert once"), and where two
/// listings that look alike are two concerts.
struct MergeVariationTests {
    let day = LocalDate(iso: "2027-03-14")!

    func page(_ source: String, _ id: String, venue: String, at time: String?, acts: [String], latitude: Double = 51.5432)
        -> ListingPage
    {
        var page = ListingPage(source: .registered(source), locator: source)
        page.events = [EventListing(
            sourceID: id, title: acts.joined(separator: ", "),
            start: EventStart(localDate: day, localTime: time.flatMap { LocalTime(iso: $0) }),
            venue: VenueListing(
                sourceID: "\(source)-\(venue)", name: venue, city: "London", country: "GB",
                coordinate: Coordinate(latitude: latitude, longitude: -0.1519)),
            lineup: acts.enumerated().map { index, name in
                PerformanceListing(
                    artist: ArtistListing(sourceID: "\(source)-\(name)", name: name),
                    billing: index == 0 ? .headline : .support, order: index + 1)
            })]
        return page
    }

    func eventCount(_ pages: [ListingPage]) throws -> Int {
        let (catalog, _) = try TestSupport.makeCatalog()
        for page in pages { _ = try catalog.apply(page) }
        return try catalog.stats(today: TestSupport.today).events
    }

    @Test func aMatineeAndTheEveningShowWithOneBillStayTwoConcerts() throws {
        let evening = page("songkick", "1", venue: "Roundhouse", at: "20:00", acts: ["The Distillers"])
        let matinee = page("bandsintown", "b1", venue: "Roundhouse", at: "15:00", acts: ["The Distillers"])
        #expect(try eventCount([evening, matinee]) == 2)
        #expect(try eventCount([matinee, evening]) == 2)
    }

    @Test func doorsAndStageTimesOfOneShowMerge() throws {
        let stage = page("songkick", "1", venue: "Roundhouse", at: "20:00", acts: ["The Distillers"])
        let doors = page("bandsintown", "b1", venue: "Roundhouse", at: "19:00", acts: ["The Distillers"])
        #expect(try eventCount([stage, doors]) == 1)
        #expect(try eventCount([doors, stage]) == 1)
    }

    /// Songkick lists an 18:30 show of The Magnetic Deserts and a cancelled one with an
    /// empty bill whose title names both acts; Bandsintown lists the latter's bill with no
    /// time. Whichever comes first, Bandsintown's listing is the one with both acts.
    @Test func aListingJoinsTheConcertItMatchesBestWhateverArrivedFirst() throws {
        let early = page("songkick", "1", venue: "Roundhouse", at: "18:30", acts: ["The Magnetic Deserts"])
        var cancelled = page("songkick", "2", venue: "Roundhouse", at: nil, acts: [])
        cancelled.events[0].title = "The Magnetic Deserts with Eliza Kingsley at Roundhouse"
        let listing = page("bandsintown", "b1", venue: "Roundhouse", at: nil, acts: ["Magnetic Deserts", "Eliza Kingsley"])
        for order in [[early, cancelled, listing], [listing, early, cancelled], [listing, cancelled, early]] {
            let (catalog, path) = try TestSupport.makeCatalog()
            for page in order { _ = try catalog.apply(page) }
            let partner = try DatabaseQueue(path: path).read { db in
                try String.fetchOne(db, sql: """
                    SELECT o.source_id FROM source_record r JOIN source_record o ON o.kind = 'event'
                        AND o.entity_id = r.entity_id AND o.source = 'songkick'
                    WHERE r.kind = 'event' AND r.source = 'bandsintown'
                    """)
            }
            #expect(partner == "2", "\(order.map { $0.events[0].sourceID })")
        }
    }

    @Test func aCreditFeaturingAGuestSharesItsActs() throws {
        let plain = page("songkick", "1", venue: "Roundhouse", at: "20:00", acts: ["The Neon Rivers"])
        let featuring = page("bandsintown", "b1", venue: "Roundhouse", at: "20:00", acts: ["The Neon Rivers feat. Stella Dunmore"])
        #expect(try eventCount([plain, featuring]) == 1)
        #expect(try eventCount([featuring, plain]) == 1)
        let stranger = page("bandsintown", "b2", venue: "Roundhouse", at: "20:00", acts: ["Stella Dunmore ft. Ana Ruiz"])
        #expect(try eventCount([plain, stranger]) == 2)
    }

    @Test func featuredActsSplitOnlyOnFeaturingWords() {
        #expect(MatchKey.featuredActs("The Neon Rivers feat. Stella Dunmore") == ["the neon rivers", "stella dunmore"])
        #expect(MatchKey.featuredActs("DJ Koze ft Róisín Murphy") == ["dj koze", "roisin murphy"])
        #expect(MatchKey.featuredActs("Simon & Garfunkel").isEmpty)
        #expect(MatchKey.featuredActs("Nick Cave and the Bad Seeds").isEmpty)
        #expect(MatchKey.featuredActs("Featuring").isEmpty)
    }

    @Test func venuesSharingOnlyWordsForAKindOfPlaceAreDifferentPlaces() throws {
        #expect(!MatchKey.venueNamesAgree("Outlaw Music Hall", "Angel Music Hall"))
        #expect(!MatchKey.venueNamesAgree("Club Jaguar", "Club Pantera"))
        #expect(MatchKey.venueNamesAgree("The Fillmore", "Fillmore"))
        #expect(MatchKey.venueNamesAgree("Club  Verrière", "Club Verrière"))
        #expect(MatchKey.venueNamesAgree("Sala Apolo", "Apolo"))
        #expect(MatchKey.venueNamesAgree("Music Hall", "The Music Hall"))
        // 153 m apart, one act in common: still two venues, so two concerts.
        let outlaw = page("songkick", "1", venue: "Outlaw Music Hall", at: "20:00", acts: ["Low"])
        let angel = page("bandsintown", "b1", venue: "Angel Music Hall", at: "20:00", acts: ["Low"], latitude: 51.5446)
        let (catalog, _) = try TestSupport.makeCatalog()
        for page in [outlaw, angel] { _ = try catalog.apply(page) }
        #expect(try catalog.stats(today: TestSupport.today).venues == 2)
    }

    /// Bandsintown and SeatGeek give a city's centre for some venues: such a position is
    /// the city's, so the venue merges by name and city as if it had none.
    @Test func aPositionAtTheCitysCentreIsApproximate() throws {
        let enrichment = GeoEnrichment(gazetteer: try Gazetteer.bundled())
        let bilbao = try #require(try Gazetteer.bundled().cities(named: "Bilbao").first?.coordinate)
        var page = ListingPage(source: .bandsintown, locator: "bit")
        page.venues = [
            VenueListing(sourceID: "centre", name: "Sala Itsaso", city: "Bilbao", country: "ES",
                         coordinate: Coordinate(latitude: bilbao.latitude + 0.001, longitude: bilbao.longitude)),
            VenueListing(sourceID: "placed", name: "Teatro Arriaga", city: "Bilbao", country: "ES",
                         coordinate: Coordinate(latitude: bilbao.latitude + 0.01, longitude: bilbao.longitude)),
        ]
        let enriched = enrichment.enrich(page)
        #expect(enriched.venues.map(\.coordinateIsApproximate) == [true, false])
    }

    /// One source spelling one venue two ways: both spellings are one venue, whichever
    /// comes first.
    @Test func oneSourcesTwoSpellingsOfAVenueJoinIt() throws {
        func spelled(_ name: String, _ id: String, latitude: Double) -> ListingPage {
            var page = ListingPage(source: .bandsintown, locator: id)
            page.venues = [VenueListing(
                sourceID: id, name: name, city: "London", country: "GB",
                coordinate: Coordinate(latitude: latitude, longitude: -0.1519))]
            return page
        }
        var songkick = ListingPage(source: .songkick, locator: "sk")
        songkick.venues = [VenueListing(
            sourceID: "sk-1", name: "The Fillmore", city: "London", country: "GB",
            coordinate: Coordinate(latitude: 51.5432, longitude: -0.1519))]
        for order in [[0, 1], [1, 0]] {
            let spellings = [spelled("Fillmore", "b-1", latitude: 51.5433), spelled("The  Fillmore", "b-2", latitude: 51.5431)]
            let (catalog, _) = try TestSupport.makeCatalog()
            _ = try catalog.apply(songkick)
            for index in order { _ = try catalog.apply(spellings[index]) }
            #expect(try catalog.stats(today: TestSupport.today).venues == 1, "\(order)")
        }
    }

    /// A venue one source spells two ways is rebuilt from both records when one of them
    /// changes, whether or not another source is in the catalog.
    @Test func aVenueOfTwoSpellingsIsRebuiltFromBothWithOneSourceOrMore() throws {
        func spelled(_ name: String, _ id: String, website: String? = nil) -> ListingPage {
            var page = ListingPage(source: .bandsintown, locator: id)
            page.venues = [VenueListing(
                sourceID: id, name: name, city: "London", country: "GB",
                coordinate: Coordinate(latitude: 51.5432, longitude: -0.1519), website: website)]
            return page
        }
        var elsewhere = ListingPage(source: .songkick, locator: "sk")
        elsewhere.venues = [VenueListing(
            sourceID: "sk-9", name: "La Cigale", city: "Paris", country: "FR",
            coordinate: Coordinate(latitude: 48.8822, longitude: 2.3403))]
        var londonVenues: [[String]] = []
        for withAnotherSource in [false, true] {
            let (catalog, path) = try TestSupport.makeCatalog()
            if withAnotherSource { _ = try catalog.apply(elsewhere) }
            _ = try catalog.apply(spelled("The Fillmore", "b-1"))
            _ = try catalog.apply(spelled("Fillmore", "b-2"))
            _ = try catalog.apply(spelled("Fillmore", "b-2", website: "https://fillmore.example"))
            let rows = try DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT name || ' ' || coalesce(website, '-') FROM venue WHERE city = 'London'")
            }
            londonVenues.append(rows)
        }
        #expect(londonVenues[0].count == 1)
        #expect(londonVenues[0] == londonVenues[1])
    }

    /// `encore explain` says, for a listing that did not join, which rule kept it apart.
    @Test func explainNamesTheRuleThatKeptANearMissApart() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(page("songkick", "1", venue: "Roundhouse", at: "20:00", acts: ["The Distillers"]))
        _ = try catalog.apply(page("bandsintown", "b1", venue: "Roundhouse", at: "15:00", acts: ["The Distillers"]))
        _ = try catalog.apply(page("lastfm", "l1", venue: "Angel Music Hall", at: "20:00", acts: ["Low"], latitude: 51.5446))
        _ = try catalog.apply(page("ticketmaster", "t1", venue: "Roundhouse", at: "20:00", acts: ["Mavi Vapur"]))
        let evening = try #require(try catalog.eventIDs(since: day).first)
        let explanation = try #require(try catalog.explain(eventID: evening))
        let reasons = explanation.nearMisses.map(\.keptApartBecause)
        #expect(reasons.count == 3)
        #expect(reasons.contains { $0.contains("starts at 15:00:00, more than 90 minutes from 20:00:00") })
        #expect(reasons.contains { $0.contains("no act in common") })
        #expect(reasons.contains { $0.contains("whose name does not agree") })
    }
}
