import Foundation
import Listings

/// Reads Ticketmaster Discovery API v2 responses: event search, event details,
/// attraction search and details (artists), venue search and details.
///
/// Decisions, from the recorded responses:
/// - **Music only.** A search mixes sports, theatre and film with concerts. An event
///   whose primary classification's segment is not `Music` is skipped and counted
///   ("non-music events (Sports)"); an event with no classification at all is kept,
///   since dropping a real concert costs a fan more than listing an odd event.
///   Ticketmaster's `test` events and events with no date yet (`dateTBA`) are skipped
///   and counted too.
/// - **Times.** `localDate`/`localTime` are the venue's wall clock, `dateTime` the UTC
///   instant, `timezone` (the event's, else the venue's) the IANA zone. `timeTBA` or
///   `noSpecificTime` mean the time is not known. When the instant and the wall clock
///   disagree, the instant decides; a `dateTime` without `localDate` is kept, on the
///   venue's clock (geo enrichment finds the zone when the response gives none).
/// - **Status.** `onsale` and `offsale` are about tickets, not the show: both are
///   scheduled, and become the offers' status. `cancelled`, `postponed` and
///   `rescheduled` are the show's.
/// - **Lineup.** Attractions in order: the first headlines. An attraction's
///   MusicBrainz link (`externalLinks.musicbrainz`) lets other sources merge with it.
/// - **Offers.** One per price range (min, max, currency), with the event's link, its
///   ticket status and the public on-sale time.
/// - **Packages.** VIP, resale and other packages and parking passes are no shows:
///   left out and counted (``TicketmasterPackages``).
/// - **Paging.** `page.number` counts from 0; the page records it as `number + 1`.
public struct TicketmasterIngester: Ingester {
    public let format = "ticketmaster"
    public let source = ListingSource.ticketmaster
    public var crawlScheme: (any CrawlScheme)? { TicketmasterCrawlScheme() }

    public init() {}

    public func recognizes(_ sample: ContentSample) -> Bool {
        guard sample.firstSignificantByte == UInt8(ascii: "{") else { return false }
        if sample.contains("/discovery/v2/") || sample.contains("\"localDate\"") { return true }
        guard let (key, _) = sample.firstObjectKey() else { return false }
        switch key {
        case "_embedded":
            return sample.contains("\"events\"") || sample.contains("\"attractions\"") || sample.contains("\"venues\"")
        case "fault":
            return sample.contains("\"faultstring\"")
        case "errors":
            return sample.contains("\"DIS") || sample.contains("\"detail\"")
        default:
            return false
        }
    }

    public func parse(_ data: Data, context: PageContext) throws(IngestError) -> ListingPage {
        let locator = context.locator
        let response = try JSONPageDecoding.decode(
            TicketmasterJSON.Response.self, from: data, locator: locator)
        if let fault = response.fault {
            let code = fault.detail?.errorcode.map { " (\($0))" } ?? ""
            throw IngestError(
                locator: locator, position: "fault",
                reason: .sourceError("Ticketmaster: \(fault.faultstring ?? "fault")\(code)"))
        }
        if let errors = response.errors, !errors.isEmpty {
            let text = errors.map { [$0.code, $0.detail].compactMap { $0 }.joined(separator: ": ") }.joined(separator: "; ")
            throw IngestError(locator: locator, position: "errors", reason: .sourceError("Ticketmaster: \(text)"))
        }
        let normalizer = TicketmasterNormalizer(values: ListingValues(locator: locator))
        var page = ListingPage(source: source, locator: locator)
        if let paging = response.page, let number = paging.number {
            guard number >= 0 else { throw normalizer.values.invalid("page.number", "a negative page number (\(number))") }
            page.paging = ListingPage.Paging(page: number + 1, perPage: paging.size, totalEntries: paging.totalElements)
        }
        if let event = response.event {
            try normalizer.add(event, at: "", to: &page)
            return page
        }
        guard response.page != nil || response._embedded != nil else {
            // Details of one attraction or venue (`/attractions/{id}`, `/venues/{id}`).
            let resource = try JSONPageDecoding.decode(TicketmasterJSON.Resource.self, from: data, locator: locator)
            switch resource.type {
            case "attraction":
                let attraction = try JSONPageDecoding.decode(TicketmasterJSON.Attraction.self, from: data, locator: locator)
                if let artist = normalizer.artist(attraction) { page.artists.append(artist) }
            case "venue":
                let venue = try JSONPageDecoding.decode(TicketmasterJSON.Venue.self, from: data, locator: locator)
                page.venues.append(try normalizer.venue(venue, at: ""))
            default:
                throw IngestError(
                    locator: locator, position: "top level",
                    reason: .unexpectedShape(
                        "no \"_embedded\", \"page\", \"dates\" or \"type\" of attraction or venue: not a Ticketmaster Discovery response"))
            }
            return page
        }
        let embedded = response._embedded
        for (index, event) in (embedded?.events ?? []).enumerated() {
            try normalizer.add(event, at: "_embedded.events[\(index)]", to: &page)
        }
        TicketmasterPackages.leaveOut(from: &page)
        for attraction in embedded?.attractions ?? [] {
            if let artist = normalizer.artist(attraction) { page.artists.append(artist) }
        }
        for (index, venue) in (embedded?.venues ?? []).enumerated() {
            page.venues.append(try normalizer.venue(venue, at: "_embedded.venues[\(index)]"))
        }
        return page
    }
}

struct TicketmasterNormalizer {
    let values: ListingValues

    /// Adds one event to the page, or counts why it was left out.
    func add(_ event: TicketmasterJSON.Event, at base: String, to page: inout ListingPage) throws(IngestError) {
        func path(_ relative: String) -> String { base.isEmpty ? relative : "\(base).\(relative)" }
        if event.test == true {
            page.skipped["test events", default: 0] += 1
            return
        }
        let classification = event.classifications?.first { $0.primary == true } ?? event.classifications?.first
        if let segment = ListingValues.clean(classification?.segment?.name), segment.lowercased() != "music" {
            page.skipped["non-music events (\(segment))", default: 0] += 1
            return
        }
        guard let id = event.id?.value else { throw values.invalid(path("id"), "an event without an id") }
        let start = event.dates?.start
        let dateText = ListingValues.clean(start?.localDate)
        // Only the instant (`dateTime` without `localDate`): the venue's clock once its zone is known.
        var instantOnly: UTCInstant?
        if dateText == nil, start?.dateTBD != true, start?.dateTBA != true, let text = ListingValues.clean(start?.dateTime) {
            guard let instant = UTCInstant(iso: text) else {
                throw values.invalid(path("dates.start.dateTime"), "\"\(text)\" is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)")
            }
            instantOnly = instant
        }
        guard dateText != nil || instantOnly != nil else {
            page.skipped["events with no date yet", default: 0] += 1
            return
        }
        var date = instantOnly?.date ?? LocalDate(daysSinceEpoch: 0)
        if let dateText {
            guard let parsed = LocalDate(iso: dateText), dateText.count == 10 else {
                throw values.invalid(path("dates.start.localDate"), "\"\(dateText)\" is not a date (YYYY-MM-DD)")
            }
            date = parsed
        }
        var time: LocalTime?
        if start?.timeTBA != true, start?.noSpecificTime != true, let text = ListingValues.clean(start?.localTime) {
            guard let parsed = LocalTime(iso: text) else {
                throw values.invalid(path("dates.start.localTime"), "\"\(text)\" is not a time (HH:MM:SS)")
            }
            time = parsed
        }
        var utc: UTCInstant?
        if time != nil, let text = ListingValues.clean(start?.dateTime) {
            guard let instant = UTCInstant(iso: text) else {
                throw values.invalid(path("dates.start.dateTime"), "\"\(text)\" is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)")
            }
            utc = instant
        }
        var endDate: LocalDate?
        if let text = ListingValues.clean(event.dates?.end?.localDate) {
            guard let end = LocalDate(iso: text), text.count == 10 else {
                throw values.invalid(path("dates.end.localDate"), "\"\(text)\" is not a date (YYYY-MM-DD)")
            }
            guard end >= date else { throw values.invalid(path("dates.end.localDate"), "ends (\(end)) before it starts (\(date))") }
            if end > date { endDate = end }
        }

        var venue: VenueListing?
        if let raw = event._embedded?.venues?.first {
            venue = try self.venue(raw, at: path("_embedded.venues[0]"))
        }
        var zone: String?
        if let text = ListingValues.clean(event.dates?.timezone) {
            guard TimeZone(identifier: text) != nil else {
                throw values.invalid(path("dates.timezone"), "\"\(text)\" is not a known time zone")
            }
            zone = text
        }
        zone = zone ?? venue?.timeZone
        var eventStart = EventStart(localDate: date, localTime: time, timeZone: zone, utc: utc)
        if let instant = instantOnly ?? utc, let zone, let settled = EventStart(instant: instant, zone: zone) {
            // The instant decides the venue's date and time when the listing's disagree.
            eventStart = settled
            if instantOnly == nil, time == nil { eventStart.localTime = nil }
        } else if let instantOnly, let clock = UTCInstant.wallClock(of: instantOnly, in: "UTC") {
            eventStart = EventStart(localDate: clock.date, localTime: clock.time, utc: instantOnly)
            eventStart.awaitsVenueZone = true
        } else if utc == nil, let time, let zone {
            eventStart = EventStart(localDate: date, localTime: time, zone: zone)
        }

        let code = ListingValues.clean(event.dates?.status?.code)?.lowercased()
        let status: EventStatus
        switch code {
        case "cancelled", "canceled": status = .cancelled
        case "postponed": status = .postponed
        case "rescheduled": status = .rescheduled
        default: status = .scheduled
        }

        var lineup: [PerformanceListing] = []
        for attraction in event._embedded?.attractions ?? [] {
            guard let artist = artist(attraction), !lineup.contains(where: { $0.artist.sourceID == artist.sourceID }) else {
                continue
            }
            lineup.append(PerformanceListing(artist: artist, billing: lineup.isEmpty ? .headline : .support, order: lineup.count + 1))
        }

        let url = ListingValues.clean(event.url)
        let ticketStatus = code == "onsale" || code == "offsale" ? code : nil
        let onSale = values.onSale(event.sales?.public?.startDateTime, at: path("sales.public.startDateTime"), warnings: &page.warnings)
        var offers = (event.priceRanges ?? []).map { range in
            OfferListing(
                url: url, priceMin: range.min?.value, priceMax: range.max?.value,
                currency: ListingValues.clean(range.currency)?.uppercased(), status: ticketStatus, onSale: onSale)
        }
        if offers.isEmpty, url != nil || onSale != nil {
            offers = [OfferListing(url: url, status: ticketStatus, onSale: onSale)]
        }
        // Presales are offers of their own: `encore onsale` lists their times too.
        for (index, presale) in (event.sales?.presales ?? []).enumerated() {
            guard let start = values.onSale(presale.startDateTime, at: path("sales.presales[\(index)].startDateTime"), warnings: &page.warnings)
            else { continue }
            offers.append(OfferListing(url: url, status: "presale: " + (ListingValues.clean(presale.name) ?? "presale"), onSale: start))
        }

        let labels = (event.classifications ?? []).flatMap { [$0.genre?.name, $0.subGenre?.name, $0.type?.name, $0.subType?.name] }
        let festival = labels.contains { $0?.localizedCaseInsensitiveContains("festival") == true }

        page.events.append(
            EventListing(
                sourceID: id,
                title: ListingValues.clean(event.name) ?? ListingValues.title(lineup: lineup, venue: venue),
                kind: festival ? .festival : .concert,
                status: status,
                start: eventStart,
                endDate: endDate,
                venue: venue,
                lineup: lineup,
                url: url,
                offers: offers))
    }

    func artist(_ attraction: TicketmasterJSON.Attraction) -> ArtistListing? {
        guard let name = ListingValues.clean(attraction.name) else { return nil }
        let mbids = (attraction.externalLinks?.musicbrainz ?? []).compactMap { ListingValues.clean($0.id) }
        return ArtistListing(
            sourceID: attraction.id?.value ?? ListingValues.artistNameKey(name), name: name,
            musicBrainzIDs: mbids, url: ListingValues.clean(attraction.url))
    }

    func venue(_ venue: TicketmasterJSON.Venue, at path: String) throws(IngestError) -> VenueListing {
        let name = ListingValues.clean(venue.name) ?? "Unknown venue"
        let city = ListingValues.clean(venue.city?.name)
        let country = ListingValues.clean(venue.country?.countryCode) ?? ListingValues.clean(venue.country?.name)
        var zone: String?
        if let text = ListingValues.clean(venue.timezone) {
            guard TimeZone(identifier: text) != nil else {
                throw values.invalid("\(path).timezone", "\"\(text)\" is not a known time zone")
            }
            zone = text
        }
        return VenueListing(
            sourceID: venue.id?.value ?? ListingValues.derivedVenueKey(name: name, city: city, area: country?.lowercased()),
            name: name, street: ListingValues.clean(venue.address?.line1), postalCode: ListingValues.clean(venue.postalCode),
            city: city, region: ListingValues.clean(venue.state?.stateCode) ?? ListingValues.clean(venue.state?.name),
            country: country,
            coordinate: try values.coordinate(venue.location?.latitude?.value, venue.location?.longitude?.value, at: "\(path).location"),
            timeZone: zone, url: ListingValues.clean(venue.url))
    }
}

extension ListingSource {
    /// The box office: the most trusted source, and the one that says when a show is off.
    public static let ticketmaster = ListingSource(name: "ticketmaster", rank: 0, sellsTickets: true)
}
