import Foundation
import Geo
import Listings

/// Turns decoded Songkick JSON into listings, validating every value on the way.
///
/// Songkick's quirks handled here: ids may be missing (venues get a key derived from
/// name and place), coordinates and times may be null, datetimes carry offsets without
/// a colon (`-0400`), and cancelled events get "(CANCELLED)" in their display name.
struct SongkickNormalizer {
    let locator: String

    init(locator: String) {
        self.locator = locator
    }

    func event(_ event: SongkickJSON.Event, at path: String) throws(IngestError) -> EventListing {
        guard let id = event.id?.value else { throw invalid("\(path).id", "an event without an id") }
        guard let start = event.start, let dateText = start.date else {
            throw invalid("\(path).start.date", "an event without a start date")
        }
        let listedDate = try localDate(dateText, at: "\(path).start.date")
        var date = listedDate
        var time: LocalTime?
        if let text = start.time {
            time = try localTime(text, at: "\(path).start.time")
        }
        var utc: UTCInstant?
        if let text = start.datetime {
            let parsed = try dateTime(text, at: "\(path).start.datetime")
            utc = parsed.instant
            // The datetime is the venue's clock with its offset: it decides date and time
            // (a show at 01:00 listed under the evening before; a response without `time`).
            date = parsed.date
            time = parsed.time
        }
        var endDate: LocalDate?
        if let text = event.end?.date {
            endDate = try localDate(text, at: "\(path).end.date")
            if let end = endDate, end < listedDate {
                throw invalid("\(path).end.date", "ends (\(end)) before it starts (\(date))")
            }
        }
        let status = try self.status(event.status, at: "\(path).status")
        var venue: VenueListing?
        if let raw = event.venue {
            venue = try self.venue(raw, location: event.location, at: "\(path).venue")
        }
        var lineup: [PerformanceListing] = []
        for (index, performance) in (event.performance ?? []).enumerated() {
            let performancePath = "\(path).performance[\(index)]"
            guard let rawArtist = performance.artist else {
                throw invalid("\(performancePath).artist", "a performance without an artist")
            }
            let artist = try self.artist(rawArtist, at: "\(performancePath).artist")
            let billing: Billing
            switch performance.billing {
            case "headline": billing = .headline
            case "support": billing = .support
            case nil: billing = index == 0 ? .headline : .support
            case let other?: throw invalid("\(performancePath).billing", "unknown billing \"\(other)\"")
            }
            lineup.append(PerformanceListing(artist: artist, billing: billing, order: performance.billingIndex ?? index + 1))
        }
        if lineup.isEmpty, let name = ListingValues.clean(event.displayName) {
            // A cancelled show's performances are gone; its display name still bills them.
            lineup = TitleBill(displayName: name, venue: venue?.name).lineup
        }
        if let popularity = event.popularity?.value, !(popularity.isFinite && popularity >= 0) {
            throw invalid("\(path).popularity", "popularity \(popularity) is negative or not finite")
        }
        return EventListing(
            sourceID: id,
            title: Self.title(event.displayName, lineup: lineup, venue: venue),
            kind: event.type?.lowercased() == "festival" ? .festival : .concert,
            status: status,
            start: EventStart(localDate: date, localTime: time, timeZone: nil, utc: utc),
            endDate: endDate,
            venue: venue,
            lineup: lineup,
            url: event.uri,
            popularity: event.popularity?.value,
            ageRestriction: event.ageRestriction)
    }

    /// Acts billed from a display name (`name:` ids) are kept when the page knows them by
    /// Songkick's id on another event, as that artist. Others are left out: a second record
    /// of an artist Songkick knows by id would be a second artist, joined to the others'
    /// listings in the order pages arrive (the catalog keeps two records of one source
    /// apart), so the catalog would depend on that order.
    static func resolveActsBilledByName(_ events: inout [EventListing]) {
        guard events.contains(where: { $0.lineup.contains { $0.artist.sourceID.hasPrefix("name:") } }) else { return }
        var known: [String: ArtistListing] = [:]
        for event in events {
            for performance in event.lineup where !performance.artist.sourceID.hasPrefix("name:") {
                known[performance.artist.name.lowercased()] = known[performance.artist.name.lowercased()] ?? performance.artist
            }
        }
        for index in events.indices where events[index].lineup.contains(where: { $0.artist.sourceID.hasPrefix("name:") }) {
            let artists = events[index].lineup.compactMap { performance in
                performance.artist.sourceID.hasPrefix("name:") ? known[performance.artist.name.lowercased()] : performance.artist
            }
            events[index].lineup = artists.enumerated().map { order, artist in
                PerformanceListing(artist: artist, billing: order == 0 ? .headline : .support, order: order + 1)
            }
        }
    }

    func artist(_ artist: SongkickJSON.Artist, at path: String) throws(IngestError) -> ArtistListing {
        guard let name = ListingValues.clean(artist.displayName) else {
            throw invalid("\(path).displayName", "an artist without a name")
        }
        var onTour: LocalDate?
        if let text = artist.onTourUntil {
            onTour = try localDate(text, at: "\(path).onTourUntil")
        }
        // Songkick ids are the identity; the name stands in only when the id is missing.
        let id = artist.id?.value ?? "name:" + name.lowercased()
        let mbids = (artist.identifier ?? []).compactMap { $0.mbid?.lowercased() }
        return ArtistListing(sourceID: id, name: name, musicBrainzIDs: mbids, url: artist.uri, onTourUntil: onTour)
    }

    func venue(
        _ venue: SongkickJSON.Venue, location: SongkickJSON.EventLocation?, at path: String
    ) throws(IngestError) -> VenueListing {
        let name = ListingValues.clean(venue.displayName) ?? "Unknown venue"
        let metro = try venue.metroArea.flatMap { (m) throws(IngestError) in try metroArea(m, at: "\(path).metroArea") }
        // "Chicago, IL, US" or "Madrid, Spain": city first, country last.
        let parts = (location?.city ?? "").split(separator: ",").map { $0.trimmingSpaces() }
        let city = ListingValues.clean(venue.city?.displayName) ?? parts.first.flatMap { ListingValues.clean($0) }
        let region = ListingValues.clean(venue.city?.state?.displayName) ?? metro?.region ?? (parts.count >= 3 ? parts[1] : nil)
        let country = ListingValues.clean(venue.city?.country?.displayName) ?? metro?.country ?? (parts.count >= 2 ? parts.last : nil)

        var coordinate = try self.coordinate(venue.lat, venue.lng, at: path)
        var approximate = false
        if coordinate == nil, let location {
            coordinate = try self.coordinate(location.lat, location.lng, at: "\(path.dropLast(".venue".count)).location")
            approximate = coordinate != nil
        }
        if let capacity = venue.capacity, capacity < 0 {
            throw invalid("\(path).capacity", "a negative capacity (\(capacity))")
        }
        let id = venue.id?.value ?? ListingValues.derivedVenueKey(name: name, city: city, area: metro?.sourceID)
        return VenueListing(
            sourceID: id, name: name, street: ListingValues.clean(venue.street), postalCode: ListingValues.clean(venue.zip),
            city: city, region: region, country: country, coordinate: coordinate,
            coordinateIsApproximate: approximate, website: ListingValues.clean(venue.website),
            capacity: venue.capacity, url: venue.uri, metroArea: metro)
    }

    func metroArea(_ metro: SongkickJSON.MetroArea, at path: String) throws(IngestError) -> MetroAreaListing? {
        guard let id = metro.id?.value else { return nil }
        guard let name = ListingValues.clean(metro.displayName) else {
            throw invalid("\(path).displayName", "a metro area without a name")
        }
        return MetroAreaListing(
            sourceID: id, name: name, country: ListingValues.clean(metro.country?.displayName),
            region: ListingValues.clean(metro.state?.displayName),
            coordinate: try coordinate(metro.lat, metro.lng, at: path), url: metro.uri)
    }

    // MARK: - Values

    private func status(_ text: String?, at path: String) throws(IngestError) -> EventStatus {
        switch text?.lowercased() {
        case nil, "ok", "scheduled": return .scheduled
        case "cancelled", "canceled": return .cancelled
        case "postponed": return .postponed
        case "rescheduled": return .rescheduled
        case let other?: throw invalid(path, "unknown status \"\(other)\"")
        }
    }

    private func localDate(_ text: String, at path: String) throws(IngestError) -> LocalDate {
        guard let date = LocalDate(iso: text) else { throw invalid(path, "\"\(text)\" is not a date (YYYY-MM-DD)") }
        return date
    }

    private func localTime(_ text: String, at path: String) throws(IngestError) -> LocalTime {
        guard let time = LocalTime(iso: text) else { throw invalid(path, "\"\(text)\" is not a time (HH:MM:SS)") }
        return time
    }

    /// Parses `2013-07-25T12:00:00-0600` (also `+01:00` and `Z`) into the wall-clock
    /// time and the UTC instant.
    private func dateTime(_ text: String, at path: String) throws(IngestError) -> (date: LocalDate, time: LocalTime, instant: UTCInstant) {
        // Read by its bytes: every event has one, and reading it as characters (grapheme
        // breaking) and through NSString's replacing showed in the time to read a page.
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[10] == UInt8(ascii: "T"),
            let date = bytes.withUnsafeBufferPointer({ LocalDate(isoUTF8: .init(rebasing: $0[0..<10])) }),
            let time = LocalTime(iso: String(decoding: bytes[11..<19], as: UTF8.self))
        else { throw invalid(path, "\"\(text)\" is not a date-time (YYYY-MM-DDTHH:MM:SS±HHMM)") }
        let zone = bytes[19...].filter { $0 != UInt8(ascii: ":") }
        var offset = 0
        if zone != [UInt8(ascii: "Z")] && !zone.isEmpty {
            guard zone.count == 5, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"),
                let hours = LocalDate.number(zone[1..<3]), let minutes = LocalDate.number(zone[3..<5]),
                hours <= 14, minutes < 60
            else { throw invalid(path, "\"\(text)\" has an unreadable UTC offset") }
            offset = (hours * 3600 + minutes * 60) * (zone[0] == UInt8(ascii: "-") ? -1 : 1)
        }
        return (date, time, UTCInstant(date: date, time: time, utcOffsetSeconds: offset))
    }

    private func coordinate(_ lat: FlexibleDouble?, _ lng: FlexibleDouble?, at path: String) throws(IngestError) -> Coordinate? {
        guard let latitude = lat?.value, let longitude = lng?.value else { return nil }
        guard (-90.0...90.0).contains(latitude) else {
            throw invalid("\(path).lat", "latitude \(latitude) is outside -90...90")
        }
        guard (-180.0...180.0).contains(longitude) else {
            throw invalid("\(path).lng", "longitude \(longitude) is outside -180...180")
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    private func invalid(_ path: String, _ detail: String) -> IngestError {
        IngestError(locator: locator, position: path, reason: .invalidValue(detail))
    }

    // MARK: - Text

    /// The display name without Songkick's "(CANCELLED)" marker; a name made from the
    /// bill when the source gives none.
    static func title(_ displayName: String?, lineup: [PerformanceListing], venue: VenueListing?) -> String {
        if var name = ListingValues.clean(displayName) {
            if let range = name.range(ofText: "(CANCELLED)", ignoringASCIICase: true) {
                name.removeSubrange(range)
                name = name.trimmingSpaces().replacingOccurrences(of: "  ", with: " ")
            }
            if !name.isEmpty { return name }
        }
        return ListingValues.title(lineup: lineup, venue: venue)
    }
}
