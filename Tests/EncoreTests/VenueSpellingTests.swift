import Catalog
import Foundation
import GRDB
import Geo
import Ingest
import Listings
import Testing

/// Venue spellings real sources use for one place (issue 52), and where they are two places.
struct VenueSpellingTests {
    /// "Half Moon, Putney" and "The Windmill, Brixton" are how Songkick's London
    /// MusicEvents write them (pashaweb/showByDateLondon `server/job/fakeData.js`), as are
    /// "Islington O2 Academy 2" and "O2 Academy 2 Islington", one room twice.
    @Test(arguments: [
        ("Rider Works (Barcelona)", "Rider Works", "Barcelona"), ("Comet Works, Vienna", "Comet Works", "Vienna"),
        ("Club Galería - Madrid", "Club Galería", "Madrid"), ("Teatro Faro", "Faro", "Madrid"),
        ("Kulturhaus Wolke", "Wolke", "Berlin"), ("Bar Vega", "Vega", "Lisbon"), ("Half Moon, Putney", "Half Moon", "Putney"),
        ("Toyota Dragon Academy", "Dragon Academy", "Tokyo"), ("The O2", "O2 Arena", "London"),
        ("Islington O2 Academy 2", "O2 Academy 2 Islington", "London"),
    ])
    func spellingsOfOnePlaceAgree(_ a: String, _ b: String, _ city: String) {
        #expect(MatchKey.venueNamesAgree(a, b))
    }

    @Test func aCoreDropsKindWordsAndTheCityButNotWhatTellsRoomsApart() {
        #expect(VenueNameCore.of("Teatro Faro", cities: ["Madrid"]) == VenueNameCore.of("Faro (Madrid)", cities: ["Madrid"]))
        #expect(VenueNameCore.of("The Roundhouse (Sydney)", cities: ["Sydney"]) == VenueNameCore.of("Teatro Roundhouse", cities: ["Sydney"]))
        #expect(VenueNameCore.of("Sala Apolo 2", cities: ["Barcelona"]) != VenueNameCore.of("Sala Apolo", cities: ["Barcelona"]))
        // A name that is its city and a kind of place is its own core.
        #expect(VenueNameCore.of("Chicago Arena (Chicago)", cities: ["Chicago"]) != VenueNameCore.of("Chicago Music Hall", cities: ["Chicago"]))
    }

    @Test(arguments: [("Köln", "Cologne"), ("Lisboa", "Lisbon"), ("München", "Munich"), ("København", "Copenhagen"),
                      ("Praha", "Prague"), ("Wien", "Vienna"), ("Cracow", "Kraków")])
    func aCitysNamesInOtherLanguagesNameIt(_ local: String, _ english: String) {
        #expect(CityNames.nameOneCity(local, english))
    }

    @Test func differentCitiesAreNotOne() {
        #expect(!CityNames.nameOneCity("Vienna", "Prague"))
        #expect(!CityNames.nameOneCity("Köln", "München"))
    }

    func page(_ source: ListingSource, _ id: String, venue: String, city: String, at coordinate: Coordinate?, time: String = "20:00")
        -> ListingPage
    {
        var page = ListingPage(source: source, locator: "\(source.name)-\(id)")
        page.events = [EventListing(
            sourceID: id, title: "Mavi Vapur at \(venue)",
            start: EventStart(localDate: LocalDate(iso: "2027-03-14")!, localTime: LocalTime(iso: time)),
            venue: VenueListing(sourceID: "\(source.name)-\(venue)", name: venue, city: city, coordinate: coordinate),
            lineup: [PerformanceListing(artist: ArtistListing(sourceID: "\(source.name)-mavi", name: "Mavi Vapur"),
                                        billing: .headline, order: 1)])]
        return page
    }

    /// Bandsintown writes "Teatro Faro (Köln)" without a position; Songkick "Faro" in
    /// Cologne at its own: one venue, one concert, whichever arrives first.
    @Test func aVenueWithoutPositionSpelledAnotherWayInAnotherLanguagesCityJoins() throws {
        let enrichment = GeoEnrichment(gazetteer: try Gazetteer.bundled())
        let songkick = enrichment.enrich(page(.songkick, "1", venue: "Faro", city: "Cologne",
                                              at: Coordinate(latitude: 50.9402, longitude: 6.9581)))
        let bandsintown = enrichment.enrich(page(.bandsintown, "b1", venue: "Teatro Faro (Köln)", city: "Köln", at: nil))
        for order in [[songkick, bandsintown], [bandsintown, songkick]] {
            let (catalog, _) = try TestSupport.makeCatalog()
            for page in order { _ = try catalog.apply(page) }
            let stats = try catalog.stats(today: TestSupport.today)
            #expect(stats.venues == 1 && stats.events == 1, "\(order.map(\.source))")
        }
    }

    /// Without positions to tell them apart, rooms whose names do not agree stay apart.
    @Test func roomsOfOneCityWhoseNamesDisagreeStayApart() throws {
        let enrichment = GeoEnrichment(gazetteer: try Gazetteer.bundled())
        let arena = enrichment.enrich(page(.songkick, "1", venue: "Chicago Arena", city: "Chicago",
                                           at: Coordinate(latitude: 41.8564, longitude: -87.6620)))
        let hall = enrichment.enrich(page(.bandsintown, "b1", venue: "Chicago Music Hall (Chicago)", city: "Chicago", at: nil))
        let (catalog, _) = try TestSupport.makeCatalog()
        for page in [arena, hall] { _ = try catalog.apply(page) }
        #expect(try catalog.stats(today: TestSupport.today).venues == 2)
    }
}

extension VenueSpellingTests {
    @Test func aSponsorsNameInFrontKeepsTheVenueButANumberAfterItDoesNot() {
        #expect(VenueNameCore.agree("Coca-Cola Teatro Principal", "Teatro  Principal", cities: ["Valencia"]))
        #expect(VenueNameCore.agree("Heineken Wolkentheater", "Teatro Wolkentheater", cities: ["Vienna"]))
        #expect(!VenueNameCore.agree("Angel Moreau", "Théâtre Moreau", cities: ["Montreal"]), "another room, not a sponsor")
        #expect(VenueNameCore.agree("Coca-Cola Barlow Theatre", "Barlow", cities: ["Los Angeles"]))
        #expect(!VenueNameCore.agree("Sala Apolo 2", "Sala Apolo", cities: ["Barcelona"]))
        #expect(!VenueNameCore.agree("Big Sol", "Sol", cities: ["Madrid"]), "three letters say too little")
    }
}
