import Foundation
import Geo
import Listings

/// Turns schema.org event nodes into listings, validating every value on the way.
///
/// Decisions (see also ``JSONLDDateTime/parse(_:)`` and ``JSONLDPrice/parse(_:)``):
/// - **Ids.** Pages are from any site and all land under one source, so an id must be
///   unique on the web: an absolute `@id` (not `_:b0` or `#event`), else an absolute
///   `url`, else an `identifier` that is a URI or at least 16 characters long (a bare
///   `"1234"` could be any site's), else `derived:` and a hash of name, start and venue
///   name. When several different events of one page share an id (a venue page giving
///   every event the page's own URL), each gets its derived key instead.
/// - **Venues.** `@id`, `url` or `sameAs` of the Place that names it alone (not a site's
///   root or a ticket seller's generic page: ``VenueIdentityLink``), else a key derived
///   from name, locality (else street, postcode or position) and country. A plain-string
///   address is read by ``FreeTextAddress`` (`"1354 W Wabansia Ave, Chicago, IL 60622"`);
///   kept as the street when it names no place.
/// - **Performers.** `@id`, else the first `sameAs` URL, else `name:` and the lower-cased
///   name; a `musicbrainz.org/artist/<uuid>` link in `@id`, `url` or `sameAs` gives the
///   MBID. The first performer headlines, the rest support; nameless ones are skipped.
///   With no performer, the acts the event's `name` bills (``TitleBill``).
/// - **Kind.** An event whose name says it is no concert (``NonConcertClassifier``; for a
///   `MusicEvent` only passes, meet & greets, sports and anniversaries) is skipped by kind.
/// - **Times.** The wall clock as written is the local time and its offset gives the
///   instant; a time in UTC (`Z`, `+00:00`) is an instant only, put on the venue's clock
///   once its zone is known. `endDate` is kept only for events that run over more than one
///   day: a show that ends on the same day, or before its start time on the next day
///   (23:00 to 04:00), has none.
/// - **Status.** `EventScheduled`, `EventCancelled`, `EventPostponed`,
///   `EventRescheduled` (with or without a prefix); `EventMovedOnline` is still on
///   (scheduled). Anything else is an invalid value.
struct JSONLDNormalizer {
    let locator: String
    /// The whole file, for lines and columns.
    let bytes: [UInt8]
    /// Positions in HTML pages are lines and columns; in JSON files, JSON paths.
    let isHTML: Bool
    let graph: JSONLDGraph
    var classifier = NonConcertClassifier()

    /// An event and the key derived from its content (to replace an id it shares).
    struct Normalized {
        var listing: EventListing
        var derivedKey: String
        /// Values dropped from it (an impossible on-sale date).
        var warnings: [ListingWarning] = []
        /// The kind of non-concert it is, when it is one: skipped and counted.
        var nonConcert: NonConcertKind?
    }

    func event(_ site: JSONLDGraph.EventSite) throws(IngestError) -> Normalized {
        let node = site.node
        let types = JSONLDGraph.types(of: node)
        var name = try text(node["name"])
        if name == nil { name = try text(site.inherited.name) }

        guard let startNode = node["startDate"], try text(startNode) != nil else {
            throw invalid(node, "startDate", "an event without a start date")
        }
        let start = try dateTime(startNode)
        var endDate: LocalDate?
        if let endNode = node["endDate"], try text(endNode) != nil {
            let end = try dateTime(endNode)
            guard end.date >= start.date else {
                throw invalid(endNode, nil, "ends (\(end.date)) before it starts (\(start.date))")
            }
            endDate = Self.lastDay(start: start, end: end)
        }
        let status = try self.status(node["eventStatus"] ?? site.inherited.status)
        var venue: VenueListing?
        if let location = node["location"] ?? site.inherited.location {
            venue = try self.venue(location)
        }

        var performers = node["performer"] ?? node["performers"] ?? site.inherited.performer
        if performers == nil, types.contains("festival"), let children = node["subEvent"] ?? node["subEvents"] {
            // A festival that bills its acts only on its sub-events.
            var acts: [JSONLDNode] = []
            for child in children.elements ?? [children] {
                if let act = graph.resolve(child)["performer"] { acts.append(contentsOf: act.elements ?? [act]) }
            }
            if !acts.isEmpty { performers = JSONLDNode(value: .array(acts), offset: node.offset, block: node.block) }
        }
        var lineup = try self.lineup(performers)
        if lineup.isEmpty, let shared = site.inherited.performer {
            lineup = try self.lineup(shared)  // its own performers were only unresolvable references
        }
        if lineup.isEmpty, let name {
            lineup = TitleBill(name).lineup
        }
        var warnings: [ListingWarning] = []
        let offers = try self.offers(node["offers"], warnings: &warnings)
        let url = try link(node["url"])
        let title = name ?? ListingValues.title(lineup: lineup, venue: venue)

        var hasher = ContentHasher()
        hasher.combine(title.lowercased())
        hasher.combine(start.date.description + (start.time.map { "T\($0)" } ?? ""))
        hasher.combine(venue?.name.lowercased())
        let derivedKey = "derived:" + hasher.hexDigest

        var id = Self.absoluteIRI(node["@id"]?.string) ?? url.flatMap { Self.absoluteIRI($0) }
        if id == nil, let identifier = try self.identifier(node["identifier"]),
            identifier.contains(":") || identifier.count >= 16
        {
            id = identifier
        }
        let listing = EventListing(
            sourceID: id ?? derivedKey,
            title: title,
            kind: types.contains("festival") ? .festival : .concert,
            status: status,
            start: start.eventStart,
            endDate: endDate,
            venue: venue,
            lineup: lineup,
            url: url,
            ageRestriction: try text(node["typicalAgeRange"]),
            offers: offers)
        let nonConcert = name.flatMap {
            classifier.kind(title: $0, place: venue?.name, typedAsMusic: types.contains("musicevent"))
        }
        return Normalized(listing: listing, derivedKey: derivedKey, warnings: warnings, nonConcert: nonConcert)
    }

    // MARK: - Venues

    func venue(_ node: JSONLDNode) throws(IngestError) -> VenueListing? {
        switch node.value {
        case .null:
            return nil
        case .string:
            guard let name = try text(node) else { return nil }
            return VenueListing(sourceID: ListingValues.derivedVenueKey(name: name, city: nil, area: nil), name: name)
        case .array(let elements):
            for element in elements {
                if let venue = try venue(element) { return venue }
            }
            return nil
        case .object:
            return try place(graph.resolve(node))
        default:
            throw shape(node, nil, "location is \(node.kindDescription); expected a Place, a name, or a list of them")
        }
    }

    private func place(_ node: JSONLDNode) throws(IngestError) -> VenueListing? {
        let types = JSONLDGraph.types(of: node)
        if types.contains("virtuallocation") { return nil }
        let name = try text(node["name"])
        var address = Address()
        if types.contains("postaladdress") {
            address = try self.address(node)
        } else if let addressNode = node["address"] {
            address = try self.address(addressNode)
        }
        let coordinate = try self.coordinate(of: node)
        let url = try link(node["url"])
        let links = try sameAs(node)
        let explicitID = ([Self.absoluteIRI(node["@id"]?.string), url.flatMap { Self.absoluteIRI($0) }] + links)
            .lazy.compactMap { $0 }.first(where: VenueIdentityLink.identifies)
        if name == nil, explicitID == nil, coordinate == nil, address.isEmpty { return nil }
        let venueName = name ?? "Unknown venue"
        return VenueListing(
            sourceID: explicitID ?? Self.derivedVenueKey(venueName, address: address, coordinate: coordinate),
            name: venueName, street: address.street, postalCode: address.postalCode, city: address.city,
            region: address.region, country: address.country, coordinate: coordinate, url: url)
    }

    /// A venue with no identity of its own: its name with its city, else its street or
    /// postcode, else its position (to about 100 m), so that namesakes stay apart.
    private static func derivedVenueKey(_ name: String, address: Address, coordinate: Coordinate?) -> String {
        let area = address.country?.lowercased()
        if address.city != nil { return ListingValues.derivedVenueKey(name: name, city: address.city, area: area) }
        let place = address.street ?? address.postalCode
            ?? coordinate.map { String(format: "%.3f,%.3f", $0.latitude, $0.longitude) }
        return ListingValues.derivedVenueKey(name: name, city: place, area: area)
    }

    private struct Address {
        var street: String?
        var postalCode: String?
        var city: String?
        var region: String?
        var country: String?

        var isEmpty: Bool { [street, postalCode, city, region, country].allSatisfy { $0 == nil } }
    }

    private func address(_ node: JSONLDNode) throws(IngestError) -> Address {
        switch node.value {
        case .null:
            return Address()
        case .string:
            guard let text = try addressPart(node) else { return Address() }
            // "1354 West Wabansia Ave, Chicago, IL 60622": read by ``FreeTextAddress``,
            // whose first part is a street here, not a venue's name.
            let read = FreeTextAddress(text)
            guard !read.isOnline, read.city != nil || read.country != nil else { return Address(street: text) }
            let street = read.street ?? (read.name != nil && read.name != read.city ? read.name : nil)
            return Address(street: street, postalCode: read.postalCode, city: read.city, region: read.region, country: read.country)
        case .array(let elements):
            guard let first = elements.first else { return Address() }
            return try address(first)
        case .object:
            let node = graph.resolve(node)
            return Address(
                street: try addressPart(node["streetAddress"]),
                postalCode: try addressPart(node["postalCode"]),
                city: try addressPart(node["addressLocality"]),
                region: try addressPart(node["addressRegion"]),
                country: try addressPart(node["addressCountry"].map { graph.resolve($0) }))
        default:
            throw shape(node, nil, "address is \(node.kindDescription); expected a PostalAddress or text")
        }
    }

    /// Address text without the trailing commas templates leave (`"3734 W Belmont Ave, "`).
    private func addressPart(_ node: JSONLDNode?) throws(IngestError) -> String? {
        guard var text = try text(node) else { return nil }
        while let last = text.last, last == "," || last == ";" || last.isWhitespace { text.removeLast() }
        return text.isEmpty ? nil : text
    }

    /// `geo` (GeoCoordinates) or the Place's own `latitude`/`longitude`.
    private func coordinate(of place: JSONLDNode) throws(IngestError) -> Coordinate? {
        var holder = place
        if var geo = place["geo"] {
            if let first = geo.elements?.first { geo = first }
            if geo.isNull { return nil }
            guard geo.members != nil else {
                throw shape(geo, nil, "geo is \(geo.kindDescription); expected GeoCoordinates")
            }
            holder = graph.resolve(geo)
        }
        guard let latitudeNode = holder["latitude"], let longitudeNode = holder["longitude"],
            let latitude = try number(latitudeNode), let longitude = try number(longitudeNode)
        else { return nil }
        guard (-90.0...90.0).contains(latitude) else {
            throw invalid(latitudeNode, nil, "latitude \(latitude) is outside -90...90")
        }
        guard (-180.0...180.0).contains(longitude) else {
            throw invalid(longitudeNode, nil, "longitude \(longitude) is outside -180...180")
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    private func number(_ node: JSONLDNode) throws(IngestError) -> Double? {
        switch node.value {
        case .null: return nil
        case .number(let value, _): return value
        case .string(let text):
            let trimmed = text.trimmingWhitespace()
            if trimmed.isEmpty { return nil }
            guard let value = Double(trimmed), value.isFinite else {
                throw invalid(node, nil, "not a number: \"\(trimmed)\"")
            }
            return value
        default:
            throw shape(node, nil, "expected a number, found \(node.kindDescription)")
        }
    }

    // MARK: - Performers

    private func lineup(_ node: JSONLDNode?) throws(IngestError) -> [PerformanceListing] {
        guard let node else { return [] }
        var lineup: [PerformanceListing] = []
        var seenIDs: Set<String> = []
        var seenNames: Set<String> = []
        for element in node.elements ?? [node] {
            guard let artist = try artist(element) else { continue }
            // The same act listed twice (once with a link, once without) plays once.
            guard seenIDs.insert(artist.sourceID).inserted, seenNames.insert(artist.name.lowercased()).inserted else {
                continue
            }
            lineup.append(
                PerformanceListing(artist: artist, billing: lineup.isEmpty ? .headline : .support, order: lineup.count + 1))
        }
        return lineup
    }

    private func artist(_ node: JSONLDNode) throws(IngestError) -> ArtistListing? {
        switch node.value {
        case .null:
            return nil
        case .string:
            guard let name = try text(node) else { return nil }
            return ArtistListing(sourceID: "name:" + name.lowercased(), name: name)
        case .object:
            let node = graph.resolve(node)
            guard let name = try text(node["name"]) else { return nil }
            let ownID = Self.absoluteIRI(node["@id"]?.string)
            let url = try link(node["url"])
            let links = try sameAs(node)
            var mbids: [String] = []
            for candidate in [ownID, url].compactMap({ $0 }) + links {
                if let mbid = Self.musicBrainzID(in: candidate), !mbids.contains(mbid) { mbids.append(mbid) }
            }
            return ArtistListing(
                sourceID: ownID ?? links.first ?? "name:" + name.lowercased(), name: name, musicBrainzIDs: mbids,
                url: url ?? links.first)
        default:
            throw shape(node, nil, "performer is \(node.kindDescription); expected a MusicGroup or Person, or a name")
        }
    }

    /// The absolute URLs of `sameAs` (one or a list).
    private func sameAs(_ node: JSONLDNode) throws(IngestError) -> [String] {
        guard let value = node["sameAs"] else { return [] }
        var links: [String] = []
        for element in value.elements ?? [value] {
            if let link = try link(element), let absolute = Self.absoluteIRI(link) { links.append(absolute) }
        }
        return links
    }

    /// The MBID in `https://musicbrainz.org/artist/<uuid>`, lower-cased.
    static func musicBrainzID(in link: String) -> String? {
        guard let range = link.range(ofText: "musicbrainz.org/artist/", ignoringASCIICase: true) else { return nil }
        var id = Array(link.utf8[range.upperBound...].prefix(36))
        guard id.count == 36 else { return nil }
        for (offset, byte) in id.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard JSONSyntaxLocator.isHexDigit(byte) else { return nil }
                id[offset] = byte | 0x20  // A-F to a-f; digits and a-f have the bit already
            }
        }
        return String(decoding: id, as: UTF8.self)
    }

    // MARK: - Offers

    private func offers(_ node: JSONLDNode?, warnings: inout [ListingWarning]) throws(IngestError) -> [OfferListing] {
        guard let node else { return [] }
        var offers: [OfferListing] = []
        for element in node.elements ?? [node] {
            switch element.value {
            case .null:
                continue
            case .string:
                if let url = try link(element) { offers.append(OfferListing(url: url)) }
            case .object:
                if let offer = try offer(graph.resolve(element), warnings: &warnings) { offers.append(offer) }
            default:
                throw shape(element, nil, "offers is \(element.kindDescription); expected an Offer or a list of them")
            }
        }
        return offers
    }

    private func offer(_ node: JSONLDNode, warnings: inout [ListingWarning]) throws(IngestError) -> OfferListing? {
        var priceHolder = node
        if node["price"] == nil, node["lowPrice"] == nil, node["highPrice"] == nil, var specification = node["priceSpecification"] {
            if let first = specification.elements?.first { specification = first }
            if specification.members != nil { priceHolder = graph.resolve(specification) }
        }
        let price = try self.price(priceHolder["price"])
        let low = try self.price(priceHolder["lowPrice"] ?? priceHolder["minPrice"])
        let high = try self.price(priceHolder["highPrice"] ?? priceHolder["maxPrice"])
        let minimum = low?.low ?? price?.low
        let maximum = high?.high ?? price?.high
        if let minimum, let maximum, minimum > maximum {
            throw invalid(priceHolder, "lowPrice", "the lowest price (\(minimum)) is above the highest (\(maximum))")
        }
        let currency =
            try text(node["priceCurrency"] ?? priceHolder["priceCurrency"]).flatMap(JSONLDPrice.currencyCode)
            ?? price?.currency ?? low?.currency ?? high?.currency
        let availability = try term(node["availability"]).map(JSONLDText.words)
        var onSale: String?
        if let validFrom = node["validFrom"], let text = try text(validFrom) {
            if (try? JSONLDDateTime.parse(text)) != nil {
                onSale = text
            } else {
                warnings.append(ListingValues.impossibleOnSale(text, locator: locator, at: position(validFrom, nil)))
            }
        }
        let url = try link(node["url"])
        if url == nil, minimum == nil, maximum == nil, availability == nil, onSale == nil { return nil }
        return OfferListing(
            url: url, priceMin: minimum, priceMax: maximum, currency: minimum == nil && maximum == nil ? nil : currency,
            status: availability, onSale: onSale)
    }

    private func price(_ node: JSONLDNode?) throws(IngestError) -> JSONLDPrice.Parsed? {
        guard let node else { return nil }
        switch node.value {
        case .null:
            return nil
        case .number(let value, _):
            guard value >= 0 else { throw invalid(node, nil, "a negative price (\(value))") }
            return JSONLDPrice.Parsed(low: value, high: value)
        case .string(let text):
            do {
                return try JSONLDPrice.parse(JSONLDText.decodeEntities(text))
            } catch {
                throw invalid(node, nil, error.detail)
            }
        default:
            throw shape(node, nil, "a price is \(node.kindDescription); expected a number or text")
        }
    }

    // MARK: - Dates and status

    private func dateTime(_ node: JSONLDNode) throws(IngestError) -> JSONLDDateTime {
        guard let text = try text(node) else { throw invalid(node, nil, "an empty date") }
        do {
            return try JSONLDDateTime.parse(text)
        } catch {
            throw invalid(node, nil, error.detail)
        }
    }

    /// The last day of a multi-day event; nil for one that ends on its start date or
    /// runs past midnight into the next morning (a 23:00 to 04:00 club night).
    static func lastDay(start: JSONLDDateTime, end: JSONLDDateTime) -> LocalDate? {
        if end.date == start.date { return nil }
        if end.date == start.date.adding(days: 1), let startTime = start.time, let endTime = end.time,
            endTime <= startTime
        {
            return nil
        }
        return end.date
    }

    private func status(_ node: JSONLDNode?) throws(IngestError) -> EventStatus {
        guard let node, let text = try term(node) else { return .scheduled }
        switch text.lowercased() {
        case "eventscheduled", "scheduled", "eventmovedonline", "movedonline": return .scheduled
        case "eventcancelled", "eventcanceled", "cancelled", "canceled": return .cancelled
        case "eventpostponed", "postponed": return .postponed
        case "eventrescheduled", "rescheduled": return .rescheduled
        default: throw invalid(node, nil, "unknown eventStatus \"\(text)\"")
        }
    }

    // MARK: - Text

    /// Text from a string (entities decoded, white space collapsed), a number, the first
    /// element of a list, a `{"@value": ...}` or a `{"name": ...}`; nil for null or empty.
    func text(_ node: JSONLDNode?) throws(IngestError) -> String? {
        guard let node else { return nil }
        switch node.value {
        case .null: return nil
        case .string(let text): return JSONLDText.clean(text)
        case .number(_, let text): return text
        case .array(let elements):
            for element in elements {
                if let text = try text(element) { return text }
            }
            return nil
        case .object:
            if let value = node["@value"] { return try text(value) }
            let resolved = graph.resolve(node)
            if let name = resolved["name"] { return try text(name) }
            throw shape(node, nil, "expected text, found an object")
        case .bool:
            throw shape(node, nil, "expected text, found a boolean")
        }
    }

    /// The local name of a schema.org term (`EventCancelled`, `InStock`), written as text
    /// with or without a prefix, as `{"@id": ...}`, or as the first of a list.
    private func term(_ node: JSONLDNode?) throws(IngestError) -> String? {
        guard let node else { return nil }
        switch node.value {
        case .string(let text):
            let name = JSONLDText.localName(text)
            return name.isEmpty ? nil : name
        case .array(let elements):
            for element in elements {
                if let term = try term(element) { return term }
            }
            return nil
        case .object:
            if let id = node["@id"] ?? node["@value"] ?? node["name"] { return try term(id) }
            throw shape(node, nil, "expected a schema.org term, found an object")
        case .null:
            return nil
        default:
            throw shape(node, nil, "expected a schema.org term, found \(node.kindDescription)")
        }
    }

    /// A URL: a string, an `{"@id": ...}`, or the first of a list.
    private func link(_ node: JSONLDNode?) throws(IngestError) -> String? {
        guard let node else { return nil }
        switch node.value {
        case .string(let text): return JSONLDText.clean(text)
        case .array(let elements):
            for element in elements {
                if let link = try link(element) { return link }
            }
            return nil
        case .object:
            return try link(node["@id"] ?? node["url"])
        default:
            return nil
        }
    }

    /// `identifier` as text: a string or number, a PropertyValue's `value`, or the first of a list.
    private func identifier(_ node: JSONLDNode?) throws(IngestError) -> String? {
        guard let node else { return nil }
        switch node.value {
        case .string, .number: return try text(node)
        case .array(let elements):
            for element in elements {
                if let identifier = try identifier(element) { return identifier }
            }
            return nil
        case .object:
            return try identifier(node["value"] ?? node["@id"])
        default:
            return nil
        }
    }

    /// The IRI when it is absolute (`https://...`, `urn:...`), so unique beyond this page;
    /// nil for blank nodes (`_:b0`) and relative references (`#event`, `/events/1`).
    static func absoluteIRI(_ text: String?) -> String? {
        guard let text = text?.trimmingWhitespace(), !text.hasPrefix("_:"),
            let colon = text.firstIndex(of: ":"), colon > text.startIndex
        else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }),
            text.index(after: colon) < text.endIndex
        else { return nil }
        return JSONLDText.decodeEntities(text)
    }

    // MARK: - Errors

    /// A JSON path in a JSON file; `line L, column C (path)` in an HTML page.
    func position(_ node: JSONLDNode, _ key: String?) -> String {
        let path = node.path(key, in: bytes)
        let shown = path.isEmpty ? "top level" : path
        guard isHTML else { return shown }
        let (line, column) = Self.lineAndColumn(of: node.offset, in: bytes)
        return "line \(line), column \(column) (\(shown))"
    }

    func invalid(_ node: JSONLDNode, _ key: String?, _ detail: String) -> IngestError {
        IngestError(locator: locator, position: position(node, key), reason: .invalidValue(detail))
    }

    func shape(_ node: JSONLDNode, _ key: String?, _ detail: String) -> IngestError {
        IngestError(locator: locator, position: position(node, key), reason: .unexpectedShape(detail))
    }

    /// 1-based line and column (in characters) of a byte offset.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
