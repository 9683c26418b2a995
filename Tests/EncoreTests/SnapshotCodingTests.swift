@testable import Catalog
import Foundation
import Listings
import Testing

struct SnapshotCodingTests {
    /// A snapshot written and read back is the same snapshot.
    func roundTrip<T: StoredSnapshot>(_ snapshot: T) throws -> Bool {
        try SnapshotCoding.decode(T.self, from: snapshot.payload) == snapshot
    }

    @Test func payloadsReadBackAsTheSnapshotsWritten() throws {
        let artist = ArtistListing(
            sourceID: "1", name: "Sigur \"Rós\" \\ Ω\n", musicBrainzIDs: ["a", "b"], url: "http://x/y",
            onTourUntil: LocalDate(iso: "2027-01-02"))
        #expect(try roundTrip(ArtistSnapshot(artist)))

        let venue = VenueListing(
            sourceID: "v", name: "Sala\tApolo", city: "Barcelona", coordinate: .init(latitude: 41.374, longitude: 2.1696),
            capacity: 1600)
        #expect(try roundTrip(VenueSnapshot(venue, metroAreaID: 7)))

        let event = EventListing(
            sourceID: "e", title: "A \u{1} show", status: .cancelled,
            start: EventStart(localDate: LocalDate(iso: "2027-03-01")!, localTime: LocalTime(iso: "20:00")),
            lineup: [PerformanceListing(artist: artist, billing: .headline, order: 1)], popularity: 0.25,
            offers: [OfferListing(url: "http://t", priceMin: 10, priceMax: 25.5, currency: "EUR", status: "available")])
        #expect(try roundTrip(EventSnapshot(event, venueID: 3)))
    }

    /// A rebuild uses the snapshot of the record it just wrote instead of reading its
    /// payload back: the two must be the same, whatever the numbers.
    @Test(arguments: [Double.nan, .infinity, 0.1 + 0.2, 1e-7, 123_456_789.123, 0.223623, 2, -0.0])
    func anEventSnapshotIsWhatItsPayloadReadsBackAs(number: Double) throws {
        let event = EventListing(
            sourceID: "e", title: "Show", start: EventStart(localDate: LocalDate(iso: "2027-03-01")!),
            popularity: number, offers: [OfferListing(priceMin: number, priceMax: number)])
        #expect(try roundTrip(EventSnapshot(event, venueID: 3)))
    }

    /// Payloads as earlier versions wrote them by hand (from catalogs they made, and by
    /// their writer's rules: keys in order, integral numbers without a fraction) read,
    /// and are written again byte for byte: a catalog does not change for being read.
    @Test(arguments: [
        #"{"mbids":["be4238d5-1262-4f99-93d6-295d86e157c5"],"name":"Analog Mountains","onTourUntil":"2027-06-25","url":"http://www.songkick.com/artists/103913-analog-mountains?utm_source=45852&utm_medium=partner"}"#,
        #"{"mbids":[],"name":"Sigur \"Rós\" \\ Ω\n\t\u0001"}"#,
    ])
    func anArtistPayloadOfAnEarlierVersionReadsAndIsWrittenTheSame(payload: String) throws {
        #expect(try SnapshotCoding.decode(ArtistSnapshot.self, from: payload).payload == payload)
    }

    @Test(arguments: [
        #"{"approximate":false,"city":"Barcelona","country":"ES","geonameID":11549793,"latitude":41.3589695,"longitude":2.1258073,"metroAreaID":3,"name":"El Faro","street":"Calle de Cañizares, 109","timeZone":"Europe/Madrid","url":"http://www.elfaro.es/"}"#,
        #"{"approximate":true,"capacity":1600,"latitude":-33.8688,"longitude":151,"name":"Sala\tApolo","postalCode":"08004","region":"CT","website":"https://salaapolo.com/"}"#,
    ])
    func aVenuePayloadOfAnEarlierVersionReadsAndIsWrittenTheSame(payload: String) throws {
        #expect(try SnapshotCoding.decode(VenueSnapshot.self, from: payload).payload == payload)
    }

    @Test(arguments: [
        #"{"kind":"concert","lineup":[{"artistSourceID":"K8vZ915EOV7","billing":"headline","name":"Alice Irving & the Daughters","order":1},{"artistSourceID":"K8vZ918QC2k","billing":"support","name":"Les Fantômes Éphémères","order":2}],"localDate":"2027-01-04","localTime":"20:00:00","offers":[{"currency":"USD","priceMax":39.5,"priceMin":20,"url":"https://www.ticketmaster.com/alice-irving-and-the-daughters-minneapolis-01-04-2027/event/164C31A0F4788649"}],"status":"cancelled","timeZone":"America/Chicago","title":"Alice Irving & the Daughters","url":"https://www.ticketmaster.com/alice-irving-and-the-daughters-minneapolis-01-04-2027/event/164C31A0F4788649","utc":"2027-01-05T02:00:00Z","venueID":15}"#,
        #"{"ageRestriction":"18+","endDate":"2027-05-01","kind":"festival","lineup":[],"localDate":"2027-04-29","note":"Doors 19:00","offers":[{"onSale":"2027-01-10T10:00:00Z","status":"onsale"}],"popularity":0.099471,"status":"scheduled","title":"A \"quoted\" \\ show","venueID":117}"#,
    ])
    func anEventPayloadOfAnEarlierVersionReadsAndIsWrittenTheSame(payload: String) throws {
        #expect(try SnapshotCoding.decode(EventSnapshot.self, from: payload).payload == payload)
    }

    @Test func aWholeNumberWrittenWithAFractionStillReads() throws {
        let payload = #"{"name":"Low","mbids":[],"approximate":false,"capacity":1600.0}"#
        let venue = try SnapshotCoding.decode(VenueSnapshot.self, from: payload)
        #expect(venue.capacity == 1600 && venue.name == "Low")
    }
}
