import Foundation
import Listings

/// Streams one Last.fm XML page (`<lfm status="ok">`): reads the paging attributes of
/// `<events>` as it opens, turns each `<event>` into a ``LastFMEventRecord`` when it
/// closes and normalizes it at once.
final class LastFMXMLReader: XMLRecordHandler {
    private let locator: String
    private let normalizer: LastFMNormalizer
    private(set) var page: ListingPage
    private var root: XMLOpenElement?
    private var status: String?
    private var sourceError: (code: String?, message: String?, position: XMLPosition)?
    private var sawEvents = false
    private var sawVenueMatches = false
    private var venueCount = 0
    private var eventCount = 0

    init(source: ListingSource, locator: String) {
        self.locator = locator
        normalizer = LastFMNormalizer(locator: locator)
        page = ListingPage(source: source, locator: locator)
    }

    func shouldCollect(_ element: XMLOpenElement, in path: XMLElementPath) throws(IngestError) -> Bool {
        switch path.names {
        case []:
            guard element.name == "lfm" else {
                throw IngestError(
                    locator: locator, position: element.position.description,
                    reason: .unexpectedShape("the root element is <\(element.name)>, not <lfm>"))
            }
            root = element
            status = element.attribute("status")
            return false
        case ["lfm"]:
            switch element.name {
            case "events":
                sawEvents = true
                let paging = LastFMPagingRecord(
                    page: element.attribute("page"), perPage: element.attribute("perPage"),
                    total: element.attribute("total"),
                    locate: { "\(element.position) (lfm.events.\($0))" })
                page.paging = try normalizer.paging(paging)
                return false
            case "event":
                sawEvents = true
                return true
            case "error":
                return true
            default:
                return false
            }
        case ["lfm", "events"]:
            return element.name == "event"
        case ["lfm", "results"]:
            // venue.search: `<results><venuematches><venue>`.
            if element.name == "venuematches" { sawVenueMatches = true }
            return false
        case ["lfm", "results", "venuematches"]:
            return element.name == "venue"
        default:
            return false
        }
    }

    func didCollect(_ record: XMLFragment, in path: XMLElementPath) throws(IngestError) {
        if record.name == "error" {
            sourceError = (record.attribute("code"), record.trimmedText, record.position)
            return
        }
        guard status == "ok" else { return }
        if record.name == "venue" {
            let base = "lfm.results.venuematches.venue[\(venueCount)]"
            venueCount += 1
            let raw = Self.venue(record)
            guard !raw.isEmpty else { return }
            page.venues.append(
                try normalizer.venue(
                    raw, locate: { "\(record.position(of: $0)) (\(base).\($0))" }, warnings: &page.warnings))
            return
        }
        let base: String
        if path.names == ["lfm"] {
            base = "lfm.event"
        } else {
            base = "lfm.events.event[\(eventCount)]"
            eventCount += 1
        }
        page.events.append(try normalizer.event(Self.event(record, base: base), warnings: &page.warnings))
    }

    /// The page, once the whole document has been read.
    func finish() throws(IngestError) -> ListingPage {
        guard let root else { throw IngestError(locator: locator, reason: .unexpectedShape("no <lfm> element")) }
        if status == "failed" || sourceError != nil {
            throw IngestError(
                locator: locator, position: "\(sourceError?.position ?? root.position) (lfm.error)",
                reason: .sourceError(LastFMNormalizer.errorMessage(code: sourceError?.code, message: sourceError?.message)))
        }
        guard status == "ok" else {
            throw IngestError(
                locator: locator, position: "\(root.position) (lfm.status)",
                reason: .unexpectedShape("status is \"\(status ?? "")\", not \"ok\" or \"failed\""))
        }
        guard sawEvents || sawVenueMatches else {
            throw IngestError(
                locator: locator, position: "\(root.position) (lfm)",
                reason: .unexpectedShape("no <events>, <event> or <venuematches>: not an event or venue response"))
        }
        return page
    }

    /// The raw values of one `<event>`.
    static func event(_ x: XMLFragment, base: String) -> LastFMEventRecord {
        let artists = x.child("artists")
        return LastFMEventRecord(
            id: x.childText("id"),
            title: x.childText("title"),
            artists: artists?.children(named: "artist").map(\.text) ?? [],
            headliner: artists?.childText("headliner"),
            venue: x.child("venue").map(venue),
            startDate: x.childText("startDate"),
            startTime: x.childText("startTime"),
            endDate: x.childText("endDate"),
            url: x.childText("url"),
            tickets: x.child("tickets")?.children(named: "ticket").map(\.text) ?? [],
            cancelled: x.childText("cancelled"),
            locate: { relative in "\(x.position(of: relative)) (\(base).\(relative))" })
    }

    static func venue(_ x: XMLFragment) -> LastFMVenueRecord {
        let location = x.child("location")
        let point = location?.child("geo:point")
        return LastFMVenueRecord(
            id: x.childText("id"),
            name: x.childText("name"),
            city: location?.childText("city"),
            country: location?.childText("country"),
            street: location?.childText("street"),
            postalCode: location?.childText("postalcode"),
            latitude: point?.childText("geo:lat"),
            longitude: point?.childText("geo:long"),
            timeZone: location?.childText("timezone"),
            url: x.childText("url"),
            website: x.childText("website"))
    }
}
