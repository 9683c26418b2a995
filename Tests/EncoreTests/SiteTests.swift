import Catalog
import Feeds
import Foundation
import Listings
import Testing

@testable import Feeds

/// The website and Atom feeds written beside the JSON.
struct SiteTests {
    let stamp = UTCInstant(iso: "2026-11-22T08:00:00Z")!

    func sampleSite() throws -> (CatalogDatabase, [String: Data]) {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("sample-multi")], into: catalog)
        _ = try catalog.updateSettings(user: "ana", home: ("Madrid", .init(latitude: 40.4165, longitude: -3.70256)))
        let ids = try catalog.eventIDs(since: TestSupport.today)
        for id in ids.prefix(3) { try catalog.addPlan(user: "ana", eventID: id) }
        return (catalog, try FeedBuilder(source: catalog, today: TestSupport.today, generatedAt: stamp, publishFans: true).build().files)
    }

    func text(_ files: [String: Data], _ path: String) -> String {
        files[path].map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    @Test func everyJSONPageHasAnHTMLPageBesideItAndEveryListAnAtomFeed() throws {
        let (_, files) = try sampleSite()
        let pages = files.keys.filter {
            $0.hasSuffix(".json") && ($0.hasPrefix("metros/") || $0.hasPrefix("artists/") || $0.hasPrefix("venues/")
                || $0.hasPrefix("events/") || $0.hasPrefix("users/") || $0 == "index.json")
        }
        #expect(pages.count > 100)
        for page in pages { #expect(files[String(page.dropLast(5)) + ".html"] != nil, "\(page)") }
        for page in files.keys where page.hasPrefix("events/") && page.hasSuffix(".json") {
            #expect(files[String(page.dropLast(5)) + ".ics"] != nil)
        }
        for page in files.keys where page.range(of: #"^(metros/\d+|artists/[a-z0-9-]+)\.json$"#, options: .regularExpression) != nil {
            #expect(files[String(page.dropLast(5)) + ".atom"] != nil, "\(page)")
        }
        #expect(files["users/ana/feed.atom"] != nil && files[SiteAssets.css] != nil && files[SiteAssets.js] != nil)
    }

    @Test func theVenueSearchIndexNamesEveryVenuePageByFoldedName() throws {
        let (_, files) = try sampleSite()
        let index = try #require(try JSONSerialization.jsonObject(with: files["search/venues.json"] ?? Data()) as? [[String: Any]])
        let pages = Set(files.keys.filter { $0.range(of: #"^venues/\d+\.html$"#, options: .regularExpression) != nil })
        #expect(Set(index.map { "venues/\($0["id"] as! Int).html" }) == pages)
        let keys = index.map { $0["key"] as! String }
        #expect(keys == keys.sorted() && keys.contains { !$0.isEmpty })
    }

    @Test func aConcertPageShowsItsLineupLocalTimeZoneAndDirections() throws {
        let (catalog, files) = try sampleSite()
        let events = try catalog.events(ids: catalog.eventIDs(since: TestSupport.today))
        let event = try #require(events.first { $0.start.localTime != nil && $0.start.timeZone != nil && $0.lineup.count > 1 })
        let page = text(files, "events/\(event.id).html")
        for act in event.lineup { #expect(page.contains(act.name.replacingOccurrences(of: "&", with: "&amp;"))) }
        let city = event.start.timeZone!.split(separator: "/").last!.replacingOccurrences(of: "_", with: " ")
        #expect(page.contains("\(String(event.start.localTime!.description.prefix(5))) \(city) time"))
        #expect(page.contains("geo:") && page.contains("openstreetmap.org"))
        #expect(page.contains("href=events/\(event.id).ics "))
        #expect(page.components(separatedBy: "<h1").count == 2)
        #expect(text(files, "events/\(event.id).ics").contains("UID:event-\(event.id)@"))
    }

    @Test(.enabled(if: Python.runsTests(needing: "icalendar"), "needs the icalendar package (CI installs it)"))
    func aConcertsCalendarParsesAndKeepsWhatCalendarsShow() throws {
        try Python.require("icalendar")
        let (catalog, files) = try sampleSite()
        let events = try catalog.events(ids: catalog.eventIDs(since: TestSupport.today))
        let cancelled = try #require(events.first { $0.status == .cancelled && $0.venue != nil })
        let scheduled = try #require(events.first { $0.status == .scheduled && $0.venue != nil && $0.title.utf8.count > 70 })
        for event in [cancelled, scheduled] {
            let text = text(files, "events/\(event.id).ics")
            let file = try TestSupport.temporaryDirectory().appendingPathComponent("\(event.id).ics")
            try Data(text.utf8).write(to: file)
            let run = try Python.run(["scripts/validate-ics.py", file.path])
            #expect(run.status == 0, "\(run.output)")
            #expect(text.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
            // Unfolded, the summary is the title as written (commas escaped).
            let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
            #expect(unfolded.contains("SUMMARY:" + event.title.replacingOccurrences(of: ",", with: "\\,") + "\r\n"))
            #expect(unfolded.contains("LOCATION:" + event.venue!.name.replacingOccurrences(of: ",", with: "\\,")))
            #expect(text.contains("STATUS:CANCELLED") == (event.status == .cancelled))
        }
    }

    @Test func aCancelledShowSaysSoOnItsPageAndInItsLists() throws {
        let (catalog, files) = try sampleSite()
        let events = try catalog.events(ids: catalog.eventIDs(since: TestSupport.today))
        let cancelled = try #require(events.first { $0.status == .cancelled && $0.metroArea != nil })
        #expect(text(files, "events/\(cancelled.id).html").contains("This show is cancelled.") && !text(files, "events/\(cancelled.id).html").contains("class=buy"))
        let metroPages = files.keys.filter { $0.hasPrefix("metros/\(cancelled.metroArea!.id)") && $0.hasSuffix(".html") }
        let listed = metroPages.map { text(files, $0) }.first { $0.contains("href=events/\(cancelled.id).html>") }
        let entry = try #require(listed?.components(separatedBy: "<li class=cancelled>").dropFirst()
            .first { $0.contains("events/\(cancelled.id).html") })
        #expect(entry.hasPrefix("<a href=events/\(cancelled.id).html>") && entry.contains("</a><strong>Cancelled</strong>"))
    }

    @Test func metroPagesGroupShowsByVenueLocalDayAndMapTheirVenues() throws {
        let (_, files) = try sampleSite()
        let page = text(files, "metros/1.html")
        #expect(page.contains("</h3><ol class=events><li"))
        #expect(page.contains("<svg class=map") && page.contains("<ol class=venues><li><a href=venues/"))
        #expect(page.contains("<link rel=alternate type=application/atom+xml"))
        // Days in order, each once.
        let days = page.components(separatedBy: "<h3 id=d").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(days.count == Set(days).count && days.count > 1)
    }

    @Test func namesWithMarkupAreEscapedInPagesAndFeeds() throws {
        var event = EventDetail(
            id: 7, title: "Tom & \"Jerry\" <script>alert(1)</script> &amp; R&B;", kind: .concert, status: .postponed,
            start: EventStart(localDate: LocalDate(iso: "2026-12-01")!, localTime: nil, timeZone: "Europe/Madrid", utc: nil),
            endDate: nil, venue: nil, metroArea: nil,
            lineup: [LineupEntry(artistID: 1, name: "<b>Bold</b>", billing: .headline, order: 0)],
            sources: [SourceLink(source: "x", id: "1", url: "https://example.com/?a=1&b=\"2\"")], popularity: nil,
            ageRestriction: nil)
        event.firstSeen = UTCInstant(iso: "2026-11-20T10:00:00Z")
        let page = String(decoding: EventFeed(event: event).html(slugs: [1: "bold"], listedWindow: DateWindow(from: TestSupport.today, to: TestSupport.today)!), as: UTF8.self)
        #expect(!page.contains("<script>alert") && !page.contains("<b>Bold"))
        #expect(page.contains("<h1>Tom &amp; \"Jerry\" &lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; R&amp;B;</h1>"))
        #expect(page.contains("<title>Tom &amp; \"Jerry\" &lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; R&amp;B; · Encore</title>"))
        #expect(page.contains("href=\"https://example.com/?a=1&amp;b=&quot;2&quot;\""))
        #expect(page.contains("postponed"))
        let atom = AtomFeed.entry(event)
        #expect(atom.contains("<title>Postponed: Tom &amp; &quot;Jerry&quot; &lt;script&gt;"))
        #expect(atom.contains("<updated>2026-11-20T10:00:00Z</updated>"))

        // A show its sources stopped listing is an update of the entry, dated then.
        event.unlistedSince = "2026-11-21T09:30:00Z"
        #expect(AtomFeed.entry(event).contains("<title>No longer listed: Tom") && AtomFeed.entry(event).contains("<updated>2026-11-21T09:30:00Z</updated>"))
        #expect(AtomFeed.entries(of: .details([event])).updated == UTCInstant(iso: "2026-11-21T09:30:00Z")!.secondsSinceEpoch)
    }

    @Test func atomFeedsDateEntriesByCatalogTimesAndMetroFeedsKeepOnlyRecentAnnouncements() throws {
        let (catalog, files) = try sampleSite()
        let metroFeed = text(files, "metros/1.atom")
        #expect(metroFeed.hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">"))
        // Everything was first seen at ingestion, today by the wall clock: within 14 days of the
        // catalog's day only when that day is recent, so count against each entry's own date.
        let events = try catalog.events(ids: catalog.eventIDs(inMetroAreas: [1], window: DateWindow(
            from: TestSupport.today, to: TestSupport.today.adding(days: 365))!))
        let since = UTCInstant(date: TestSupport.today.adding(days: -14), time: LocalTime(hour: 0, minute: 0)!, utcOffsetSeconds: 0)
        let announced = events.filter { ($0.firstSeen ?? UTCInstant(secondsSinceEpoch: 0)) >= since }
        #expect(metroFeed.components(separatedBy: "<entry>").count - 1 == min(announced.count, AtomFeed.limit))
        let newest = events.compactMap(\.firstSeen).max()
        if let newest, !announced.isEmpty { #expect(metroFeed.contains("<updated>\(newest)</updated><author>")) }
        // A later build of the same catalog writes the same feeds.
        let again = try FeedBuilder(
            source: catalog, today: TestSupport.today, generatedAt: UTCInstant(secondsSinceEpoch: 0), publishFans: true
        ).build()
        for (path, data) in files where path.hasSuffix(".atom") || path.hasSuffix(".html") { #expect(again.files[path] == data) }
    }
}
