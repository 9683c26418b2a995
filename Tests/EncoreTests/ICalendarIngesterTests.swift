import Foundation
import Geo
import Ingest
import Listings
import Testing

/// iCalendar feeds (`--format ical`): small readable fixtures in `Fixtures/ical`, the
/// malformed ones in `Fixtures/bad/ical`, and every real feed of `../shared/realworld/ical`.
struct ICalendarIngesterTests {
    let ingester = ICalendarIngester()

    func parse(_ relative: String, window: DateWindow? = nil) throws -> ListingPage {
        let path = TestSupport.fixture(relative)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try ingester.parse(data, context: PageContext(locator: path, window: window))
    }

    func event(_ page: ListingPage, _ id: String) throws -> EventListing {
        try #require(page.events.first { $0.sourceID == id }, "no event \(id)")
    }

    static func window(_ from: String, _ to: String) -> DateWindow {
        DateWindow(from: LocalDate(iso: from)!, to: LocalDate(iso: to)!)!
    }

    @Test func isDetectedByContentAndNotConfusedWithOtherFormats() throws {
        let feed = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("ical/tour-mavi-vapur.ics")))
        #expect(IngesterRegistry.standard.detect(ContentSample(feed))?.format == "ical", "after a BOM")
        let html = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("jsonld/venue-page-lantern-rooms.html")))
        #expect(IngesterRegistry.standard.detect(ContentSample(html))?.format == "jsonld")
        #expect(!ingester.recognizes(ContentSample(Data("<html><body>BEGIN:VCALENDAR</body></html>".utf8))))
    }

    @Test func aVenueCalendarKeepsPerformancesWithTheActsItsSummariesName() throws {
        let page = try parse("ical/venue-lantern-rooms.ics")
        #expect(page.events.count == 7)
        #expect(page.skipped == ["non-performance entries (doors times)": 1, "non-performance entries (meet & greets)": 1])

        let first = try event(page, "lantern-1001@lanternrooms.example")
        #expect(first.title == "Mavi Vapur w/ Les Orages Dorés & Tide Parades")
        #expect(first.lineup.map(\.artist.name) == ["Mavi Vapur", "Les Orages Dorés", "Tide Parades"])
        #expect(first.lineup.map(\.billing) == [.headline, .support, .support])
        #expect(first.url == "https://lanternrooms.example/events/1001")
        #expect(first.note == "Doors 19:00, first act 20:00.", "DESCRIPTION's first line, unescaped")
        #expect(first.venue?.name == "The Lantern Rooms", "X-WR-CALNAME names the venue when events give no LOCATION")

        let soldOut = try event(page, "lantern-1002@lanternrooms.example")
        #expect(soldOut.lineup.map(\.artist.name) == ["Canyon Foxes", "Otis Marsh", "Grace", "Ezra Irving"])
        #expect(soldOut.status == .scheduled, "TENTATIVE stays scheduled")
        let cancelled = try event(page, "lantern-1003@lanternrooms.example")
        #expect(cancelled.status == .cancelled)
        #expect(cancelled.lineup.map(\.artist.name) == ["The Gardens"], "what follows the dash is the tour")
        #expect(try event(page, "lantern-1006@lanternrooms.example").lineup.isEmpty, "\"Winter Concert\" is no band")
        #expect(try event(page, "lantern-1008@lanternrooms.example").lineup.map(\.artist.name) == ["Tide Parades", "Grace"])
        let basement = try event(page, "lantern-1009@lanternrooms.example")
        #expect(basement.lineup.map(\.artist.name) == ["Ezra Irving"])
        #expect(basement.venue?.name == "The Lantern Rooms Basement")

        let weekender = try event(page, "lantern-1007@lanternrooms.example")
        #expect(weekender.kind == .festival)
        #expect(weekender.start.localTime == nil)
        #expect(weekender.endDate == LocalDate(iso: "2027-07-04"), "DTEND is exclusive")
        let park = try #require(weekender.venue)
        #expect(park.name == "Victoria Park" && park.country == "GB")
        #expect(park.coordinate == Coordinate(latitude: 51.5362, longitude: -0.0388))
    }

    @Test func timesAreTheVenuesClockWithTheZoneAndTheInstantWhenKnown() throws {
        let page = try parse("ical/venue-lantern-rooms.ics")
        let zoned = try event(page, "lantern-1001@lanternrooms.example").start
        #expect(zoned.localDate == LocalDate(iso: "2026-12-04") && zoned.localTime == LocalTime(hour: 20, minute: 0))
        #expect(zoned.timeZone == "Europe/London")
        #expect(zoned.utc?.description == "2026-12-04T20:00:00Z")

        let utc = try event(page, "lantern-1009@lanternrooms.example").start
        #expect(utc.utc?.description == "2027-01-22T21:00:00Z")
        #expect(utc.timeZone == "Europe/London", "X-WR-TIMEZONE is the default zone")

        let floating = try event(page, "lantern-1006@lanternrooms.example").start
        #expect(floating.localTime == LocalTime(hour: 20, minute: 0) && floating.timeZone == "Europe/London")

        let bareDate = try event(page, "lantern-1008@lanternrooms.example").start
        #expect(bareDate.localDate == LocalDate(iso: "2027-01-20") && bareDate.localTime == nil, "a date without VALUE=DATE")
    }

    @Test func aUTCTimeIsShownOnTheVenuesClockOncePlaced() throws {
        let page = try parse("ical/tour-mavi-vapur.ics")
        let madrid = try event(page, "mv-2027-03-14-madrid")
        #expect(madrid.lineup.map(\.artist.name) == ["Mavi Vapur"], "what follows the slash is a stage")
        let placed = GeoEnrichment(gazetteer: try Gazetteer.bundled()).enrich(page)
        let start = try event(placed, "mv-2027-03-14-madrid").start
        #expect(start.timeZone == "Europe/Madrid")
        #expect(start.localTime == LocalTime(hour: 20, minute: 0) && start.localDate == LocalDate(iso: "2027-03-14"))
        #expect(start.utc?.description == "2027-03-14T19:00:00Z")
    }

    @Test func aBandsTourFeedWithABOMTabFoldingAndVersion1Reads() throws {
        let page = try parse("ical/tour-mavi-vapur.ics")
        #expect(page.events.count == 3)
        #expect(page.skipped == ["non-performance entries (passes and ticket sales)": 1, "non-performance entries (TBA entries)": 1])
        let lisbon = try event(page, "mv-2027-03-05-lisbon")
        #expect(lisbon.lineup.map(\.artist.name) == ["Mavi Vapur"])
        #expect(lisbon.start.localDate == LocalDate(iso: "2027-03-05") && lisbon.start.localTime == nil)
        #expect(lisbon.endDate == nil && lisbon.kind == .concert, "one day: DTEND is the next")
        #expect(lisbon.venue?.street == "Rua Nova do Carvalho 24" && lisbon.venue?.city == "Lisboa" && lisbon.venue?.country == "PT")
        let porto = try event(page, "mv-2027-03-07-porto")
        #expect(porto.lineup.map(\.artist.name) == ["Mavi Vapur", "Uzak Kuşlar", "Os Planetas Perdidos"])
        #expect(porto.venue?.name == "Hard Club", "LOCATION before the summary's \"at\"")
    }

    /// A house number is not a postal code: "41 Whitlock Street" is the street of a venue in
    /// London, "00610 Helsinki" a postal code and city.
    @Test func locationTellsStreetsFromPostalCodes() throws {
        func venue(_ location: String) throws -> VenueListing? {
            let feed = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:20270313T200000Z\r\n"
                + "SUMMARY:Magnetic Deserts\r\nLOCATION:\(location)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            return try ingester.parse(Data(feed.utf8), context: PageContext(locator: "f.ics")).events.first?.venue
        }
        let london = try #require(try venue(#"Atlas Center\, 41 Whitlock Street\, London\, GB"#))
        #expect([london.street, london.postalCode, london.city, london.country] == ["41 Whitlock Street", nil, "London", "GB"])
        let chicago = try #require(try venue(#"Empty Bottle\, 1035 N Western Ave\, Chicago\, IL"#))
        #expect([chicago.street, chicago.city, chicago.region] == ["1035 N Western Ave", "Chicago", "IL"])
        let helsinki = try #require(try venue(#"Kulttuuritalo\, Sturenkatu 4\, 00510 Helsinki"#))
        #expect([helsinki.street, helsinki.postalCode, helsinki.city] == ["Sturenkatu 4", "00510", "Helsinki"])
        // DE is Delaware and Germany: the gazetteer decides by the city.
        let berlin = try #require(try venue(#"Bar Beton\, Schröderstraße 46\, Berlin\, DE"#))
        #expect(berlin.country == nil && berlin.region == "DE")
        var page = ListingPage(source: .ical, locator: "f.ics")
        page.venues = [berlin, try #require(try venue(#"Grand Opera House\, 818 N Market St\, Wilmington\, DE"#))]
        let placed = GeoEnrichment(gazetteer: try Gazetteer.bundled()).enrich(page).venues
        #expect(placed.map { $0.place?.countryCode } == ["DE", "US"])
        #expect(placed.map(\.timeZone) == ["Europe/Berlin", "America/New_York"])
    }

    @Test func recurringEventsAreExpandedInsideTheWindowWithExceptionsAndOverrides() throws {
        let page = try parse("ical/recurring-itsaso-jam.ics", window: Self.window("2026-12-01", "2027-01-31"))
        let jam = page.events.filter { $0.sourceID.hasPrefix("jam-weekly@itsaso.example#") }
        // Wednesdays 2 Dec to 27 Jan, less the EXDATEs (23 and 30 Dec), 9 Dec overridden,
        // plus the RDATE on 26 Dec.
        #expect(jam.map(\.start.localDate.description).sorted() == [
            "2026-12-02", "2026-12-09", "2026-12-16", "2026-12-26", "2027-01-06", "2027-01-13", "2027-01-20", "2027-01-27",
        ])
        let override = try event(page, "jam-weekly@itsaso.example#20261209T210000")
        #expect(override.start.localTime == LocalTime(hour: 22, minute: 0))
        // "Itsaso Jazz Jam with Deniz Güneş": the jam is the series, the guest the act.
        #expect(override.lineup.map(\.artist.name) == ["Deniz Güneş"])
        let first = try event(page, "jam-weekly@itsaso.example#20261202T210000")
        #expect(first.start.timeZone == "Europe/Paris", "Outlook's \"Romance Standard Time\"")
        #expect(first.start.utc?.description == "2026-12-02T20:00:00Z")
        let monthly = page.events.filter { $0.sourceID.hasPrefix("quiz-monthly@") }.map(\.start.localDate.description)
        #expect(monthly == ["2026-12-01", "2027-01-05"], "the first Tuesday of each month")
        #expect(page.skipped.isEmpty)

        let later = try parse("ical/recurring-itsaso-jam.ics", window: Self.window("2027-02-01", "2027-02-28"))
        #expect(later.events.map(\.sourceID) == ["quiz-monthly@itsaso.example#20270202T200000"])
        #expect(later.skipped == ["recurring entries with no date in the window": 2])
    }

    @Test func aRuleWithNoEndStopsAt366Occurrences() throws {
        let unbounded = try parse("bad/ical/rrule-without-end.ics")
        #expect(unbounded.events.count == ICalendarIngester.maximumOccurrences)
        #expect(unbounded.events.first?.start.localDate == LocalDate(iso: "2026-12-02"))
        let windowed = try parse("bad/ical/rrule-without-end.ics", window: Self.window("2027-06-01", "2027-06-30"))
        #expect(windowed.events.count == 30)
        for rule in ["FREQ=YEARLY;INTERVAL=99999999", "FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=2", "FREQ=WEEKLY;BYDAY=9MO,XX"] {
            let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:odd\nDTSTART:20261202T200000Z\nRRULE:\(rule)\nSUMMARY:Jam\nEND:VEVENT\nEND:VCALENDAR\n"
            let page = try ingester.parse(Data(text.utf8), context: PageContext(locator: "odd.ics"))
            #expect(page.events.first?.start.localDate == LocalDate(iso: "2026-12-02"), "\(rule)")
            #expect(page.events.count <= 11, "\(rule): \(page.events.count)")
        }
    }

    @Test func malformedCalendarsFailNamingTheLine() throws {
        #expect {
            try parse("bad/ical/unterminated-vevent.ics")
        } throws: { error in
            let error = error as? IngestError
            return error?.position == "line 3" && "\(error!)".contains("never closed")
        }
        #expect {
            try parse("bad/ical/dtstart-not-a-date.ics")
        } throws: { error in
            (error as? IngestError)?.position == "line 5" && "\(error)".contains("next friday")
        }
    }

    @Test func aMalformedFeedIsSkippedAndTheOthersLand() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        let summary = TestSupport.ingest(
            [TestSupport.fixture("bad/ical/unterminated-vevent.ics"), TestSupport.fixture("ical")], into: catalog)
        #expect(summary.pagesFailed == 1 && summary.pagesApplied == 4)
        #expect(summary.failures.first?.locator.hasSuffix("unterminated-vevent.ics") == true)
        #expect(summary.skippedText.contains("1 non-performance entries (meet & greets)"))
    }

    /// `encore ingest` expands recurring events from its `--today` to a year on.
    @Test func encoreIngestReadsFeedsAndSaysWhatItSkipped() throws {
        let db = try TestSupport.temporaryDirectory().appendingPathComponent("encore.sqlite").path
        let run = try CLIRun.run(["--db", db, "--today", "2026-11-22", "ingest", TestSupport.fixture("ical")])
        #expect(run.status == 0, "\(run.stderr)")
        // 7 + 3 single events; the jam's 6 Wednesdays, its RDATE and its override; the
        // first Tuesdays from December 2026 to November 2027; a band's 4 gigs.
        #expect(run.stdout.contains("events: 34 new"), "\(run.stdout)")
        #expect(run.stdout.contains("skipped: 1 non-performance entries (TBA entries), 1 non-performance entries (doors times)"))
    }

    @Test func aTenMegabyteSummaryCostsOnlyItsLength() throws {
        var text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:huge\r\nDTSTART:20261204T200000Z\r\nSUMMARY:"
        let word = String(repeating: "Mavi Vapur with Grace ", count: 3)
        for _ in 0..<(10_000_000 / 70) { text += word + "\r\n " }
        text += "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let page = try ingester.parse(Data(text.utf8), context: PageContext(locator: "huge.ics"))
        let event = try #require(page.events.first)
        #expect(event.title.count == 500 && event.lineup.isEmpty)
    }

    /// Found by fuzzing: a `VTIMEZONE` whose `DTSTART` month is not 1–12 crashed the
    /// zone's reading; such a month tells nothing, and the zone's offsets still place times.
    @Test func aTimeZoneRuleWithAnImpossibleMonthCostsOnlyThatMonth() throws {
        for month in ["21", "00"] {
            let text = """
                BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:Itsaso Time\r\n\
                BEGIN:STANDARD\r\nDTSTART:16011028T030000\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n\
                BEGIN:DAYLIGHT\r\nDTSTART:1601\(month)25T020000\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\n\
                END:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:jam\r\nDTSTART;TZID=Itsaso Time:20261202T210000\r\n\
                SUMMARY:Itsaso Jazz Jam\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
                """
            let page = try ingester.parse(Data(text.utf8), context: PageContext(locator: "mangled.ics"))
            let event = try #require(page.events.first)
            #expect(event.start.localTime == LocalTime(hour: 21, minute: 0), "month \(month)")
        }
    }

    @Test func aDescriptionsFirstLineIsTheNoteAndNoMore() throws {
        func note(_ description: String) throws -> String? {
            let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:n\r\nDTSTART:20261204T200000Z\r\nSUMMARY:Grace\r\n"
                + "DESCRIPTION:\(description)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            return try ingester.parse(Data(text.utf8), context: PageContext(locator: "n.ics")).events.first?.note
        }
        #expect(try note("\\n\\n  Support from Otis Marsh\\, all ages\\nDoors 19:00") == "Support from Otis Marsh, all ages")
        #expect(try note("Bring\ta friend\u{7}") == "Bring a friend")
        #expect(try note("\\n  \\n") == nil)
        #expect(try note(String(repeating: "x", count: 5000))?.count == 500)
        // Escaped twice (a literal \n is left), and Google Calendar's HTML.
        #expect(try note("Preis: 15.-\\\\nOrt: Muri") == "Preis: 15.-")
        #expect(try note("<b>Eero Savela</b>: trumpetti<br><b>Seppo Kantonen</b>: piano") == "Eero Savela: trumpetti")
        #expect(try note("<p></p><p>Jazz &amp; Dinner Nights&nbsp;at Winest.</p><br/>Every Friday") == "Jazz & Dinner Nights at Winest.")
        #expect(try note("3 < 4 and 5 > 4") == "3 < 4 and 5 > 4", "no tag: text as it is")
        #expect(try note("Notes: Kuopio Jazz &amp; Blues.") == "Notes: Kuopio Jazz & Blues.")
        let page = try parse("ical/tour-mavi-vapur.ics")
        #expect(try event(page, "mv-2027-03-07-porto").note == "Tickets on sale Friday.")
        #expect(try event(page, "mv-2027-03-14-madrid").note == "A very long description folded with a tab that goes on.")
    }

    /// Every real feed of `../shared/realworld/ical` ingests, and each of its `VEVENT`s is
    /// kept or counted as skipped, as the MANIFEST counts them. Recurring events are
    /// expanded over 2026, so the feed with rules lists more events than it has entries.
    @Test(.enabled(if: TestSupport.realWorld("ical") != nil))
    func everyRealFeedIngestsWithTheManifestsCounts() throws {
        let root = URL(fileURLWithPath: try #require(TestSupport.realWorld("ical"))).deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        let window = Self.window("2026-01-01", "2026-12-31")
        var files = 0
        for line in manifest.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count > 6, columns[1] == "ical", let expected = Int(columns[6]) else { continue }
            files += 1
            let data = try Data(contentsOf: root.appendingPathComponent(columns[0]))
            #expect(IngesterRegistry.standard.detect(ContentSample(data))?.format == "ical", "\(columns[0])")
            let page = try ingester.parse(data, context: PageContext(locator: columns[0], window: window))
            let skipped = page.skipped.values.reduce(0, +)
            // An entry is one listing, or one per occurrence of a recurring one (`UID#start`),
            // and an override (`RECURRENCE-ID`) replaces an occurrence of its entry.
            let entries = Set(page.events.map { $0.sourceID.split(separator: "#").first.map(String.init) ?? "" }).count
            let overrides = Set(page.events.filter { Self.isOverride($0.sourceID, in: data) }.map(\.sourceID)).count
            #expect(entries + overrides + skipped == expected, "\(columns[0]): \(page.events.count) events, \(page.skipped)")
            if columns[7].contains("Meet & Greet") {
                #expect(page.skipped["non-performance entries (meet & greets)"] == 7)
            }
        }
        #expect(files == 15)
    }

    /// Whether the event is an entry with a `RECURRENCE-ID` naming its occurrence.
    static func isOverride(_ sourceID: String, in data: Data) -> Bool {
        guard let key = sourceID.split(separator: "#").dropFirst().first else { return false }
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
        return lines.contains { $0.hasPrefix("RECURRENCE-ID") && $0.split(separator: ":").last == key }
    }

    /// What the real feeds' quirks become, entry by entry.
    @Test(.enabled(if: TestSupport.realWorld("ical") != nil))
    func realFeedsQuirksBecomeTheRightValues() throws {
        let root = URL(fileURLWithPath: try #require(TestSupport.realWorld("ical")))
        func page(_ name: String) throws -> ListingPage {
            let data = try Data(contentsOf: root.appendingPathComponent(name))
            return try ingester.parse(data, context: PageContext(locator: name, window: Self.window("2026-01-01", "2026-12-31")))
        }
        let gigpress = try page("suomijazz_gigpress.ics")
        let hekselman = try #require(gigpress.events.first { $0.title == "Gilad Hekselman Trio at Koko Jazz Club" })
        #expect(hekselman.lineup.map(\.artist.name) == ["Gilad Hekselman Trio"])
        #expect(hekselman.venue?.name == "Koko Jazz Club" && hekselman.venue?.city == "Helsinki" && hekselman.venue?.country == "FI")
        #expect(hekselman.start.utc?.description == "2026-04-27T16:00:00Z", "TZID=GMT beside a Z is UTC")

        let orchestra = try page("hse_orchestra_concerts.ics")
        #expect(orchestra.events.first?.start.timeZone == "Europe/Moscow")
        #expect(orchestra.events.first?.start.localTime == LocalTime(hour: 18, minute: 30))
        #expect(orchestra.events.dropFirst().allSatisfy { $0.start.localTime == nil }, "00:00 ending at 00:00 is a date")

        let panic = try page("widespread_panic_tour.ics")
        #expect(panic.events.allSatisfy { $0.lineup.first?.artist.name == "Widespread Panic" && $0.start.localTime == nil })

        let fasnacht = try page("fasnacht_rocks_events.ics")
        #expect(fasnacht.events.allSatisfy { $0.venue?.coordinate != nil }, "GEO")
        #expect(fasnacht.events.allSatisfy { $0.note != nil && $0.note?.contains("\\n") == false }, "escaped twice")
        #expect(fasnacht.events.first?.note == "Preis: 5.- / 10.-")
        #expect(fasnacht.events.first?.title == "Füürball")

        // 2026 holds 57 occurrences of 5 of its 156 rules (less EXDATEs and overridden
        // ones, as python-dateutil expands them) and its 3 overrides.
        let jazz = try page("jazz_finland_unified_gcal_rrule.ics")
        let occurrences = jazz.events.filter { $0.sourceID.contains("#") }
        let notes = jazz.events.compactMap(\.note)
        #expect(notes.count > 10 && !notes.contains { $0.contains("<br") || $0.contains("&amp;") }, "HTML descriptions read as text")
        #expect(occurrences.count == 57 + 3)
        #expect(Set(occurrences.map { $0.sourceID.split(separator: "#")[0] }).count == 5)
        #expect(occurrences.allSatisfy { $0.start.localDate.year == 2026 })

        let wacken = try page("wackenschedule-wacken-2019-filtered-running-order.ics")
        let sabaton = wacken.events.filter { $0.lineup.first?.artist.name == "Sabaton" }
        #expect(sabaton.count == 2, "one band on two stages is two shows")
    }
}
