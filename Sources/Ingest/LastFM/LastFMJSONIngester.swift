import Foundation
import Listings

/// Reads Last.fm 2.0 JSON event responses: the same methods as ``LastFMXMLIngester``,
/// as `{"events": {"event": [...] | {...}, "@attr": {...}}}` or, for `event.getInfo`,
/// `{"event": {...}}`. `{"error": 6, "message": "..."}` is a source error.
///
/// Decoded leniently (see ``LastFMJSON``) into the same ``LastFMEventRecord`` values
/// the XML reader builds, and normalized by the shared ``LastFMNormalizer``.
///
/// ```swift
/// let page = try LastFMJSONIngester().parse(data, context: PageContext(locator: "toronto-p1.json"))
/// ```
public struct LastFMJSONIngester: Ingester {
    public let format = "lastfm-json"
    public let source = ListingSource.lastfm
    public var crawlScheme: (any CrawlScheme)? { LastFMCrawlScheme(json: true) }

    public init() {}

    /// `{"events": {` with `"event"` or `"@attr"` inside; `{"event": {` with a
    /// `"startDate"`; or `{"error": 6, ... "message"`. Songkick's `{"resultsPage"` and
    /// other JSON never start this way.
    public func recognizes(_ sample: ContentSample) -> Bool {
        guard let (key, next) = sample.firstObjectKey() else { return false }
        switch key {
        case "events":
            return next == UInt8(ascii: "{") && (sample.contains("\"event\"") || sample.contains("\"@attr\""))
        case "event":
            return next == UInt8(ascii: "{") && sample.contains("\"startDate\"")
        case "error":
            return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) && sample.contains("\"message\"")
        default:
            return false
        }
    }

    public func parse(_ data: Data, context: PageContext) throws(IngestError) -> ListingPage {
        let locator = context.locator
        let envelope = try JSONPageDecoding.decode(LastFMJSON.Envelope.self, from: data, locator: locator)
        if envelope.error != nil || envelope.message != nil && envelope.events == nil && envelope.event == nil {
            throw IngestError(
                locator: locator, position: "error",
                reason: .sourceError(
                    LastFMNormalizer.errorMessage(code: envelope.error?.value, message: envelope.message?.value)))
        }
        let normalizer = LastFMNormalizer(locator: locator)
        var page = ListingPage(source: source, locator: locator)
        if let events = envelope.events {
            guard let list = events.value else { return page }
            let attributes = list.attributes
            let inAttributes = attributes != nil
            page.paging = try normalizer.paging(
                LastFMPagingRecord(
                    page: attributes?.page?.value ?? list.page?.value,
                    perPage: attributes?.perPage?.value ?? list.perPage?.value,
                    total: attributes?.total?.value ?? list.total?.value,
                    locate: { inAttributes ? "events.@attr.\($0)" : "events.\($0)" }))
            if let many = list.event {
                for (index, event) in many.elements.enumerated() {
                    let base = many.wasSingle ? "events.event" : "events.event[\(index)]"
                    page.events.append(try normalizer.event(Self.record(event, base: base), warnings: &page.warnings))
                }
            }
        } else if let single = envelope.event {
            if let event = single.value {
                page.events.append(try normalizer.event(Self.record(event, base: "event"), warnings: &page.warnings))
            }
        } else {
            throw IngestError(
                locator: locator, position: "top level",
                reason: .unexpectedShape("missing key \"events\" or \"event\": not a Last.fm event response"))
        }
        return page
    }

    /// The raw values of one event, as the XML reader would have read them.
    static func record(_ event: LastFMJSON.Event, base: String) -> LastFMEventRecord {
        let artists = event.artists?.value
        let artistList = artists?.artist
        let venue = event.venue?.value
        let location = venue?.location?.value
        let point = location?.point?.value
        return LastFMEventRecord(
            id: event.id?.value,
            title: event.title?.value,
            artists: artistList?.elements.map { $0.value ?? "" } ?? [],
            headliner: artists?.headliner?.value,
            venue: venue.map { venue in
                LastFMVenueRecord(
                    id: venue.id?.value, name: venue.name?.value, city: location?.city?.value,
                    country: location?.country?.value, street: location?.street?.value,
                    postalCode: location?.postalcode?.value, latitude: point?.lat?.value,
                    longitude: point?.long?.value, timeZone: location?.timezone?.value,
                    url: venue.url?.value, website: venue.website?.value)
            },
            startDate: event.startDate?.value,
            startTime: event.startTime?.value,
            endDate: event.endDate?.value,
            url: event.url?.value,
            tickets: event.tickets?.value?.ticket?.elements.compactMap(\.value) ?? [],
            cancelled: event.cancelled?.value,
            locate: { relative in
                // A single artist is a string, not a list: `artists.artist`, not `artists.artist[0]`.
                if artistList?.wasSingle == true, relative == "artists.artist[0]" { return "\(base).artists.artist" }
                return "\(base).\(relative)"
            })
    }
}

extension ListingSource {
    /// Last.fm's listings are the least kept up: the last word on anything.
    public static let lastfm = ListingSource(name: "lastfm", rank: 5)
}
