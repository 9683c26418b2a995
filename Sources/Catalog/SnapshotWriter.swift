/// Writes snapshot payloads as compact JSON by hand: `JSONEncoder` on Linux costs more
/// than all the SQL of a record, and every record stores one. The output decodes with
/// `JSONDecoder` into the same snapshot (tests check the round trip).
struct SnapshotWriter {
    private var text = "{"
    private var first = true

    init() {
        text.reserveCapacity(256)
    }

    mutating func field(_ key: String, _ value: String?) {
        guard let value else { return }
        writeKey(key)
        Self.appendQuoted(value, to: &text)
    }

    mutating func field(_ key: String, _ value: Double?) {
        guard let value, value.isFinite else { return }
        writeKey(key)
        text += value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    mutating func field(_ key: String, _ value: Int64?) {
        guard let value else { return }
        writeKey(key)
        text += String(value)
    }

    mutating func field(_ key: String, _ value: Int?) {
        field(key, value.map(Int64.init))
    }

    mutating func field(_ key: String, _ value: Bool) {
        writeKey(key)
        text += value ? "true" : "false"
    }

    mutating func field(_ key: String, strings: [String]) {
        writeKey(key)
        text += "["
        for (index, value) in strings.enumerated() {
            if index > 0 { text += "," }
            Self.appendQuoted(value, to: &text)
        }
        text += "]"
    }

    mutating func field(_ key: String, objects: [String]) {
        writeKey(key)
        text += "[" + objects.joined(separator: ",") + "]"
    }

    mutating func finish() -> String {
        text += "}"
        return text
    }

    private mutating func writeKey(_ name: String) {
        if !first { text += "," }
        first = false
        text += "\"" + name + "\":"
    }

    static func appendQuoted(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
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
