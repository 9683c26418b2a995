import Foundation
import Geo
import Listings

/// A snapshot as `source_record.payload` stores it: compact JSON with sorted keys,
/// written by ``SnapshotWriter`` (each type's `payload`) and read by `JSONDecoder`.
protocol StoredSnapshot: Decodable, Equatable {
    var payload: String { get }
}

/// The snapshot of a record that later, leaner mentions may name again (an artist on a
/// bill, a venue of an event): their gaps are filled from what the record said.
protocol FillableSnapshot: StoredSnapshot {
    func filling(from older: Self) -> Self
}

/// What one source record said, stored with it (`source_record.payload`), so that a
/// catalog row shared by several sources can be rebuilt from all of them at any time,
/// in an order that does not depend on which source arrived first.
struct ArtistSnapshot: FillableSnapshot {
    var name: String
    var mbids: [String]
    var url: String?
    var onTourUntil: String?

    init(_ listing: ArtistListing) {
        name = listing.name
        mbids = listing.musicBrainzIDs
        url = listing.url
        onTourUntil = listing.onTourUntil?.description
    }

    /// This snapshot with gaps filled from an older one of the same record: a lean
    /// mention inside an event does not erase what an artist page said.
    func filling(from older: ArtistSnapshot) -> ArtistSnapshot {
        var result = self
        if result.mbids.isEmpty { result.mbids = older.mbids }
        result.url = result.url ?? older.url
        result.onTourUntil = result.onTourUntil ?? older.onTourUntil
        return result
    }
}

struct VenueSnapshot: FillableSnapshot {
    var name: String
    var street: String?
    var postalCode: String?
    var city: String?
    var region: String?
    var country: String?
    var latitude: Double?
    var longitude: Double?
    var approximate: Bool
    var timeZone: String?
    var website: String?
    var capacity: Int?
    var url: String?
    var metroAreaID: Int64?
    var geonameID: Int?

    init(_ listing: VenueListing, metroAreaID: Int64?) {
        name = listing.name
        street = listing.street
        postalCode = listing.postalCode
        city = listing.city
        region = listing.region
        country = listing.country
        latitude = listing.coordinate?.latitude
        longitude = listing.coordinate?.longitude
        approximate = listing.coordinateIsApproximate
        timeZone = listing.timeZone
        website = listing.website
        capacity = listing.capacity
        url = listing.url
        self.metroAreaID = metroAreaID
        geonameID = listing.place?.geonameID
    }

    /// Gaps filled from an older snapshot of the same record; an approximate position
    /// never replaces an exact one.
    func filling(from older: VenueSnapshot) -> VenueSnapshot {
        var result = self
        result.street = street ?? older.street
        result.postalCode = postalCode ?? older.postalCode
        result.city = city ?? older.city
        result.region = region ?? older.region
        result.country = country ?? older.country
        if latitude == nil || (approximate && older.latitude != nil && !older.approximate) {
            result.latitude = older.latitude
            result.longitude = older.longitude
            result.approximate = older.approximate
        }
        result.timeZone = timeZone ?? older.timeZone
        result.website = website ?? older.website
        result.capacity = capacity ?? older.capacity
        result.url = url ?? older.url
        result.metroAreaID = metroAreaID ?? older.metroAreaID
        result.geonameID = geonameID ?? older.geonameID
        return result
    }
}

struct EventSnapshot: StoredSnapshot {
    struct Act: Codable, Equatable {
        var artistSourceID: String
        var name: String
        var billing: String
        var order: Int
    }

    struct Offer: Codable, Equatable {
        var url: String?
        var priceMin: Double?
        var priceMax: Double?
        var currency: String?
        var status: String?
        var onSale: String?
    }

    var title: String
    var kind: String
    var status: String
    var localDate: String
    var localTime: String?
    var timeZone: String?
    var utc: String?
    var endDate: String?
    var venueID: Int64?
    var lineup: [Act]
    var url: String?
    var popularity: Double?
    var ageRestriction: String?
    var note: String?
    var offers: [Offer]

    init(_ listing: EventListing, venueID: Int64?) {
        title = listing.title
        kind = listing.kind.rawValue
        status = listing.status.rawValue
        localDate = listing.start.localDate.description
        localTime = listing.start.localTime?.description
        timeZone = listing.start.timeZone ?? listing.venue?.timeZone
        utc = listing.start.utc?.description
        endDate = listing.endDate?.description
        self.venueID = venueID
        lineup = listing.lineup.map {
            Act(artistSourceID: $0.artist.sourceID, name: $0.artist.name, billing: $0.billing.rawValue, order: $0.order)
        }
        url = listing.url
        // A payload holds finite numbers only; so does the snapshot, which stands in for
        // its payload read back (see `rebuildEvent(_:recordAdded:knowing:)`).
        func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
        popularity = finite(listing.popularity)
        ageRestriction = listing.ageRestriction
        note = listing.note
        offers = listing.offers.map {
            Offer(
                url: $0.url, priceMin: finite($0.priceMin), priceMax: finite($0.priceMax), currency: $0.currency,
                status: $0.status, onSale: $0.onSale)
        }
    }
}

/// Reading payloads back (``SnapshotWriter`` writes them).
enum SnapshotCoding {
    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// Decodes a snapshot from a payload's bytes (valid only for the call).
    static func decode<T: Decodable>(_ type: T.Type, bytes: UnsafeBufferPointer<UInt8>) throws -> T {
        try JSONDecoder().decode(type, from: Data(buffer: bytes))
    }
}
