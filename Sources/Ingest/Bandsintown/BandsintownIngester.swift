import Foundation
import Listings

/// Reads Bandsintown REST API v3 responses: an artist's events (a bare JSON array) and
/// artist info (one object). Error bodies are source errors.
///
/// Decisions, from the recorded responses:
/// - **Artists** are names: `lineup` is a list of strings and the API looks artists up
///   by name, so an artist's source id is `name:` and the lower-cased name, in event
///   lineups and artist info alike (the numeric id stays in the URL). Artist info and an
///   event's embedded `artist` add the MusicBrainz id, which lets other sources merge.
///   The first act listed headlines; the rest are support, in order.
/// - **Times.** `datetime` is the venue's wall clock with no offset; the zone comes from
///   the venue's city (geo enrichment). `datetime_display_rule: "date"` means the time
///   is not known yet.
/// - **Venues** have no id: a key derived from name, city and country stands in.
/// - **Status.** Bandsintown has none; a cancelled show disappears from the list (the
///   listing lifecycle notices). Festivals carry `festival_start_date`.
/// - **Offers** keep the ticket link, its status and `on_sale_datetime`.
public struct BandsintownIngester: Ingester {
    public let format = "bandsintown"
    public let source = ListingSource.bandsintown
    public var crawlScheme: (any CrawlScheme)? { BandsintownCrawlScheme() }

    public init() {}

    /// A bare array (the events list: an empty one is Bandsintown's "no upcoming
    /// events"), an artist object with `tracker_count`, or `{"errorMessage": ...}`.
    public func recognizes(_ sample: ContentSample) -> Bool {
        let text = sample.text
        switch sample.firstSignificantByte {
        case UInt8(ascii: "["):
            let rest = text.drop { $0 != "[" }.dropFirst().drop(while: \.isWhitespace)
            if rest.first == "]" { return true }
            // v3 (`lineup`, `artist_id`; `starts_at` in the 2022 shape, whose large `offers`
            // and `venue` can push `datetime` past the sample) and v2 (`artists`, `ticket_url`).
            guard rest.first == "{" else { return false }
            let hasActs = sample.contains("\"lineup\"") || sample.contains("\"artist_id\"")
                || (sample.contains("\"artists\"") && sample.contains("\"ticket_url\""))
            return hasActs && (sample.contains("\"datetime\"") || sample.contains("\"starts_at\""))
        case UInt8(ascii: "{"):
            if let (key, _) = sample.firstObjectKey(), key == "errorMessage" { return true }
            return sample.contains("\"tracker_count\"") && sample.contains("\"upcoming_event_count\"")
        default:
            return false
        }
    }

    public func parse(_ data: Data, context: PageContext) throws(IngestError) -> ListingPage {
        let locator = context.locator
        var page = ListingPage(source: source, locator: locator)
        let normalizer = BandsintownNormalizer(values: ListingValues(locator: locator))
        if ContentSample(data, limit: 64).firstSignificantByte == UInt8(ascii: "[") {
            let events = try JSONPageDecoding.decode([BandsintownJSON.Event].self, from: data, locator: locator)
            for (index, event) in events.enumerated() {
                page.events.append(try normalizer.event(event, at: "[\(index)]", warnings: &page.warnings))
            }
            return page
        }
        let error = try JSONPageDecoding.decode(BandsintownJSON.ErrorBody.self, from: data, locator: locator)
        if let message = error.errorMessage ?? error.error ?? error.message {
            throw IngestError(locator: locator, position: "top level", reason: .sourceError("Bandsintown: \(message)"))
        }
        let artist = try JSONPageDecoding.decode(BandsintownJSON.Artist.self, from: data, locator: locator)
        guard let listing = normalizer.artist(artist) else {
            throw IngestError(
                locator: locator, position: "name",
                reason: .unexpectedShape("an artist without a name: not a Bandsintown artist or events response"))
        }
        page.artists.append(listing)
        return page
    }
}

struct BandsintownNormalizer {
    let values: ListingValues

    func artist(_ artist: BandsintownJSON.Artist) -> ArtistListing? {
        guard let name = ListingValues.clean(artist.name) else { return nil }
        return ArtistListing(
            sourceID: ListingValues.artistNameKey(name), name: name,
            musicBrainzIDs: ListingValues.clean(artist.mbid).map { [$0] } ?? [], url: ListingValues.clean(artist.url))
    }

    func event(
        _ event: BandsintownJSON.Event, at path: String, warnings: inout [ListingWarning]
    ) throws(IngestError) -> EventListing {
        guard let id = event.id?.value else { throw values.invalid("\(path).id", "an event without an id") }
        guard let startText = ListingValues.clean(event.datetime ?? event.starts_at) else {
            throw values.invalid("\(path).datetime", "an event without a start")
        }
        let start = try values.localDateTime(startText, at: "\(path).datetime")
        let time = event.datetime_display_rule == "date" ? nil : start.time

        var endDate: LocalDate?
        let festival = ListingValues.clean(event.festival_start_date) != nil
        if let text = ListingValues.clean(event.festival_end_date) ?? ListingValues.clean(event.ends_at) {
            let field = ListingValues.clean(event.festival_end_date) != nil ? "festival_end_date" : "ends_at"
            let end = try values.localDateTime(text, at: "\(path).\(field)").date
            // A festival's dates next to one set's `datetime` can disagree (a set listed
            // after the festival's end): the end is dropped, the show is kept.
            if end < start.date {
                warnings.append(
                    ListingWarning(
                        locator: values.locator, position: "\(path).\(field)",
                        message: "ends (\(end)) before it starts (\(start.date)); the end date is dropped"))
            } else if end > start.date {
                endDate = end
            }
        }

        var venue: VenueListing?
        if let raw = event.venue { venue = try self.venue(raw, at: "\(path).venue") }

        let embedded = event.artist.flatMap(artist)
        var lineup: [PerformanceListing] = []
        var seen: Set<String> = []
        // v2 lists `artists` objects (with MusicBrainz ids) where v3 lists `lineup` names.
        let listed = (event.artists ?? []).compactMap(artist)
        let names = event.lineup ?? listed.map(\.name)
        for name in names.compactMap(ListingValues.clean) where seen.insert(name.lowercased()).inserted {
            var act = ArtistListing(sourceID: ListingValues.artistNameKey(name), name: name)
            if let embedded, embedded.sourceID == act.sourceID { act = embedded }
            if let full = listed.first(where: { $0.sourceID == act.sourceID }), act.musicBrainzIDs.isEmpty { act = full }
            lineup.append(PerformanceListing(artist: act, billing: lineup.isEmpty ? .headline : .support, order: lineup.count + 1))
        }
        if lineup.isEmpty, let embedded {
            lineup.append(PerformanceListing(artist: embedded, billing: .headline, order: 1))
        }

        let onSale = values.onSale(event.on_sale_datetime, at: "\(path).on_sale_datetime", warnings: &warnings)
        var offers = (event.offers ?? []).compactMap { offer -> OfferListing? in
            let url = ListingValues.clean(offer.url)
            let status = ListingValues.clean(offer.status)?.lowercased()
            guard url != nil || status != nil else { return nil }
            return OfferListing(url: url, status: event.sold_out == true ? "sold out" : status, onSale: onSale)
        }
        if offers.isEmpty, let url = ListingValues.clean(event.ticket_url) {
            offers = [OfferListing(url: url, status: ListingValues.clean(event.ticket_status)?.lowercased(), onSale: onSale)]
        }
        if offers.isEmpty, event.sold_out == true || onSale != nil {
            offers = [OfferListing(status: event.sold_out == true ? "sold out" : nil, onSale: onSale)]
        }

        return EventListing(
            sourceID: id,
            title: ListingValues.clean(event.title) ?? ListingValues.title(lineup: lineup, venue: venue),
            kind: festival ? .festival : .concert,
            start: EventStart(localDate: start.date, localTime: time),
            endDate: endDate,
            venue: venue,
            lineup: lineup,
            url: ListingValues.clean(event.url),
            offers: offers)
    }

    private func venue(_ venue: BandsintownJSON.Venue, at path: String) throws(IngestError) -> VenueListing {
        let name = ListingValues.clean(venue.name) ?? "Unknown venue"
        let city = ListingValues.clean(venue.city)
        let country = ListingValues.clean(venue.country)
        let coordinate = try values.coordinate(venue.latitude?.value, venue.longitude?.value, at: path)
        return VenueListing(
            sourceID: venue.id?.value ?? ListingValues.derivedVenueKey(name: name, city: city, area: country?.lowercased()),
            name: name, street: ListingValues.clean(venue.street_address),
            postalCode: ListingValues.clean(venue.postal_code), city: city,
            region: ListingValues.clean(venue.region), country: country, coordinate: coordinate)
    }
}

extension ListingSource {
    /// Fan-facing listings: after the sellers and the concert database.
    public static let bandsintown = ListingSource(name: "bandsintown", rank: 3)
}
