/// Writes snapshot payloads as compact JSON by hand, the bytes `JSONEncoder` would write
/// with sorted keys: every record written stores one, and `JSONEncoder` made a first
/// bulk load measurably slower (BENCHMARKS.md). `JSONDecoder` reads them back.
struct SnapshotWriter {
    // UTF-8 bytes, not a String: every record written is encoded here, and appending to
    // a String goes scalar by scalar.
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var first = true

    init() {
        bytes.reserveCapacity(256)
    }

    mutating func field(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        writeKey(key)
        bytes.appendJSONString(value)
    }

    mutating func field(_ key: StaticString, _ value: Double?) {
        guard let value, value.isFinite else { return }
        writeKey(key)
        if value == value.rounded() && abs(value) < 1e15 {
            bytes.appendDecimal(Int64(value))
        } else {
            bytes += String(value).utf8
        }
    }

    mutating func field(_ key: StaticString, _ value: Int64?) {
        guard let value else { return }
        writeKey(key)
        bytes.appendDecimal(value)
    }

    mutating func field(_ key: StaticString, _ value: Int?) {
        field(key, value.map(Int64.init))
    }

    mutating func field(_ key: StaticString, _ value: Bool) {
        writeKey(key)
        bytes += (value ? "true" : "false").utf8
    }

    mutating func field(_ key: StaticString, strings: [String]) {
        writeKey(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.appendJSONString(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An array of objects, each written by `write` into this writer's own buffer (a
    /// festival's bill has dozens of acts: a writer and a string each added up).
    mutating func field<Element>(_ key: StaticString, objects: [Element], _ write: (inout SnapshotWriter, Element) -> Void) {
        writeKey(key)
        bytes.append(UInt8(ascii: "["))
        for (index, element) in objects.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "{"))
            first = true
            write(&self, element)
            bytes.append(UInt8(ascii: "}"))
        }
        first = false
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func finish() -> String {
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func writeKey(_ name: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
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
        writer.field("lineup", objects: lineup) { inner, act in
            inner.field("artistSourceID", act.artistSourceID)
            inner.field("billing", act.billing)
            inner.field("name", act.name)
            inner.field("order", act.order)
        }
        writer.field("localDate", localDate)
        writer.field("localTime", localTime)
        writer.field("note", note)
        writer.field("offers", objects: offers) { inner, offer in
            inner.field("currency", offer.currency)
            inner.field("onSale", offer.onSale)
            inner.field("priceMax", offer.priceMax)
            inner.field("priceMin", offer.priceMin)
            inner.field("status", offer.status)
            inner.field("url", offer.url)
        }
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
