import Foundation
import Geo
import Listings

/// The snapshot of a record that later, leaner mentions may name again (an artist on a
/// bill, a venue of an event): their gaps are filled from what the record said.
protocol FillableSnapshot: TapeReadableSnapshot, Equatable {
    func filling(from older: Self) -> Self
    var payload: String { get }
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

struct EventSnapshot: Codable, Equatable {
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

/// Reading payloads back (they are written by `SnapshotWriter`).
///
/// A merge rebuilds a row from every record's snapshot; with `JSONDecoder` the decoding
/// was an eighth of merging a second source. Snapshots are read from a ``JSONTape``, and
/// anything the tape reader does not expect goes to `JSONDecoder` (the same values;
/// `SnapshotWriterTests` holds the two to each other).
enum SnapshotCoding {
    static func decode<T: TapeReadableSnapshot>(_ type: T.Type, from text: String) throws -> T {
        var text = text
        return try text.withUTF8 { try decode(type, bytes: $0) }
    }

    /// Decodes a snapshot from a payload's bytes (valid only for the call).
    static func decode<T: TapeReadableSnapshot>(_ type: T.Type, bytes: UnsafeBufferPointer<UInt8>) throws -> T {
        if let tape = JSONTape(bytes: [UInt8](bytes)), let value = try? T(tape: tape.root) { return value }
        return try JSONDecoder().decode(type, from: Data(buffer: bytes))
    }

    static func decodeWithoutTape<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}

/// A snapshot read field by field from a ``JSONTape``, as `Decodable` reads it.
protocol TapeReadableSnapshot: Decodable {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss)
}

extension JSONTapeValue {
    /// A member `Decodable` requires: absent or null is a miss.
    fileprivate func required<T>(_ key: StaticString, _ read: (JSONTapeValue) throws(JSONTapeMiss) -> T) throws(JSONTapeMiss) -> T {
        guard let value = try optionalMember(key) else { throw JSONTapeMiss() }
        return try read(value)
    }

    fileprivate func int64(_ key: StaticString) throws(JSONTapeMiss) -> Int64? {
        try int(key).map(Int64.init)
    }

    fileprivate func optionalDouble(_ key: StaticString) throws(JSONTapeMiss) -> Double? {
        try optionalMember(key)?.double()
    }
}

extension ArtistSnapshot: TapeReadableSnapshot {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        name = try value.required("name") { v throws(JSONTapeMiss) in try v.string() }
        mbids = try value.required("mbids") { v throws(JSONTapeMiss) in try v.elements().map { e throws(JSONTapeMiss) in try e.string() } }
        url = try value.text("url")
        onTourUntil = try value.text("onTourUntil")
    }
}

extension VenueSnapshot: TapeReadableSnapshot {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        name = try value.required("name") { v throws(JSONTapeMiss) in try v.string() }
        street = try value.text("street")
        postalCode = try value.text("postalCode")
        city = try value.text("city")
        region = try value.text("region")
        country = try value.text("country")
        latitude = try value.optionalDouble("latitude")
        longitude = try value.optionalDouble("longitude")
        guard let approximate = try value.bool("approximate") else { throw JSONTapeMiss() }
        self.approximate = approximate
        timeZone = try value.text("timeZone")
        website = try value.text("website")
        capacity = try value.int("capacity")
        url = try value.text("url")
        metroAreaID = try value.int64("metroAreaID")
        geonameID = try value.int("geonameID")
    }
}

extension EventSnapshot: TapeReadableSnapshot {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        func string(_ v: JSONTapeValue) throws(JSONTapeMiss) -> String { try v.string() }
        title = try value.required("title", string)
        kind = try value.required("kind", string)
        status = try value.required("status", string)
        localDate = try value.required("localDate", string)
        localTime = try value.text("localTime")
        timeZone = try value.text("timeZone")
        utc = try value.text("utc")
        endDate = try value.text("endDate")
        venueID = try value.int64("venueID")
        lineup = try value.required("lineup") { v throws(JSONTapeMiss) in
            try v.elements().map { act throws(JSONTapeMiss) in
                Act(
                    artistSourceID: try act.required("artistSourceID", string), name: try act.required("name", string),
                    billing: try act.required("billing", string),
                    order: try act.required("order") { o throws(JSONTapeMiss) in try o.integer() })
            }
        }
        url = try value.text("url")
        popularity = try value.optionalDouble("popularity")
        ageRestriction = try value.text("ageRestriction")
        note = try value.text("note")
        offers = try value.required("offers") { v throws(JSONTapeMiss) in
            try v.elements().map { offer throws(JSONTapeMiss) in
                Offer(
                    url: try offer.text("url"), priceMin: try offer.optionalDouble("priceMin"),
                    priceMax: try offer.optionalDouble("priceMax"), currency: try offer.text("currency"),
                    status: try offer.text("status"), onSale: try offer.text("onSale"))
            }
        }
    }
}
