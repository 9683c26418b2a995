/// Writes snapshot payloads as compact JSON by hand: `JSONEncoder` on Linux costs more
/// than all the SQL of a record, and every record stores one. The output decodes with
/// `JSONDecoder` into the same snapshot (tests check the round trip).
struct SnapshotWriter {
    // UTF-8 bytes, not a String: appending to a String scalar by scalar was a tenth of
    // an ingest's time.
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var first = true

    init() {
        bytes.reserveCapacity(256)
    }

    mutating func field(_ key: String, _ value: String?) {
        guard let value else { return }
        writeKey(key)
        Self.appendQuoted(value, to: &bytes)
    }

    mutating func field(_ key: String, _ value: Double?) {
        guard let value, value.isFinite else { return }
        writeKey(key)
        bytes += (value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)).utf8
    }

    mutating func field(_ key: String, _ value: Int64?) {
        guard let value else { return }
        writeKey(key)
        bytes += String(value).utf8
    }

    mutating func field(_ key: String, _ value: Int?) {
        field(key, value.map(Int64.init))
    }

    mutating func field(_ key: String, _ value: Bool) {
        writeKey(key)
        bytes += (value ? "true" : "false").utf8
    }

    mutating func field(_ key: String, strings: [String]) {
        writeKey(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendQuoted(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func field(_ key: String, objects: [String]) {
        writeKey(key)
        bytes.append(UInt8(ascii: "["))
        for (index, object) in objects.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += object.utf8
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func finish() -> String {
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func writeKey(_ name: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        bytes += name.utf8
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// A JSON string literal; multi-byte UTF-8 passes through unchanged.
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += #"\""#.utf8
            case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
            case UInt8(ascii: "\n"): bytes += #"\n"#.utf8
            case UInt8(ascii: "\r"): bytes += #"\r"#.utf8
            case UInt8(ascii: "\t"): bytes += #"\t"#.utf8
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += #"\u00"#.utf8
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension ArtistSnapshot {
    var payload: String {
        var writer = SnapshotWriter()
        writer.field("mbids", strings: mbids)
        writer.field("name", name)
        writer.field("onTourUntil", onTourUntil)
        writer.field("url", url)
        return writer.finish()
    }
}

extension VenueSnapshot {
    var payload: String {
        var writer = SnapshotWriter()
        writer.field("approximate", approximate)
        writer.field("capacity", capacity)
        writer.field("city", city)
        writer.field("country", country)
        writer.field("geonameID", geonameID)
        writer.field("latitude", latitude)
        writer.field("longitude", longitude)
        writer.field("metroAreaID", metroAreaID)
        writer.field("name", name)
        writer.field("postalCode", postalCode)
        writer.field("region", region)
        writer.field("street", street)
        writer.field("timeZone", timeZone)
        writer.field("url", url)
        writer.field("website", website)
        return writer.finish()
    }
}

extension EventSnapshot {
    var payload: String {
        var writer = SnapshotWriter()
        writer.field("ageRestriction", ageRestriction)
        writer.field("endDate", endDate)
        writer.field("kind", kind)
        writer.field("lineup", objects: lineup.map { act in
            var inner = SnapshotWriter()
            inner.field("artistSourceID", act.artistSourceID)
            inner.field("billing", act.billing)
            inner.field("name", act.name)
            inner.field("order", act.order)
            return inner.finish()
        })
        writer.field("localDate", localDate)
        writer.field("localTime", localTime)
        writer.field("offers", objects: offers.map { offer in
            var inner = SnapshotWriter()
            inner.field("currency", offer.currency)
            inner.field("onSale", offer.onSale)
            inner.field("priceMax", offer.priceMax)
            inner.field("priceMin", offer.priceMin)
            inner.field("status", offer.status)
            inner.field("url", offer.url)
            return inner.finish()
        })
        writer.field("popularity", popularity)
        writer.field("status", status)
        writer.field("timeZone", timeZone)
        writer.field("title", title)
        writer.field("url", url)
        writer.field("utc", utc)
        writer.field("venueID", venueID)
        return writer.finish()
    }
}
