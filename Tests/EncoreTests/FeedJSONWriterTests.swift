import Catalog
import Foundation
import Geo
import Listings
import Testing

@testable import Feeds

/// Feeds are written by a hand-made JSON writer for speed; these tests hold it to the
/// exact bytes `JSONEncoder` writes, so published files never change with the writer.
struct FeedJSONWriterTests {
    static func expectSameBytes<Document: Encodable & FeedJSONWritable>(
        _ document: Document, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var json = FeedJSONWriter()
        document.write(to: &json)
        let written = json.finish()
        let encoded = try FeedJSON.encodeWithFoundation(document)
        #expect(try FeedJSON.encode(document) == written, "feeds go through the writer", sourceLocation: sourceLocation)
        #expect(
            written == encoded,
            "\(label):\n\(String(decoding: written, as: UTF8.self))\nJSONEncoder:\n\(String(decoding: encoded, as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    @Test func everyDocumentOfTheMergedSampleIsWhatJSONEncoderWrites() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("sample-multi")], into: catalog)
        let today = TestSupport.today
        let window = DateWindow(from: today.adding(days: -400), to: today.adding(days: 400))!

        let events = try catalog.events(ids: catalog.eventIDs(since: today.adding(days: -400)))
        #expect(events.count > 200)
        for event in events { try Self.expectSameBytes(EventFeed(event: event), "event \(event.id)") }

        for metro in try catalog.metroAreas(today: today) {
            let listed = try catalog.events(inMetroAreas: [metro.metroArea.id], window: window)
            try Self.expectSameBytes(
                MetroFeed(
                    metroArea: metro.metroArea, latitude: metro.latitude, longitude: metro.longitude,
                    events: .details(listed),
                    paging: FeedPaging(
                        page: 1, pages: 2, total: listed.count, next: "metros/\(metro.metroArea.id)/page-2.json",
                        previous: nil)),
                "metro \(metro.metroArea.id)")
            try Self.expectSameBytes(GeoJSON.venues(of: listed), "metro \(metro.metroArea.id) geojson")
        }

        for id in try catalog.venueIDs(withEventsSince: today.adding(days: -400)) {
            guard let page = try catalog.venuePage(id: id, today: today) else { continue }
            try Self.expectSameBytes(VenueFeed(page), "venue \(id)")
        }

        let names = try catalog.artistNames(withEventsSince: today.adding(days: -400))
        try Self.expectSameBytes(
            ArtistSearchIndex(entries: names.map { SearchEntry(name: $0.name, key: NameFolding.fold($0.name), slug: "a-\($0.id)") }),
            "artist search index")
        for artist in names.prefix(200) {
            guard let upcoming = try catalog.artistPage(artistID: artist.id, past: false, today: today),
                let past = try catalog.artistPage(artistID: artist.id, past: true, today: today)
            else { continue }
            try Self.expectSameBytes(
                ArtistFeed(
                    artist: upcoming.artist, slug: "a-\(artist.id)", upcoming: .details(upcoming.events),
                    recentPast: .details(past.events),
                    similar: upcoming.similar.map { ArtistFeed.Similar(id: $0.id, name: $0.name, slug: nil) }
                        + [ArtistFeed.Similar(id: 1, name: "Known", slug: "known")]),
                "artist \(artist.id)")
        }
    }

    /// An Atom feed of rendered records keeps the same newest entries, in the same order,
    /// as one of the events themselves, however few it keeps.
    @Test func atomFeedsOfRenderedRecordsKeepTheNewestEntriesAsTheEventsDo() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("sample-multi")], into: catalog)
        let events = try catalog.events(ids: catalog.eventIDs(since: TestSupport.today.adding(days: -400)))
        let rendered = try RenderedEvents()
        for event in events { try rendered.append(event.id, RenderedEvents.Rendering(event)) }
        try rendered.seal()
        #expect(events.count > 8)
        for limit in [1, 2, 3, 5, events.count] {
            let fromRecords = AtomFeed.entries(of: .rendered(events.map(\.id), store: rendered, extra: [:]), limit: limit)
            #expect(fromRecords.entries == AtomFeed.entries(of: .details(events), limit: limit).entries, "limit \(limit)")
            #expect(fromRecords.entries.count == min(limit, events.count))
        }
    }

    /// Lists splice each event's entry, rendered once; the pages must not change for it.
    @Test func listPagesSplicedFromEventsRenderedOnceAreWhatJSONEncoderWrites() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("sample-multi")], into: catalog)
        let today = TestSupport.today
        let events = try catalog.events(ids: catalog.eventIDs(since: today.adding(days: -400)))
        let rendered = try RenderedEvents()
        for event in events { try rendered.append(event.id, RenderedEvents.render(event)) }
        try rendered.seal()
        func spliced(_ events: [EventDetail]) -> EventList { .rendered(events.map(\.id), store: rendered, extra: [:]) }

        var lists = 0
        for id in try catalog.venueIDs(withEventsSince: today) {
            let page = try #require(try catalog.venuePage(id: id, today: today))
            let feed = VenueFeed(venue: page.venue, metroArea: page.metroArea, sources: page.sources, events: spliced(page.events))
            var json = FeedJSONWriter()
            feed.write(to: &json)
            #expect(json.finish() == (try FeedJSON.encodeWithFoundation(VenueFeed(page))), "venue \(id)")
            lists += 1
        }
        for artist in try catalog.artistNames(withEventsSince: today).prefix(100) {
            let page = try #require(try catalog.artistPage(artistID: artist.id, past: false, today: today))
            let past = try #require(try catalog.artistPage(artistID: artist.id, past: true, today: today)).events
            func feed(_ list: ([EventDetail]) -> EventList) -> ArtistFeed {
                ArtistFeed(artist: page.artist, slug: "s", upcoming: list(page.events), recentPast: list(past.reversed()), similar: [])
            }
            var json = FeedJSONWriter()
            feed(spliced).write(to: &json)
            #expect(json.finish() == (try FeedJSON.encodeWithFoundation(feed(EventList.details))), "artist \(artist.id)")
            lists += 1
        }
        #expect(lists > 50)
    }

    @Test func anEventMissingFromTheRenderedStoreIsSplicedFromItsOwnEntry() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("sample-multi")], into: catalog)
        let events = Array(try catalog.events(ids: catalog.eventIDs(since: TestSupport.today)).prefix(3))
        let rendered = try RenderedEvents()
        try rendered.append(events[0].id, RenderedEvents.render(events[0]))
        try rendered.seal()
        let list = EventList.rendered(
            events.map(\.id), store: rendered,
            extra: [events[1].id: RenderedEvents.Rendering(events[1]), events[2].id: RenderedEvents.Rendering(events[2])])
        var spliced = FeedJSONWriter()
        list.write(to: &spliced)
        var inPlace = FeedJSONWriter()
        EventList.details(events).write(to: &inPlace)
        #expect(spliced.bytes == inPlace.bytes)
        #expect(rendered.contains(events[0].id) && !rendered.contains(events[1].id))
    }

    @Test func awkwardValuesAreWrittenAsJSONEncoderWritesThem() throws {
        var event = EventDetail(
            id: -9_223_372_036_854_775_807, title: "Quote \" back\\slash / tab\t nul\u{0} bell\u{7} del\u{7F} é 😀 \u{2028}",
            kind: .festival, status: .cancelled,
            start: EventStart(localDate: LocalDate(iso: "2027-01-02")!, localTime: LocalTime(iso: "23:30"), timeZone: "Europe/Madrid"),
            endDate: LocalDate(iso: "2027-01-04"),
            venue: VenueSummary(id: 0, name: "", latitude: -0.0, longitude: 180, coordinatesApproximate: true),
            metroArea: nil, lineup: [], sources: [SourceLink(source: "s", id: "\r\n\u{C}\u{8}\u{1F}", url: nil)],
            popularity: 1e-7, ageRestriction: "18+")
        try Self.expectSameBytes(EventFeed(event: event), "awkward")
        for value in [0.1, 5, 1e15, 1e16, 9_007_199_254_740_991, 1.5e300, -12.5, 4e-5, 123_456_789.123] {
            event.popularity = value
            event.venue?.latitude = -value
            event.unlistedSince = "2027-01-01T00:00:00Z"
            try Self.expectSameBytes(EventFeed(event: event), "number \(value)")
            try Self.expectSameBytes(
                VenueFeed(venue: event.venue!, metroArea: nil, sources: [], events: .details([event])), "venue page")
        }
        event.venue = nil
        try Self.expectSameBytes(EventFeed(event: event), "no venue")
        try Self.expectSameBytes(GeoJSON.venues(of: [EventPin]()), "empty collection")
    }
}
