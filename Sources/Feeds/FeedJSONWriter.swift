import Foundation
import Listings

/// Writes feed JSON directly, byte for byte what `JSONEncoder` writes with
/// `[.sortedKeys, .withoutEscapingSlashes]`: compact, keys sorted.
///
/// Event details fill almost every feed file (each event appears on its concert page,
/// its metro page, its venue page and every band page of its bill), and `JSONEncoder`
/// spent half a build's CPU on them: it builds a tree of boxed values and sorts every
/// object's keys before writing a byte. Documents here write their keys already in
/// sorted order (`FeedJSONWriterTests` checks every document of the sample against
/// `JSONEncoder`, so the two cannot drift apart). Being compact, a value is the same
/// bytes wherever it sits in a document, so values rendered once can be spliced.
struct FeedJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// True right after `{` or `[`: the next member needs no comma.
    private var atContainerStart = true

    init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    // MARK: Containers

    mutating func openObject() { open(UInt8(ascii: "{")) }
    mutating func closeObject() { close(UInt8(ascii: "}")) }
    mutating func openArray() { open(UInt8(ascii: "[")) }
    mutating func closeArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        atContainerStart = true
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        atContainerStart = false
    }

    /// Starts an object member; keys must come in sorted order.
    mutating func key(_ key: StaticString) {
        if !atContainerStart { bytes.append(UInt8(ascii: ",")) }
        atContainerStart = false
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Starts an array element.
    mutating func element() {
        if !atContainerStart { bytes.append(UInt8(ascii: ",")) }
        atContainerStart = false
    }

    /// Appends a value rendered apart (by another writer).
    mutating func splice(_ value: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: value)
    }

    // MARK: Values

    mutating func null() { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    mutating func bool(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        }
    }

    mutating func integer(_ value: Int64) { bytes.appendDecimal(value) }

    mutating func integer(_ value: Int) { integer(Int64(value)) }

    /// Integral values below 2⁵³ as integers (`5`, `-0`), others as Swift prints them
    /// (`0.1`, `1e-07`, `1e+16`): JSONEncoder's rule.
    mutating func number(_ value: Double) {
        if value.rounded(.towardZero) == value, value.magnitude < 9_007_199_254_740_992 {
            if value == 0, value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
            integer(Int64(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    mutating func string(_ value: String) { bytes.appendJSONString(value) }

    mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    mutating func number(_ value: Double?) {
        if let value { number(value) } else { null() }
    }

    mutating func array<Element>(_ elements: [Element], _ write: (inout FeedJSONWriter, Element) -> Void) {
        openArray()
        for element in elements {
            self.element()
            write(&self, element)
        }
        closeArray()
    }

    /// The document, with the final newline feeds end with.
    mutating func finish() -> Data {
        bytes.append(0x0A)
        return Data(bytes)
    }
}

/// A document or value that writes itself through ``FeedJSONWriter``.
protocol FeedJSONWritable {
    func write(to json: inout FeedJSONWriter)
}

// MARK: - Catalog values

extension EventDetail: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        writeMembers(to: &json)
        json.closeObject()
    }

    /// The members of the event object. `directions` is the concert page's (written as
    /// `null` when `.some(nil)`, the venue having no coordinates); other pages pass none.
    func writeMembers(to json: inout FeedJSONWriter, directions: EventFeed.Directions?? = nil) {
        json.key("age_restriction")
        json.string(ageRestriction)
        if let directions {
            json.key("directions")
            if let directions {
                json.openObject()
                json.key("geo")
                json.string(directions.geo)
                json.key("openstreetmap")
                json.string(directions.openStreetMap)
                json.closeObject()
            } else {
                json.null()
            }
        }
        json.key("end")
        if let endDate {
            json.openObject()
            json.key("local_date")
            json.string(endDate.description)
            json.closeObject()
        } else {
            json.null()
        }
        json.key("id")
        json.integer(id)
        json.key("kind")
        json.string(kind.rawValue)
        json.key("lineup")
        json.array(lineup) { json, entry in entry.write(to: &json) }
        json.key("metro_area")
        if let metroArea { metroArea.write(to: &json) } else { json.null() }
        json.key("note")
        json.string(note)
        json.key("offers")
        json.array(offers) { json, offer in offer.write(to: &json) }
        json.key("popularity")
        json.number(popularity)
        json.key("sources")
        json.array(sources) { json, source in source.write(to: &json) }
        json.key("start")
        json.openObject()
        json.key("local_date")
        json.string(start.localDate.description)
        json.key("local_time")
        json.string(start.localTime?.description)
        json.key("timezone")
        json.string(start.timeZone)
        json.key("utc")
        json.string(start.utc?.description)
        json.closeObject()
        json.key("status")
        json.string(status.rawValue)
        json.key("title")
        json.string(title)
        if let unlistedSince {
            json.key("unlisted_since")
            json.string(unlistedSince)
        }
        json.key("venue")
        if let venue { venue.write(to: &json) } else { json.null() }
    }
}

extension VenueSummary: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        json.key("city")
        json.string(city)
        json.key("coordinates_approximate")
        json.bool(coordinatesApproximate)
        json.key("country")
        json.string(country)
        json.key("id")
        json.integer(id)
        json.key("lat")
        json.number(latitude)
        json.key("lng")
        json.number(longitude)
        json.key("name")
        json.string(name)
        json.key("postal_code")
        json.string(postalCode)
        json.key("region")
        json.string(region)
        json.key("street")
        json.string(street)
        json.key("timezone")
        json.string(timeZone)
        json.closeObject()
    }
}

extension MetroAreaSummary: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        json.key("country")
        json.string(country)
        json.key("id")
        json.integer(id)
        json.key("name")
        json.string(name)
        json.key("region")
        json.string(region)
        json.closeObject()
    }
}

extension LineupEntry: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        json.key("artist_id")
        json.integer(artistID)
        json.key("billing")
        json.string(billing.rawValue)
        json.key("name")
        json.string(name)
        json.key("order")
        json.integer(order)
        if let slot {
            json.key("slot")
            json.openObject()
            json.key("date")
            json.string(slot.date.description)
            if let time = slot.time {
                json.key("time")
                json.string(time.description)
            }
            json.closeObject()
        }
        json.closeObject()
    }
}

extension OfferDetail: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        json.key("currency")
        json.string(offer.currency)
        json.key("on_sale")
        json.string(offer.onSale)
        json.key("price_max")
        json.number(offer.priceMax)
        json.key("price_min")
        json.number(offer.priceMin)
        json.key("source")
        json.string(source)
        json.key("status")
        json.string(offer.status)
        json.key("url")
        json.string(offer.url)
        json.closeObject()
    }
}

extension SourceLink: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        json.key("id")
        json.string(id)
        json.key("source")
        json.string(source)
        json.key("url")
        json.string(url)
        json.closeObject()
    }
}

extension ArtistSearchIndex: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.array(entries) { json, entry in
            json.openObject()
            json.key("key")
            json.string(entry.key)
            json.key("name")
            json.string(entry.name)
            json.key("slug")
            json.string(entry.slug)
            json.closeObject()
        }
    }
}

extension ArtistSummary: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        json.key("id")
        json.integer(id)
        json.key("mbid")
        json.string(musicBrainzID)
        json.key("name")
        json.string(name)
        json.key("on_tour_until")
        json.string(onTourUntil?.description)
        json.key("sources")
        json.array(sources) { json, source in source.write(to: &json) }
        json.closeObject()
    }
}

extension VenueFeed: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        json.key("events")
        events.write(to: &json)
        json.key("metro_area")
        if let metroArea { metroArea.write(to: &json) } else { json.null() }
        paging.writeLinks(to: &json)
        json.key("sources")
        json.array(sources) { json, source in source.write(to: &json) }
        json.key("total_events")
        json.integer(paging.total)
        json.key("venue")
        venue.write(to: &json)
        json.closeObject()
    }
}

// MARK: - Feed documents

extension EventFeed: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        event.writeMembers(to: &json, directions: .some(directions))
        json.closeObject()
    }
}

extension MetroFeed: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        json.key("lat")
        json.number(latitude)
        json.key("lng")
        json.number(longitude)
        json.key("metro_area")
        metroArea.write(to: &json)
        paging.writeLinks(to: &json)
        json.key("total_events")
        json.integer(paging.total)
        json.key("upcoming")
        events.write(to: &json)
        json.closeObject()
    }
}

extension ArtistFeed: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        json.key("artist")
        artist.write(to: &json)
        paging.writeLinks(to: &json)
        json.key("recent_past")
        recentPast.write(to: &json)
        json.key("similar")
        json.array(similar) { json, similar in
            json.openObject()
            json.key("id")
            json.integer(similar.id)
            json.key("name")
            json.string(similar.name)
            json.key("slug")
            json.string(similar.slug)
            json.key("upcoming")
            json.integer(Int64(similar.upcoming))
            json.closeObject()
        }
        json.key("slug")
        json.string(slug)
        json.key("total_upcoming")
        json.integer(paging.total)
        json.key("upcoming")
        upcoming.write(to: &json)
        json.closeObject()
    }
}

extension FeedPaging {
    /// `next`, `page`, `pages`, `previous`: consecutive in sorted key order in every
    /// paginated document.
    func writeLinks(to json: inout FeedJSONWriter) {
        json.key("next")
        json.string(next)
        json.key("page")
        json.integer(page)
        json.key("pages")
        json.integer(pages)
        json.key("previous")
        json.string(previous)
    }
}

extension GeoJSON.FeatureCollection: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        json.key("features")
        json.array(features) { json, feature in
            json.openObject()
            json.key("geometry")
            json.openObject()
            json.key("coordinates")
            json.array(feature.geometry.coordinates) { json, value in json.number(value) }
            json.key("type")
            json.string(feature.geometry.type)
            json.closeObject()
            json.key("id")
            json.integer(feature.id)
            json.key("properties")
            json.openObject()
            json.key("approximate")
            json.bool(feature.properties.approximate)
            if let city = feature.properties.city {
                json.key("city")
                json.string(city)
            }
            json.key("events")
            json.array(feature.properties.events) { json, stub in stub.write(to: &json) }
            json.key("name")
            json.string(feature.properties.name)
            json.closeObject()
            json.key("type")
            json.string(feature.type)
            json.closeObject()
        }
        json.key("type")
        json.string(type)
        json.closeObject()
    }
}

extension GeoJSON.EventStub {
    /// A pin's bytes, the same in a map written whole and in one spliced (``RenderedEvents/pin(_:)``).
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        json.key("date")
        json.string(date)
        json.key("id")
        json.integer(id)
        json.key("status")
        json.string(status)
        json.key("time")
        json.string(time)
        json.key("title")
        json.string(title)
        json.closeObject()
    }
}
