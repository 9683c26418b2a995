import Foundation
import Geo
import Listings

/// Reads iCalendar feeds (RFC 5545, `.ics`) as venues, bands, promoters and gig tools
/// publish them: one `VEVENT` is one listing, or one per occurrence of its `RRULE`/`RDATE`
/// inside the page's window.
///
/// Decisions, from real feeds:
/// - **Identity**: `UID`; an occurrence of a recurring event is `UID#20260521T170000`
///   (its original start), which is also how an overriding `RECURRENCE-ID` names it.
///   An entry without a `UID` gets a key derived from its summary and start.
/// - **Times** (see ``ICalendarTime/start(in:)``): `TZID` zones, `VTIMEZONE` blocks mapped
///   to IANA zones, UTC, floating times (the venue's clock), `X-WR-TIMEZONE` as the
///   default, dates without a time (all day). `DTEND` is exclusive; an event that ends on a
///   later day (all day, or lasting a day or more) has that last day.
/// - **Recurrence**: occurrences inside ``PageContext/window`` (from the first date on
///   when there is none), at most ``maximumOccurrences`` per event; `EXDATE`s are left
///   out and `RECURRENCE-ID` entries replace the occurrence they name.
/// - **What is kept**: performances. Entries whose `SUMMARY`, `CATEGORIES` or place say
///   they are another kind (``NonConcertClassifier``: sports fixtures, birthdays, readings,
///   passes, meet & greets, markets, films...) are skipped and counted by kind, unless the
///   source keeps that kind (``PageContext/keptKinds``); so are recurring entries with no
///   date in the window. A feed that marks music by category ("Muziek") has its other
///   categories skipped. `STATUS:CANCELLED` is cancelled; `TENTATIVE` stays scheduled.
/// - **Note**: the first line of `DESCRIPTION` ("Doors 19:00, first act 20:00.") that
///   says something (``ICalendarNote``); the rest is often a whole press text.
/// - **Acts** come from the `SUMMARY` (``TitleBill``), or from a lineup listed with dots
///   in `DESCRIPTION` ("A · B · C"); the whole summary is the title. A
///   one act's calendar (``ICalendarOneAct``: a band's Gig-o-Matic export, a tour feed)
///   bills its act first on every entry. **Venues** from `LOCATION` (read by
///   ``FreeTextAddress`` by country conventions), `GEO`, an "at Venue" summary, or
///   `X-WR-CALNAME` when it names a venue (not an act) and events give no location.
public struct ICalendarIngester: Ingester {
    public let format = "ical"
    public let source = ListingSource.ical
    public var fileExtensions: Set<String> { ["ics"] }
    public var readsWindow: Bool { true }
    public var readsWebPages: Bool { true }

    /// Occurrences of one recurring event at most: a rule with no end must not run away.
    public static let maximumOccurrences = 366
    /// Occurrences of recurring events in one page at most: a 490 KB feed of daily rules
    /// expanded to 147,864 events. Past it, a recurring event keeps its first date.
    public static let maximumOccurrencesPerPage = 5_000
    /// Titles longer than this are cut (a feed once carried a 10 MB `SUMMARY`).
    static let longestTitle = 500

    public init() {}

    /// Content that begins with `BEGIN:VCALENDAR` (after a BOM or blank lines).
    public func recognizes(_ sample: ContentSample) -> Bool {
        guard let first = sample.firstSignificantByte, first == UInt8(ascii: "B") || first == UInt8(ascii: "b") else { return false }
        return sample.text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(15).uppercased() == "BEGIN:VCALENDAR"
    }

    public func parse(_ data: Data, context: PageContext) throws(IngestError) -> ListingPage {
        let locator = context.locator
        let document: ICalendarDocument
        do {
            document = try ICalendarDocument(data)
        } catch {
            throw IngestError(locator: locator, position: "line \(error.line)", reason: .malformed(error.message))
        }
        let calendars = document.calendars
        guard !calendars.isEmpty else {
            throw IngestError(locator: locator, position: "line 1", reason: .unexpectedShape("no BEGIN:VCALENDAR … END:VCALENDAR"))
        }
        var page = ListingPage(source: source, locator: locator)
        // The start of the event each id was first given to.
        var starts: [String: EventStart] = [:]
        var budget = RecurrenceBudget()
        for calendar in calendars {
            let reader = ICalendarEventReader(calendar: calendar, locator: locator, window: context.window, keeping: context.keptKinds)
            if page.placeEvidence.calendarZone == nil { page.placeEvidence.calendarZone = reader.zones.placeZone }
            for listing in try reader.events(skipped: &page.skipped, budget: &budget) {
                if starts[listing.sourceID] == nil {
                    starts[listing.sourceID] = listing.start
                    page.events.append(listing)
                } else {
                    Self.keepReusedUID(listing, starts: &starts, page: &page)
                }
            }
        }
        page.warnings += budget.warnings(locator: locator)
        return page
    }

    /// An entry whose `UID` an earlier entry already has. Generators that reuse one `UID`
    /// for every date of a run lose nothing: another date is kept as `UID#date`. A true
    /// repeat (same `UID`, same start) is left out. Either way the warning names the UID.
    static func keepReusedUID(_ listing: EventListing, starts: inout [String: EventStart], page: inout ListingPage) {
        let start = listing.start.localDate.description + (listing.start.localTime.map { "T" + $0.description } ?? "")
        let uid = String(listing.sourceID.prefix(200))
        let alternate = listing.sourceID + "#" + start
        if starts[listing.sourceID] != listing.start, starts[alternate] == nil {
            starts[alternate] = listing.start
            var kept = listing
            kept.sourceID = alternate
            page.events.append(kept)
            page.warnings.append(
                ListingWarning(
                    locator: page.locator,
                    message: "UID \"\(uid)\" names more than one event; the one on \(start) is kept as \"\(uid)#\(start)\""))
        } else {
            page.warnings.append(
                ListingWarning(
                    locator: page.locator,
                    message: "a second entry with UID \"\(uid)\" on \(start) repeats one already read; it is left out"))
        }
    }
}

/// Turns one `VCALENDAR`'s `VEVENT`s into listings.
struct ICalendarEventReader {
    let calendar: ICalendarComponent
    let locator: String
    let window: DateWindow?
    let zones: ICalendarZones
    let classifier: NonConcertClassifier
    /// Whether some entry's `CATEGORIES` marks music ("Muziek"): then the others are not.
    let musicByCategory: Bool

    init(calendar: ICalendarComponent, locator: String, window: DateWindow?, keeping kept: Set<NonConcertKind> = []) {
        self.calendar = calendar
        self.locator = locator
        self.window = window
        zones = ICalendarZones(calendar: calendar)
        classifier = NonConcertClassifier(keeping: kept)
        musicByCategory = calendar.components.contains { entry in
            entry.name == "VEVENT" && entry.all("CATEGORIES").flatMap(\.list).contains { NonConcertClassifier.isMusicCategory($0.lowercased()) }
        }
    }

    static let noDateInWindow = "recurring entries with no date in the window"

    func events(skipped: inout [String: Int], budget: inout RecurrenceBudget) throws(IngestError) -> [EventListing] {
        let entries = calendar.components.filter { $0.name == "VEVENT" }
        // Occurrences that an entry with a RECURRENCE-ID replaces, by UID.
        var overridden: [String: Set<String>] = [:]
        for entry in entries {
            if let uid = entry.property("UID")?.text, let id = entry.property("RECURRENCE-ID"),
                let time = ICalendarTime(id.value, parameters: id.parameters)
            {
                overridden[uid, default: []].insert(time.key)
            }
        }
        var performances: [(entry: ICalendarComponent, start: ICalendarProperty)] = []
        for entry in entries {
            guard let start = entry.property("DTSTART") else {
                skipped["entries with no start date", default: 0] += 1
                continue
            }
            if let kind = kind(of: entry) {
                skipped[kind.skippedKey, default: 0] += 1
                continue
            }
            performances.append((entry, start))
        }
        // Known once the other kinds are out: a calendar of one act, or the venue it names.
        let calendarAct = ICalendarOneAct.act(of: calendar, entries: performances.map(\.entry))
        let calendarVenue = calendarAct == nil ? calendar.property("X-WR-CALNAME").flatMap { Self.venueName(calendarName: $0.text) } : nil
        var listings: [EventListing] = []
        for (entry, start) in performances {
            guard var first = ICalendarTime(start.value, parameters: start.parameters) else {
                throw IngestError(
                    locator: locator, position: "line \(start.line)",
                    reason: .invalidValue("DTSTART \"\(start.value.prefix(60))\" is not a date (like 20260418 or 20260418T190000Z)"))
            }
            // Generators write midnight for a time not known: a start at 00:00 that ends
            // when it starts has a date only.
            if first.time == LocalTime(hour: 0, minute: 0), let end = entry.property("DTEND"),
                ICalendarTime(end.value, parameters: end.parameters) == first
            {
                first.time = nil
            }
            let bill = TitleBill(entry.property("SUMMARY")?.text ?? "")
            var base = try listing(entry, first: first, bill: bill, calendarAct: calendarAct, calendarVenue: calendarVenue)
            let uid = entry.property("UID")?.text
            if let recurrenceID = entry.property("RECURRENCE-ID"),
                let original = ICalendarTime(recurrenceID.value, parameters: recurrenceID.parameters)
            {
                guard inWindow(original.date) || inWindow(first.date) else {
                    skipped[Self.noDateInWindow, default: 0] += 1
                    continue
                }
                base.sourceID += "#" + original.key
                listings.append(base)
                continue
            }
            guard budget.left > 0 else {
                // The page's occurrences are spent: a recurring entry keeps its first date.
                if entry.property("RRULE") != nil || entry.property("RDATE") != nil { budget.notExpanded.append(base.title) }
                listings.append(base)
                continue
            }
            let occurrences = self.occurrences(
                of: entry, first: first, skipping: uid.flatMap { overridden[$0] } ?? [], atMost: budget.left)
            guard let occurrences else {
                listings.append(base)
                continue
            }
            if occurrences.count >= budget.left {
                budget.notExpanded.append(base.title)
            } else if occurrences.count == ICalendarIngester.maximumOccurrences {
                budget.cut.append(base.title)
            }
            budget.left -= occurrences.count
            if occurrences.isEmpty { skipped[Self.noDateInWindow, default: 0] += 1 }
            let length = base.endDate.map { $0.daysSinceEpoch - base.start.localDate.daysSinceEpoch }
            for occurrence in occurrences {
                var listing = base
                listing.sourceID += "#" + occurrence.key
                listing.start = occurrence.start(in: zones)
                listing.endDate = length.map { occurrence.date.adding(days: $0) }
                listings.append(listing)
            }
        }
        return listings
    }

    private func inWindow(_ date: LocalDate) -> Bool {
        guard let window else { return true }
        return window.from <= date && date <= window.to
    }

    /// The dates of a recurring entry inside the window, in order; nil when it does not
    /// recur (no `RRULE` Encore reads, no `RDATE`).
    func occurrences(
        of entry: ICalendarComponent, first: ICalendarTime, skipping overridden: Set<String>,
        atMost limit: Int = ICalendarIngester.maximumOccurrences
    ) -> [ICalendarTime]? {
        let limit = min(limit, ICalendarIngester.maximumOccurrences)
        let rule = entry.property("RRULE").flatMap { ICalendarRecurrence($0.value) }
        let extra = entry.all("RDATE").flatMap { property in
            property.list.compactMap { ICalendarTime(String($0.split(separator: "/").first ?? ""), parameters: property.parameters) }
        }
        guard rule != nil || !extra.isEmpty else { return nil }
        let excluded = entry.all("EXDATE").flatMap { property in
            property.list.compactMap { ICalendarTime($0, parameters: property.parameters) }
        }
        let excludedKeys = Set(excluded.filter { $0.time != nil }.map { first.time == nil ? $0.date.description : $0.key })
        let excludedDays = Set(excluded.filter { $0.time == nil }.map(\.date))
        func kept(_ time: ICalendarTime) -> Bool {
            !excludedDays.contains(time.date) && !excludedKeys.contains(first.time == nil ? time.date.description : time.key)
                && !overridden.contains(time.key) && inWindow(time.date)
        }
        var dates: Set<ICalendarTime> = []
        var result: [ICalendarTime] = []
        func add(_ time: ICalendarTime) -> Bool {
            if kept(time), dates.insert(time).inserted { result.append(time) }
            return result.count < limit
        }
        if let rule {
            rule.dates(from: first.date, through: window?.to) { add(first.on($0)) }
        } else {
            _ = add(first)
        }
        for time in extra where result.count < limit {
            _ = add(ICalendarTime(date: time.date, time: time.time ?? first.time, isUTC: time.isUTC, tzid: time.tzid ?? first.tzid))
        }
        return result.sorted { ($0.date, $0.key) < ($1.date, $1.key) }
    }

    /// One entry as a listing (its first occurrence).
    func listing(
        _ entry: ICalendarComponent, first: ICalendarTime, bill: TitleBill, calendarAct: String? = nil, calendarVenue: String? = nil
    ) throws(IngestError) -> EventListing {
        let summaryText = entry.property("SUMMARY")?.text ?? ""
        let categories = entry.all("CATEGORIES").flatMap(\.list).map { $0.lowercased() }
        let venue = self.venue(entry, named: bill.venue ?? calendarVenue)
        var bill = bill
        // A gig guide's lineup in the description ("A · B · C vs D") names the acts of an
        // entry whose summary names the event.
        if let listed = entry.property("DESCRIPTION").flatMap({ TitleBill.listedLineup($0.text) }) {
            bill.acts = listed
        }
        if let calendarAct {
            // The calendar's act plays every entry; others a summary names support it only
            // when it bills the act first ("Band with X"), not when it names the event.
            let headlinesItself = bill.acts.first.map { $0.lowercased().contains(calendarAct.lowercased()) } ?? false
            bill.acts = [calendarAct] + (headlinesItself ? Array(bill.acts.dropFirst()) : [])
        }
        let lineup = bill.lineup
        var title = String(summaryText.prefix(ICalendarIngester.longestTitle))
        if title.isEmpty {
            title = lineup.first?.artist.name ?? venue.map { "Event at \($0.name)" } ?? "Event"
        }
        let status = entry.property("STATUS")?.text.uppercased()
        let uid = entry.property("UID")?.text
        var sourceID = uid ?? ""
        if sourceID.isEmpty {
            var hasher = ContentHasher()
            hasher.combine(summaryText)
            hasher.combine(first.key)
            sourceID = "derived:" + hasher.hexDigest
        }
        let endDate = self.endDate(entry, first: first)
        return EventListing(
            sourceID: sourceID, title: title,
            kind: categories.contains(where: { $0.contains("festival") }) || endDate != nil ? .festival : .concert,
            status: status == "CANCELLED" || bill.cancelled ? .cancelled : .scheduled,
            start: first.start(in: zones), endDate: endDate, venue: venue, lineup: lineup,
            url: entry.property("URL").map(\.text).flatMap(Self.webAddress), note: entry.property("DESCRIPTION").flatMap { ICalendarNote.note(from: $0.text) })
    }

    /// The last day of an event that ends on a later day than it starts: `DTEND` is
    /// exclusive for dates; a timed event counts when it lasts a day or more (a show
    /// ending after midnight is one evening).
    func endDate(_ entry: ICalendarComponent, first: ICalendarTime) -> LocalDate? {
        var end: (date: LocalDate, seconds: Int)?
        if let property = entry.property("DTEND"), let time = ICalendarTime(property.value, parameters: property.parameters) {
            end = (time.date, time.time?.secondsSinceMidnight ?? 0)
        } else if let duration = entry.property("DURATION").flatMap({ ICalendarDuration.seconds($0.text) }) {
            let total = first.date.daysSinceEpoch * 86_400 + (first.time?.secondsSinceMidnight ?? 0) + duration
            end = (LocalDate(daysSinceEpoch: total / 86_400), total % 86_400)
        }
        guard let end else { return nil }
        if first.time == nil {
            let last = end.date.adding(days: -1)
            return last > first.date ? last : nil
        }
        let startSeconds = first.date.daysSinceEpoch * 86_400 + (first.time?.secondsSinceMidnight ?? 0)
        let endSeconds = end.date.daysSinceEpoch * 86_400 + end.seconds
        return endSeconds - startSeconds >= 86_400 ? end.date : nil
    }

    /// `LOCATION` as a venue (read by ``FreeTextAddress``), with `GEO` when given. An online
    /// location (a stream) is no venue; a location that names only a place ("Wacken,
    /// Germany") is the venue the summary or calendar names there (`named`), else that place.
    func venue(_ entry: ICalendarComponent, named: String?) -> VenueListing? {
        let location = entry.property("LOCATION")?.text ?? ""
        var coordinate: Coordinate?
        if let geo = entry.property("GEO")?.text {
            let parts = geo.split(whereSeparator: { $0 == ";" || $0 == "," }).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            if parts.count == 2, let latitude = parts[0], let longitude = parts[1] {
                coordinate = try? ListingValues(locator: locator).coordinate(latitude, longitude, at: "GEO")
            }
        }
        let address = FreeTextAddress(location)
        guard !address.isOnline else { return nil }
        if location.isEmpty, coordinate == nil {
            return named.map { VenueListing(sourceID: ListingValues.derivedVenueKey(name: $0, city: nil, area: nil), name: $0) }
        }
        let written = location.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let name = address.name ?? named ?? (written.isEmpty ? nil : written) else { return nil }
        let city = address.city
        let country = address.country
        return VenueListing(
            sourceID: ListingValues.derivedVenueKey(name: name, city: city, area: country?.lowercased()), name: String(name.prefix(200)),
            street: address.street, postalCode: address.postalCode, city: city, region: address.region, country: country,
            coordinate: coordinate)
    }

    /// A calendar named after a venue ("The Lexington", "Concerts at Sala Apolo"); not one
    /// named after a tour, a list or a region ("Widespread Panic Tour", "Jazz Finland").
    static func venueName(calendarName: String) -> String? {
        let name = calendarName.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100 else { return nil }
        if let range = name.range(of: " at ", options: .backwards) {
            let venue = name[range.upperBound...].trimmingCharacters(in: .whitespaces)
            return venue.isEmpty ? nil : venue
        }
        let lower = name.lowercased()
        let listWords = [
            "tour", "event", "calendar", "concert", "gig", "show", "date", "schedule", "listing", "agenda", "keikk",
            "termine", "jazz", "festival", "unified", "upcoming", "what's on", "whats on", "концерт", "orchestra",
        ]
        return listWords.contains(where: { lower.contains($0) }) ? nil : name
    }

    /// The kind of non-concert an entry is, from its summary, categories and place.
    func kind(of entry: ICalendarComponent) -> NonConcertKind? {
        let place = entry.property("LOCATION")?.text.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
        return classifier.kind(
            title: entry.property("SUMMARY")?.text ?? "", categories: entry.all("CATEGORIES").flatMap(\.list), place: place,
            musicByCategory: musicByCategory)
    }

    static func webAddress(_ text: String) -> String? {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), text.count <= 2000 else { return nil }
        return text
    }

}

extension ListingSource {
    /// A feed's events are plain text to interpret: after JSON-LD. It ties with Last.fm,
    /// and the tie breaks on name, which puts the venue's own feed first.
    public static let ical = ListingSource(name: "ical", rank: 5)
}
