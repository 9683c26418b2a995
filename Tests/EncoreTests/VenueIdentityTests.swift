import Foundation
import Geo
@testable import Ingest
import Listings
import Testing

/// A page's link for a place is its identity only when it names that place alone
/// (issue 52: two venues sharing a ticket seller's homepage were merged, so a Portland
/// show was filed in Honolulu).
struct VenueIdentityTests {
    @Test(arguments: [
        "https://www.ticketmaster.com/", "https://example.com", "http://www.roundhouse.org.uk/",
        "https://www.eventbrite.com/", "https://www.eventbrite.co.uk/d/united-kingdom--london/events/",
        "https://dice.fm/", "https://www.songkick.com/venues", "https://www.facebook.com/events",
        "https://www.bandsintown.com/?utm_source=x", "https://www.seetickets.com/search", "https://venue.example/en/",
    ])
    func aSitesRootOrASellersGenericPageIsNoIdentity(_ link: String) {
        #expect(!VenueIdentityLink.identifies(link))
    }

    @Test(arguments: [
        "https://www.ticketmaster.com/climate-pledge-arena-tickets-seattle/venue/123894",
        "https://www.songkick.com/venues/17522-roundhouse", "https://www.facebook.com/thefillmore",
        "http://mamacolive.com/thejazzcafe/", "https://lanternrooms.example/#venue", "https://dice.fm/venue/the-lexington-q6r",
        "urn:uuid:8f2b5a52-6c4f-4f1c-9a55-1d9d1c1e2b3a",
    ])
    func aPageOfItsOwnIsAnIdentity(_ link: String) {
        #expect(VenueIdentityLink.identifies(link))
    }

    func place(_ name: String, city: String, latitude: Double, longitude: Double, sameAs: String) -> String {
        """
        {"@context": "https://schema.org", "@type": "MusicEvent", "name": "\(name) show",
         "startDate": "2027-05-01T20:00", "performer": {"@type": "MusicGroup", "name": "\(name) band"},
         "location": {"@type": "Place", "name": "\(name)", "sameAs": "\(sameAs)", "url": "https://www.ticketmaster.com/",
           "address": {"@type": "PostalAddress", "addressLocality": "\(city)", "addressCountry": "US"},
           "geo": {"@type": "GeoCoordinates", "latitude": \(latitude), "longitude": \(longitude)}}}
        """
    }

    /// Two venues whose only links are a seller's homepage are two venues, each keyed by
    /// its name and city, and each show stays in its own city.
    @Test func venuesSharingASellersHomepageStayApart() throws {
        let text = "[" + place("Doug Fir Lounge", city: "Portland", latitude: 45.5226, longitude: -122.6566,
                                sameAs: "https://www.ticketmaster.com/")
            + "," + place("Blue Note Hawaii", city: "Honolulu", latitude: 21.2793, longitude: -157.8292,
                          sameAs: "https://www.ticketmaster.com/") + "]"
        let page = try JSONLDIngester().parse(Data(text.utf8), context: PageContext(locator: "two-places.json"))
        let venues = page.events.compactMap(\.venue)
        #expect(venues.count == 2)
        #expect(Set(venues.map(\.sourceID)).count == 2)
        #expect(venues.allSatisfy { $0.sourceID.hasPrefix("derived:") })
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(page)
        #expect(try catalog.stats(today: TestSupport.today).venues == 2)
    }

    /// Songkick's London MusicEvents (pashaweb/showByDateLondon `server/job/fakeData.js`)
    /// give each venue's own homepage as `sameAs`: a root, so each venue is keyed by its
    /// name and city; a page under a promoter's site ("mamacolive.com/thejazzcafe/") keys it.
    @Test(.enabled(if: TestSupport.realWorld("jsonld") != nil))
    func recordedVenueHomepagesKeyVenuesByNameAndCity() throws {
        let root = try #require(TestSupport.realWorld("jsonld"))
        let path = root + "/uk_london_songkick_microformat_musicevents_2016.json"
        let page = try JSONLDIngester().parse(
            try Data(contentsOf: URL(fileURLWithPath: path)), context: PageContext(locator: path))
        let venues = page.events.compactMap(\.venue)
        let roundhouse = try #require(venues.first { $0.name == "Roundhouse" })
        #expect(roundhouse.sourceID.hasPrefix("derived:"))
        let jazzCafe = try #require(venues.first { $0.name == "The Jazz Cafe" })
        #expect(jazzCafe.sourceID == "http://mamacolive.com/thejazzcafe/")
    }
}
