import Foundation
import Geo
import Listings

/// Turns Last.fm events (from XML or JSON, see ``LastFMEventRecord``) into listings,
/// validating every value on the way.
///
/// Decisions, from the recorded responses:
/// - **Start times.** `startDate` is the venue's wall clock with no zone
///   (`Fri, 01 Nov 2013 20:00:00`). Real show times are whole minutes; Last.fm writes
///   `00:00:00`, or a stray time with `:01` seconds (`Wed, 16 Oct 2013 03:37:01`, which
///   is when the listing was made), when it does not know the time. So the date is
///   kept and the time is nil when it is `00:00:00` or has non-zero seconds. The
///   weekday is not checked against the date.
/// - **Time zones.** A `<timezone>` in the venue's location that is an IANA name
///   (`Europe/London`) becomes the venue's and the event's zone, and gives the UTC
///   instant. Older pages write abbreviations (`JST`, `CLT`) or a bare `UTC` for venues
///   that are not in UTC: such a value is dropped with a warning, and the zone is left to
///   geo enrichment (the venue's coordinates or city), as when there is none.
/// - **Start time.** Older pages give the date alone in `startDate` and the time in a
///   separate `<startTime>` (`15:00`); an unreadable one is dropped with a warning.
/// - **Artists.** Events carry names, not ids: an artist's source id is `name:` and the
///   lower-cased name. The headliner comes first, billed `headline`; the others follow
///   as `support` in the order listed (duplicates of the headliner dropped, compared
///   without case). Without a `<headliner>` the first listed act headlines.
/// - **Venues.** The id is `<venue><id>` (a key derived from name and city when
///   missing). Last.fm's city often carries the region: `Denver, CO`,
///   `Broadmeadow, Newcastle, New South Wales` and `Las Vegas(, NV)` are split at the
///   first comma into city and region (the last part); `Philadelphia PA` (a trailing
///   two-letter code) is split in the United States and Canada only.
/// - **Kind and status.** Festival listings live under `last.fm/festival/`; the rest
///   are concerts. `cancelled` is `1` (cancelled) or `0`.
struct LastFMNormalizer {
    let locator: String

    init(locator: String) {
        self.locator = locator
    }

    func event(_ event: LastFMEventRecord, warnings: inout [ListingWarning]) throws(IngestError) -> EventListing {
        guard let id = ListingValues.clean(event.id) else { throw invalid(event.locate("id"), "an event without an id") }
        guard let startText = ListingValues.clean(event.startDate) else {
            throw invalid(event.locate("startDate"), "an event without a start date")
        }
        let start = try dateTime(startText, at: event.locate("startDate"))
        var endDate: LocalDate?
        if let text = ListingValues.clean(event.endDate) {
            let end = try dateTime(text, at: event.locate("endDate")).date
            guard end >= start.date else {
                throw invalid(event.locate("endDate"), "ends (\(end)) before it starts (\(start.date))")
            }
            endDate = end
        }
        let status = try self.status(event.cancelled, at: event.locate("cancelled"))
        var venue: VenueListing?
        if let raw = event.venue, !raw.isEmpty {
            venue = try self.venue(raw, locate: { event.locate("venue." + $0) }, warnings: &warnings)
        }
        var time = Self.isKnownTime(start.time) ? start.time : nil
        if time == nil, let text = ListingValues.clean(event.startTime) {
            if let separate = LocalTime(iso: text), Self.isKnownTime(separate) {
                time = separate
            } else {
                warnings.append(
                    ListingWarning(
                        locator: locator, position: event.locate("startTime"),
                        message: "\"\(text)\" is not a time (HH:MM); the event's time is left unknown"))
            }
        }
        var utc: UTCInstant?
        if let time, let zone = venue?.timeZone {
            utc = UTCInstant(date: start.date, time: time, timeZoneIdentifier: zone)
        }
        let lineup = self.lineup(event)
        let url = ListingValues.clean(event.url)
        return EventListing(
            sourceID: id,
            title: ListingValues.clean(event.title) ?? ListingValues.title(lineup: lineup, venue: venue),
            kind: url?.containsText("last.fm/festival/") == true ? .festival : .concert,
            status: status,
            start: EventStart(localDate: start.date, localTime: time, timeZone: venue?.timeZone, utc: utc),
            endDate: endDate,
            venue: venue,
            lineup: lineup,
            url: url,
            offers: event.tickets.compactMap { ListingValues.clean($0) }.map { OfferListing(url: $0) })
    }

    /// Paging, when the page says which page it is.
    func paging(_ paging: LastFMPagingRecord) throws(IngestError) -> ListingPage.Paging? {
        func number(_ text: String?, _ field: String) throws(IngestError) -> Int? {
            guard let text = ListingValues.clean(text) else { return nil }
            guard let value = Int(text), value >= 0 else {
                throw invalid(paging.locate(field), "\"\(text)\" is not a whole number")
            }
            return value
        }
        let perPage = try number(paging.perPage, "perPage")
        let total = try number(paging.total, "total")
        guard let page = try number(paging.page, "page") else { return nil }
        return ListingPage.Paging(page: page, perPage: perPage, totalEntries: total)
    }

    // MARK: - Parts

    private func lineup(_ event: LastFMEventRecord) -> [PerformanceListing] {
        let listed = event.artists.compactMap { ListingValues.clean($0) }
        guard let headliner = ListingValues.clean(event.headliner) ?? listed.first else { return [] }
        var seen: Set<String> = [headliner.lowercased()]
        var lineup = [PerformanceListing(artist: Self.artist(headliner), billing: .headline, order: 1)]
        for name in listed where seen.insert(name.lowercased()).inserted {
            lineup.append(PerformanceListing(artist: Self.artist(name), billing: .support, order: lineup.count + 1))
        }
        return lineup
    }

    static func artist(_ name: String) -> ArtistListing {
        ArtistListing(sourceID: "name:" + name.lowercased(), name: name)
    }

    func venue(
        _ venue: LastFMVenueRecord, locate: (String) -> String, warnings: inout [ListingWarning]
    ) throws(IngestError) -> VenueListing {
        let name = ListingValues.clean(venue.name) ?? "Unknown venue"
        let country = ListingValues.clean(venue.country)
        let (city, region) = Self.splitCity(ListingValues.clean(venue.city), country: country)
        let coordinate = try self.coordinate(venue.latitude, venue.longitude, locate: locate)
        var timeZone: String?
        if let zone = ListingValues.clean(venue.timeZone) {
            if Self.isPlaceZone(zone) {
                timeZone = zone
            } else {
                warnings.append(
                    ListingWarning(
                        locator: locator, position: locate("location.timezone"),
                        message: "\"\(zone)\" is not an IANA time zone of a place; the venue's zone comes from its place"))
            }
        }
        let id = ListingValues.clean(venue.id) ?? ListingValues.derivedVenueKey(name: name, city: city, area: country?.lowercased())
        return VenueListing(
            sourceID: id, name: name, street: ListingValues.clean(venue.street), postalCode: ListingValues.clean(venue.postalCode),
            city: city, region: region, country: country, coordinate: coordinate, timeZone: timeZone,
            website: ListingValues.clean(venue.website), url: ListingValues.clean(venue.url))
    }

    private func coordinate(_ lat: String?, _ long: String?, locate: (String) -> String) throws(IngestError) -> Coordinate? {
        let latPath = "location.geo:point.geo:lat"
        let longPath = "location.geo:point.geo:long"
        guard let latText = ListingValues.clean(lat), let longText = ListingValues.clean(long) else { return nil }
        guard let latitude = Double(latText), latitude.isFinite else {
            throw invalid(locate(latPath), "not a number: \"\(latText)\"")
        }
        guard let longitude = Double(longText), longitude.isFinite else {
            throw invalid(locate(longPath), "not a number: \"\(longText)\"")
        }
        guard (-90.0...90.0).contains(latitude) else {
            throw invalid(locate(latPath), "latitude \(latitude) is outside -90...90")
        }
        guard (-180.0...180.0).contains(longitude) else {
            throw invalid(locate(longPath), "longitude \(longitude) is outside -180...180")
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    private func status(_ text: String?, at position: String) throws(IngestError) -> EventStatus {
        switch ListingValues.clean(text)?.lowercased() {
        case nil, "0", "false": return .scheduled
        case "1", "true": return .cancelled
        case let other?: throw invalid(position, "cancelled is \"\(other)\", not 0 or 1")
        }
    }

    // MARK: - Dates

    private static let months = [
        "january", "february", "march", "april", "may", "june",
        "july", "august", "september", "october", "november", "december",
    ]

    /// 1...12 for `Jun` or `June` (any case).
    private static func month(_ name: Substring) -> Int? {
        let name = name.lowercased()
        guard let index = months.firstIndex(where: { $0 == name || (name.count == 3 && $0.hasPrefix(name)) }) else {
            return nil
        }
        return index + 1
    }

    /// Parses `Thu, 03 Jun 2010 20:00:00` (weekday optional, time optional, `HH:MM` allowed).
    private func dateTime(_ text: String, at position: String) throws(IngestError) -> (date: LocalDate, time: LocalTime?) {
        let failure = invalid(position, "\"\(text)\" is not a date (like \"Thu, 03 Jun 2010 20:00:00\")")
        var rest = Substring(text)
        if let comma = rest.firstIndex(of: ",") {
            guard rest[..<comma].allSatisfy(\.isLetter) else { throw failure }
            rest = rest[rest.index(after: comma)...]
        }
        let parts = rest.split(whereSeparator: \.isWhitespace)
        guard parts.count == 3 || parts.count == 4, (1...2).contains(parts[0].count), let day = Int(parts[0]),
            let month = Self.month(parts[1]), parts[2].count == 4, let year = Int(parts[2])
        else { throw failure }
        guard let date = LocalDate(year: year, month: month, day: day) else {
            throw invalid(position, "\"\(text)\" is not a date: \(parts[0]) \(parts[1]) \(year) does not exist")
        }
        guard parts.count == 4 else { return (date, nil) }
        guard let time = LocalTime(iso: parts[3]) else {
            throw invalid(position, "\"\(text)\" has no valid time (HH:MM:SS)")
        }
        return (date, time)
    }

    /// True for an IANA zone of a place (`Asia/Tokyo`): abbreviations and `UTC` name no
    /// venue's wall clock.
    static func isPlaceZone(_ zone: String) -> Bool {
        zone.contains("/") && !zone.hasPrefix("Etc/") && TimeZone(identifier: zone) != nil
    }

    /// False for Last.fm's "time unknown" markers: midnight, and times with seconds.
    static func isKnownTime(_ time: LocalTime?) -> Bool {
        guard let time else { return false }
        return time.second == 0 && time.secondsSinceMidnight != 0
    }

    /// `Last.fm error 6: Artist not found`, from an error page in either format.
    static func errorMessage(code: String?, message: String?) -> String {
        let prefix = ListingValues.clean(code).map { "Last.fm error \($0)" } ?? "Last.fm error"
        return ListingValues.clean(message).map { "\(prefix): \($0)" } ?? prefix
    }

    // MARK: - Text

    private func invalid(_ position: String, _ detail: String) -> IngestError {
        IngestError(locator: locator, position: position, reason: .invalidValue(detail))
    }

    /// Splits Last.fm's city text into city and region (see the type's notes).
    static func splitCity(_ text: String?, country: String?) -> (city: String?, region: String?) {
        guard var text else { return (nil, nil) }
        // "Las Vegas(, NV)": a region in parentheses.
        if text.hasSuffix(")"), let open = text.lastIndex(of: "(") {
            let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
            if inner.hasPrefix(",") { text = String(text[..<open]) + inner }
        }
        let parts = text.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        if parts.count >= 2 { return (parts[0], parts[parts.count - 1]) }
        guard let only = parts.first else { return (nil, nil) }
        let northAmerica = ["united states", "usa", "us", "canada"].contains(country?.lowercased() ?? "")
        let words = only.split(separator: " ")
        if northAmerica, words.count >= 2, let last = words.last, last.count == 2,
            last.allSatisfy({ $0.isASCII && $0.isUppercase })
        {
            return (words.dropLast().joined(separator: " "), String(last))
        }
        return (only, nil)
    }

}
