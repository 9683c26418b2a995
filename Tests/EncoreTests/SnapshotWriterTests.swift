@testable import Catalog
import Foundation
import Listings
import Testing

struct SnapshotWriterTests {
    @Test func handWrittenPayloadsDecodeToTheSameSnapshots() throws {
        let artist = ArtistListing(
            sourceID: "1", name: "Sigur \"Rós\" \\ Ω\n", musicBrainzIDs: ["a", "b"], url: "http://x/y",
            onTourUntil: LocalDate(iso: "2027-01-02"))
        let snapshot = ArtistSnapshot(artist)
        #expect(try SnapshotCoding.decode(ArtistSnapshot.self, from: snapshot.payload) == snapshot)

        let venue = VenueListing(
            sourceID: "v", name: "Sala\tApolo", city: "Barcelona", coordinate: .init(latitude: 41.374, longitude: 2.1696),
            capacity: 1600)
        let venueSnapshot = VenueSnapshot(venue, metroAreaID: 7)
        #expect(try SnapshotCoding.decode(VenueSnapshot.self, from: venueSnapshot.payload) == venueSnapshot)

        let event = EventListing(
            sourceID: "e", title: "A \u{1} show", status: .cancelled,
            start: EventStart(localDate: LocalDate(iso: "2027-03-01")!, localTime: LocalTime(iso: "20:00")),
            lineup: [PerformanceListing(artist: artist, billing: .headline, order: 1)], popularity: 0.25,
            offers: [OfferListing(url: "http://t", priceMin: 10, priceMax: 25.5, currency: "EUR", status: "available")])
        let eventSnapshot = EventSnapshot(event, venueID: 3)
        #expect(try SnapshotCoding.decode(EventSnapshot.self, from: eventSnapshot.payload) == eventSnapshot)
    }
}
