import Foundation
import Listings

/// Streams one Songkick XML page: reads the envelope attributes as they open, turns
/// each result element (`event`, `artist`, `venue`, `location`) into the `SongkickJSON`
/// value the JSON reader would have decoded, and normalizes it at once.
final class SongkickXMLReader: XMLRecordHandler {
    private let source: ListingSource
    private let context: PageContext
    private let normalizer: SongkickNormalizer
    private var page: ListingPage
    private var root: XMLOpenElement?
    private var status: String?
    private var errorMessage: String?
    private var counts: [String: Int] = [:]

    private static let base = "resultsPage.results"

    init(source: ListingSource, context: PageContext) {
        self.source = source
        self.context = context
        normalizer = SongkickNormalizer(locator: context.locator)
        page = ListingPage(source: source, locator: context.locator)
    }

    private var locator: String { context.locator }

    func shouldCollect(_ element: XMLOpenElement, in path: XMLElementPath) throws(IngestError) -> Bool {
        switch path.names {
        case []:
            guard element.name == "resultsPage" else {
                throw IngestError(
                    locator: locator, position: element.position.description,
                    reason: .unexpectedShape("the root element is <\(element.name)>, not <resultsPage>"))
            }
            try readEnvelope(element)
            return false
        case ["resultsPage"]:
            return element.name == "error"
        case ["resultsPage", "results"]:
            return ["event", "artist", "venue", "location"].contains(element.name)
        default:
            return false
        }
    }

    func didCollect(_ record: XMLFragment, in path: XMLElementPath) throws(IngestError) {
        if record.name == "error" {
            errorMessage = record.value("message") ?? record.trimmedText
            return
        }
        guard status == "ok" else { return }
        let index = counts[record.name, default: 0]
        counts[record.name] = index + 1
        let path = "\(Self.base).\(record.name)[\(index)]"
        let builder = SongkickXMLValues(locator: locator, record: record, base: path)
        do {
            switch record.name {
            case "event":
                page.events.append(try normalizer.event(try builder.event(record), at: path))
            case "artist":
                page.artists.append(try normalizer.artist(try builder.artist(record, at: path), at: path))
            case "venue":
                page.venues.append(try normalizer.venue(try builder.venue(record, at: path), location: nil, at: path))
            case "location":
                let location = try builder.location(record, at: path)
                if let metro = location.metroArea,
                    let listing = try normalizer.metroArea(metro, at: "\(path).metroArea")
                {
                    page.metroAreas.append(listing)
                }
            default:
                break
            }
        } catch {
            throw builder.located(error)
        }
    }

    /// The page, once the whole document has been read.
    func finish() throws(IngestError) -> ListingPage {
        guard let root else {
            throw IngestError(locator: locator, reason: .unexpectedShape("no <resultsPage> element"))
        }
        guard status == "ok" else {
            let message = errorMessage ?? "status \"\(status ?? "")\""
            throw IngestError(
                locator: locator, position: "\(root.position) (resultsPage.status)", reason: .sourceError(message))
        }
        SongkickNormalizer.resolveActsBilledByName(&page.events)
        page.similarArtists = SimilarArtistsListing(of: page, for: context)
        return page
    }

    private func readEnvelope(_ element: XMLOpenElement) throws(IngestError) {
        root = element
        guard let status = element.attribute("status") else {
            throw IngestError(
                locator: locator, position: "\(element.position) (resultsPage)",
                reason: .unexpectedShape("missing attribute \"status\""))
        }
        self.status = status
        func number(_ name: String) throws(IngestError) -> Int? {
            guard let text = element.attribute(name) else { return nil }
            guard let value = Int(text.trimmingSpaces()) else {
                throw IngestError(
                    locator: locator, position: "\(element.position) (resultsPage.\(name))",
                    reason: .invalidValue("\"\(text)\" is not a whole number"))
            }
            return value
        }
        let perPage = try number("perPage")
        let totalEntries = try number("totalEntries")
        if let number = try number("page") {
            page.paging = .init(page: number, perPage: perPage, totalEntries: totalEntries)
        }
    }
}

/// Builds `SongkickJSON` values from one result element. Values may be attributes
/// (as Songkick writes them) or child elements' text; empty means null.
struct SongkickXMLValues {
    let locator: String
    /// The result element, for positions.
    let record: XMLFragment
    /// The JSON-style path of the result element (`resultsPage.results.event[1]`).
    let base: String

    func event(_ x: XMLFragment) throws(IngestError) -> SongkickJSON.Event {
        var performances: [SongkickJSON.Performance] = []
        for (index, performance) in x.children(named: "performance").enumerated() {
            performances.append(try self.performance(performance, at: "\(base).performance[\(index)]"))
        }
        return SongkickJSON.Event(
            id: id(x),
            type: x.value("type"),
            displayName: x.value("displayName"),
            uri: x.value("uri"),
            status: x.value("status"),
            popularity: try double(x, "popularity", at: base),
            start: x.child("start").map(moment),
            end: x.child("end").map(moment),
            performance: performances,
            ageRestriction: x.value("ageRestriction"),
            venue: try x.child("venue").map { (venue) throws(IngestError) in try self.venue(venue, at: "\(base).venue") },
            location: try x.child("location").map { (location) throws(IngestError) in
                try eventLocation(location, at: "\(base).location")
            })
    }

    func performance(_ x: XMLFragment, at path: String) throws(IngestError) -> SongkickJSON.Performance {
        SongkickJSON.Performance(
            billing: x.value("billing"),
            billingIndex: try integer(x, "billingIndex", at: path),
            artist: try x.child("artist").map { (artist) throws(IngestError) in try self.artist(artist, at: "\(path).artist") })
    }

    func artist(_ x: XMLFragment, at path: String) throws(IngestError) -> SongkickJSON.Artist {
        SongkickJSON.Artist(
            id: id(x),
            displayName: x.value("displayName"),
            uri: x.value("uri"),
            identifier: x.children(named: "identifier").map { SongkickJSON.Identifier(mbid: $0.value("mbid")) },
            onTourUntil: x.value("onTourUntil"))
    }

    func venue(_ x: XMLFragment, at path: String) throws(IngestError) -> SongkickJSON.Venue {
        SongkickJSON.Venue(
            id: id(x),
            displayName: x.value("displayName"),
            uri: x.value("uri"),
            lat: try double(x, "lat", at: path),
            lng: try double(x, "lng", at: path),
            metroArea: try x.child("metroArea").map { (metro) throws(IngestError) in
                try metroArea(metro, at: "\(path).metroArea")
            },
            city: try x.child("city").map { (city) throws(IngestError) in try self.city(city, at: "\(path).city") },
            street: x.value("street"),
            zip: x.value("zip"),
            website: x.value("website"),
            capacity: try integer(x, "capacity", at: path))
    }

    func metroArea(_ x: XMLFragment, at path: String) throws(IngestError) -> SongkickJSON.MetroArea {
        SongkickJSON.MetroArea(
            id: id(x),
            displayName: x.value("displayName"),
            uri: x.value("uri"),
            country: x.child("country").map(named),
            state: x.child("state").map(named),
            lat: try double(x, "lat", at: path),
            lng: try double(x, "lng", at: path))
    }

    func city(_ x: XMLFragment, at path: String) throws(IngestError) -> SongkickJSON.City {
        SongkickJSON.City(
            id: id(x),
            displayName: x.value("displayName"),
            country: x.child("country").map(named),
            state: x.child("state").map(named),
            lat: try double(x, "lat", at: path),
            lng: try double(x, "lng", at: path))
    }

    func location(_ x: XMLFragment, at path: String) throws(IngestError) -> SongkickJSON.Location {
        SongkickJSON.Location(
            city: try x.child("city").map { (city) throws(IngestError) in try self.city(city, at: "\(path).city") },
            metroArea: try x.child("metroArea").map { (metro) throws(IngestError) in
                try metroArea(metro, at: "\(path).metroArea")
            })
    }

    func eventLocation(_ x: XMLFragment, at path: String) throws(IngestError) -> SongkickJSON.EventLocation {
        SongkickJSON.EventLocation(
            city: x.value("city"), lat: try double(x, "lat", at: path), lng: try double(x, "lng", at: path))
    }

    func moment(_ x: XMLFragment) -> SongkickJSON.Moment {
        SongkickJSON.Moment(date: x.value("date"), time: x.value("time"), datetime: x.value("datetime"))
    }

    func named(_ x: XMLFragment) -> SongkickJSON.Named {
        SongkickJSON.Named(displayName: x.value("displayName") ?? x.trimmedText)
    }

    // MARK: - Scalars

    private func id(_ x: XMLFragment) -> FlexibleID? {
        x.value("id").map { FlexibleID(value: $0) }
    }

    private func double(_ x: XMLFragment, _ name: String, at path: String) throws(IngestError) -> FlexibleDouble? {
        guard let text = x.value(name)?.trimmingSpaces(), !text.isEmpty else { return nil }
        guard let number = Double(text) else {
            throw located("\(path).\(name)", .invalidValue("not a number: \"\(text)\""))
        }
        return FlexibleDouble(value: number)
    }

    private func integer(_ x: XMLFragment, _ name: String, at path: String) throws(IngestError) -> Int? {
        guard let text = x.value(name)?.trimmingSpaces(), !text.isEmpty else { return nil }
        guard let number = Int(text) else {
            throw located("\(path).\(name)", .invalidValue("not a whole number: \"\(text)\""))
        }
        return number
    }

    // MARK: - Positions

    /// An error at a JSON-style path, placed at the line and column of the element
    /// holding the value.
    func located(_ path: String, _ reason: IngestError.Reason) -> IngestError {
        IngestError(locator: locator, position: position(of: path), reason: reason)
    }

    /// The normalizer's error (which names a JSON-style path) with the line and column
    /// of the element that path leads to.
    func located(_ error: IngestError) -> IngestError {
        guard let path = error.position, path.hasPrefix(base), !path.hasPrefix("line ") else { return error }
        var located = error
        located.position = position(of: path)
        return located
    }

    /// `line 14, column 9 (resultsPage.results.event[1].venue.lat)`.
    private func position(of path: String) -> String {
        var relative = path.dropFirst(base.count)
        if relative.hasPrefix(".") { relative = relative.dropFirst() }
        return "\(record.position(of: String(relative))) (\(path))"
    }
}
