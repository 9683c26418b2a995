import Foundation
import Geo
import Listings

/// SeatGeek JSON to listings: the decisions listed on ``SeatGeekIngester``.
struct SeatGeekNormalizer {
    let values: ListingValues

    /// The concert taxonomy and its children (`music_festival` is 2010000).
    static let concertTaxonomies = 2_000_000..<3_000_000

    /// Adds one event to the page, or counts why it was left out.
    func add(_ event: SeatGeekJSON.Event, at base: String, to page: inout ListingPage) throws(IngestError) {
        func path(_ relative: String) -> String { base.isEmpty ? relative : "\(base).\(relative)" }
        if let category = Self.nonConcertCategory(event) {
            page.skipped["non-concert events (\(category))", default: 0] += 1
            return
        }
        guard let id = event.id?.value else { throw values.invalid(path("id"), "an event without an id") }
        let timeKnown = event.time_tbd != true && event.datetime_tbd != true
        // `datetime_utc` alone: kept, on the venue's clock once its zone is known.
        var instantOnly: UTCInstant?
        if event.date_tbd != true, ListingValues.clean(event.datetime_local) == nil, timeKnown,
            let text = ListingValues.clean(event.datetime_utc),
            let parsed = try? values.localDateTime(text.hasSuffix("Z") ? String(text.dropLast()) : text, at: ""), let clock = parsed.time
        {
            instantOnly = UTCInstant(date: parsed.date, time: clock, utcOffsetSeconds: 0)
        }
        guard event.date_tbd != true, let localText = ListingValues.clean(event.datetime_local) ?? instantOnly.map({ "\($0.date)T00:00:00" })
        else {
            page.skipped["events with no date yet", default: 0] += 1
            return
        }
        let local = try values.localDateTime(localText, at: path("datetime_local"))
        let time = timeKnown ? local.time : nil

        let venue = event.venue.flatMap { self.venue($0, at: path("venue"), warnings: &page.warnings) }
        let zone = venue?.timeZone
        var utc: UTCInstant?
        if time != nil, let text = ListingValues.clean(event.datetime_utc) {
            if let parsed = try? values.localDateTime(text.hasSuffix("Z") ? String(text.dropLast()) : text, at: ""),
                let clock = parsed.time
            {
                utc = UTCInstant(date: parsed.date, time: clock, utcOffsetSeconds: 0)
            } else {
                page.warnings.append(warning(path("datetime_utc"), "\"\(text)\" is not a UTC time; it is computed from the venue's zone"))
            }
        }
        var eventStart = EventStart(localDate: local.date, localTime: time, timeZone: zone, utc: utc)
        if let instantOnly {
            if let zone, let settled = EventStart(instant: instantOnly, zone: zone) {
                eventStart = settled
            } else if let clock = UTCInstant.wallClock(of: instantOnly, in: "UTC") {
                eventStart = EventStart(localDate: clock.date, localTime: clock.time, utc: instantOnly)
                eventStart.awaitsVenueZone = true
            }
        } else if utc == nil, let time, let zone {
            eventStart = EventStart(localDate: local.date, localTime: time, zone: zone)
        }

        let festival = Self.isFestival(event)
        var endDate: LocalDate?
        if festival, let zone, let text = ListingValues.clean(event.enddatetime_utc),
            let parsed = try? values.localDateTime(text.hasSuffix("Z") ? String(text.dropLast()) : text, at: ""),
            let end = UTCInstant(date: parsed.date, time: parsed.time ?? LocalTime(hour: 0, minute: 0, second: 0)!, utcOffsetSeconds: 0)
                .localDate(in: zone),
            end > local.date
        {
            endDate = end
        }

        let status: EventStatus
        switch ListingValues.clean(event.status)?.lowercased() {
        case "cancelled", "canceled": status = .cancelled
        case "postponed": status = .postponed
        case "rescheduled": status = .rescheduled
        default: status = .scheduled
        }

        var lineup: [PerformanceListing] = []
        let performers = event.performers ?? []
        let headliner = performers.firstIndex { $0.primary == true } ?? performers.startIndex
        let ordered = performers.indices.contains(headliner)
            ? [performers[headliner]] + performers.enumerated().filter { $0.offset != headliner }.map(\.element) : []
        for performer in ordered {
            guard let artist = artist(performer), !lineup.contains(where: { $0.artist.sourceID == artist.sourceID }) else {
                continue
            }
            lineup.append(PerformanceListing(artist: artist, billing: lineup.isEmpty ? .headline : .support, order: lineup.count + 1))
        }

        let url = ListingValues.clean(event.url)
        let low = event.stats?.lowest_price?.value
        let high = event.stats?.highest_price?.value
        let offers = low != nil || high != nil || url != nil ? [OfferListing(url: url, priceMin: low, priceMax: high)] : []

        let names = lineup.prefix(3).map(\.artist.name).joined(separator: ", ")
        let fallbackTitle = (names.isEmpty ? "Event" : names) + (venue.map { " at \($0.name)" } ?? "")
        page.events.append(
            EventListing(
                sourceID: id,
                title: ListingValues.clean(event.title) ?? ListingValues.clean(event.short_title) ?? fallbackTitle,
                kind: festival ? .festival : .concert,
                status: status,
                start: eventStart,
                endDate: endDate,
                venue: venue,
                lineup: lineup,
                url: url,
                offers: offers))
    }

    /// The top taxonomy of an event that is not a concert ("sports", "theater"); nil for
    /// a concert, and for an event that says nothing of what it is.
    func warning(_ position: String, _ message: String) -> ListingWarning {
        ListingWarning(locator: values.locator, position: position, message: message)
    }

    static func nonConcertCategory(_ event: SeatGeekJSON.Event) -> String? {
        let taxonomies = event.taxonomies ?? []
        guard !taxonomies.isEmpty else {
            guard let type = ListingValues.clean(event.type)?.lowercased() else { return nil }
            return type == "concert" || type == "music_festival" ? nil : type
        }
        let isConcert = taxonomies.contains { taxonomy in
            let name = taxonomy.name?.lowercased()
            return name == "concert" || name == "music_festival"
                || taxonomy.id.map(concertTaxonomies.contains) == true || taxonomy.parent_id.map(concertTaxonomies.contains) == true
        }
        guard !isConcert else { return nil }
        let top = taxonomies.first { $0.parent_id == nil } ?? taxonomies[0]
        return ListingValues.clean(top.name) ?? ListingValues.clean(event.type) ?? "unnamed"
    }

    static func isFestival(_ event: SeatGeekJSON.Event) -> Bool {
        event.type?.lowercased() == "music_festival" || (event.taxonomies ?? []).contains { $0.name?.lowercased() == "music_festival" }
    }

    func artist(_ performer: SeatGeekJSON.Performer) -> ArtistListing? {
        guard let name = ListingValues.clean(performer.name) else { return nil }
        let key = performer.id?.value ?? ListingValues.clean(performer.slug).map { "slug:" + $0 } ?? "name:" + name.lowercased()
        return ArtistListing(sourceID: key, name: name, url: ListingValues.clean(performer.url))
    }

    /// The venue; nil when it has neither a name nor an id. A zone that is not IANA or a
    /// coordinate off the globe is dropped with a warning: the venue's place gives both.
    func venue(_ venue: SeatGeekJSON.Venue, at path: String, warnings: inout [ListingWarning]) -> VenueListing? {
        guard let name = ListingValues.clean(venue.name) ?? venue.id.map({ "Venue \($0.value)" }) else { return nil }
        let city = ListingValues.clean(venue.city)
        let country = ListingValues.clean(venue.country)
        var zone: String?
        if let text = ListingValues.clean(venue.timezone) {
            if TimeZone(identifier: text) != nil {
                zone = text
            } else {
                warnings.append(warning("\(path).timezone", "\"\(text)\" is not an IANA time zone; the venue's place gives it"))
            }
        }
        var coordinate: Coordinate?
        do {
            coordinate = try values.coordinate(venue.location?.lat?.value, venue.location?.lon?.value, at: "\(path).location")
        } catch {
            guard case .invalidValue(let detail) = error.reason else { return nil }
            warnings.append(warning(error.position ?? "\(path).location", "\(detail); the venue is placed by its city"))
        }
        return VenueListing(
            sourceID: venue.id?.value ?? ListingValues.derivedVenueKey(name: name, city: city, area: country?.lowercased()),
            name: name, street: ListingValues.clean(venue.address), postalCode: ListingValues.clean(venue.postal_code),
            city: city, region: ListingValues.clean(venue.state), country: country,
            coordinate: coordinate, timeZone: zone, url: ListingValues.clean(venue.url))
    }
}
