@testable import Catalog
import Foundation
import Listings
import Testing

struct SnapshotWriterTests {
    /// Both readers, the tape's and `JSONDecoder`'s, give back the snapshot written.
    func roundTrip<T: TapeReadableSnapshot & Equatable>(_ snapshot: T, _ payload: String) throws -> Bool {
        let tape = try #require(JSONTape(Data(payload.utf8)))
        return try T(tape: tape.root) == snapshot && SnapshotCoding.decodeWithoutTape(T.self, from: payload) == snapshot
            && SnapshotCoding.decode(T.self, from: payload) == snapshot
    }

    @Test func handWrittenPayloadsDecodeToTheSameSnapshots() throws {
        let artist = ArtistListing(
            sourceID: "1", name: "Sigur \"Rós\" \\ Ω\n", musicBrainzIDs: ["a", "b"], url: "http://x/y",
            onTourUntil: LocalDate(iso: "2027-01-02"))
        let snapshot = ArtistSnapshot(artist)
        #expect(try roundTrip(snapshot, snapshot.payload))

        let venue = VenueListing(
            sourceID: "v", name: "Sala\tApolo", city: "Barcelona", coordinate: .init(latitude: 41.374, longitude: 2.1696),
            capacity: 1600)
        let venueSnapshot = VenueSnapshot(venue, metroAreaID: 7)
        #expect(try roundTrip(venueSnapshot, venueSnapshot.payload))

        let event = EventListing(
            sourceID: "e", title: "A \u{1} show", status: .cancelled,
            start: EventStart(localDate: LocalDate(iso: "2027-03-01")!, localTime: LocalTime(iso: "20:00")),
            lineup: [PerformanceListing(artist: artist, billing: .headline, order: 1)], popularity: 0.25,
            offers: [OfferListing(url: "http://t", priceMin: 10, priceMax: 25.5, currency: "EUR", status: "available")])
        let eventSnapshot = EventSnapshot(event, venueID: 3)
        #expect(try roundTrip(eventSnapshot, eventSnapshot.payload))
    }

    /// A rebuild uses the snapshot of the record it just wrote instead of reading its
    /// payload back: the two must be the same, whatever the numbers.
    @Test(arguments: [Double.nan, .infinity, 0.1 + 0.2, 1e-7, 123_456_789.123, 0.223623, 2, -0.0])
    func anEventSnapshotIsWhatItsPayloadReadsBackAs(number: Double) throws {
        let event = EventListing(
            sourceID: "e", title: "Show", start: EventStart(localDate: LocalDate(iso: "2027-03-01")!),
            popularity: number, offers: [OfferListing(priceMin: number, priceMax: number)])
        let snapshot = EventSnapshot(event, venueID: 3)
        #expect(try roundTrip(snapshot, snapshot.payload))
    }

    @Test func aPayloadTheTapeReaderDoesNotExpectIsStillRead() throws {
        // A whole number written with a fraction: `JSONDecoder` reads it as an Int.
        let payload = #"{"name":"Low","mbids":[],"approximate":false,"capacity":1600.0}"#
        let venue = try SnapshotCoding.decode(VenueSnapshot.self, from: payload)
        #expect(venue.capacity == 1600 && venue.name == "Low")
    }
}
