import Catalog
import Foundation
import GRDB
import Geo
import Ingest
import Listings
import Testing

/// Merging listings of one concert from several sources.
struct MergeTests {
    let day = LocalDate(iso: "2027-03-14")!

    func venue(_ source: String, name: String, latitude: Double = 51.5432, longitude: Double = -0.1519) -> VenueListing {
        VenueListing(sourceID: "\(source)-v", name: name, city: "London", country: "UK",
                     coordinate: Coordinate(latitude: latitude, longitude: longitude))
    }

    func act(_ source: String, _ name: String, mbid: String? = nil) -> PerformanceListing {
        PerformanceListing(
            artist: ArtistListing(sourceID: "\(source)-\(name)", name: name, musicBrainzIDs: mbid.map { [$0] } ?? []),
            billing: .headline, order: 1)
    }

    /// The same concert as three sources list it, with their usual differences.
    var pages: [ListingPage] {
        var songkick = ListingPage(source: .songkick, locator: "sk")
        songkick.events = [EventListing(
            sourceID: "1001", title: "Distillers at Roundhouse", start: EventStart(localDate: day),
            venue: venue("sk", name: "Roundhouse"), lineup: [act("sk", "Distillers"), act("sk", "Søren Lys")])]
        var bandsintown = ListingPage(source: .bandsintown, locator: "bit")
        bandsintown.events = [EventListing(
            sourceID: "b-77", title: "The Distillers", start: EventStart(localDate: day, localTime: LocalTime(iso: "19:30")),
            venue: venue("bit", name: "The Roundhouse", latitude: 51.5437, longitude: -0.1511),
            lineup: [act("bit", "The Distillers")])]
        var ticketmaster = ListingPage(source: .ticketmaster, locator: "tm")
        ticketmaster.events = [EventListing(
            sourceID: "G5v", title: "THE DISTILLERS", status: .cancelled, start: EventStart(localDate: day),
            venue: venue("tm", name: "Roundhouse", latitude: 51.5430, longitude: -0.1522),
            lineup: [act("tm", "The Distillers")],
            offers: [OfferListing(url: "https://tickets.example/G5v", priceMin: 30, priceMax: 45, currency: "GBP")])]
        return [songkick, bandsintown, ticketmaster]
    }

    /// A catalog's content without its ids: what each event is, and who listed it.
    func content(of catalog: CatalogDatabase) throws -> [String] {
        let window = DateWindow(from: LocalDate(iso: "2027-01-01")!, to: LocalDate(iso: "2027-12-31")!)!
        let events = try catalog.events(near: Coordinate(latitude: 51.5, longitude: -0.12), radiusKilometres: 50, window: window)
        return events.map { nearby in
            let event = nearby.event
            return [
                event.title, event.status.rawValue, event.start.localDate.description, event.start.localTime?.description ?? "-",
                event.venue?.name ?? "-", event.lineup.map(\.name).joined(separator: "+"),
                event.sources.map { "\($0.source):\($0.id)" }.joined(separator: ","),
            ].joined(separator: " | ")
        }.sorted()
    }

    @Test func oneConcertFromThreeSourcesIsOneEventWithEverySource() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        for page in pages { _ = try catalog.apply(page) }
        let stats = try catalog.stats(today: TestSupport.today)
        #expect(stats.events == 1)
        #expect(stats.venues == 1)
        let id = try #require(try catalog.eventIDs(since: day).first)
        let event = try #require(try catalog.event(id: id))
        #expect(event.sources.map(\.source) == ["bandsintown", "songkick", "ticketmaster"])
        // Ticketmaster ranks first and sold the tickets: its title and its cancellation win;
        // the only source with a time gives the time; the lineup is the union.
        #expect(event.title == "THE DISTILLERS")
        #expect(event.status == .cancelled)
        #expect(event.start.localTime?.description == "19:30:00")
        #expect(event.lineup.map(\.name) == ["The Distillers", "Søren Lys"])
        let explanation = try #require(try catalog.explain(eventID: id))
        #expect(explanation.records.filter { $0.kind == "event" && $0.reason != nil }.count == 2)
        #expect(explanation.records.contains { $0.reason?.contains("m apart") == true })
        // When each merge happened: the catalog's clock when the record joined the row.
        #expect(explanation.records.allSatisfy { ($0.reason == nil) == ($0.mergedAt == nil) })
        #expect(explanation.records.contains { $0.mergedAt == "2027-01-15T08:00:00Z" })
    }

    @Test func reasonsMergesGaveBeforeTheyMovedOntoTheRecordsStillExplainThem() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        for page in pages { _ = try catalog.apply(page) }
        let id = try #require(try catalog.eventIDs(since: day).first)
        let records = try #require(try catalog.explain(eventID: id)).records
        let reasons = records.map(\.reason)
        #expect(reasons.compactMap { $0 }.count >= 4)
        // The same catalog as version 14 kept it: reasons in a table of their own.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                CREATE TABLE merge_decision (
                    kind TEXT NOT NULL, entity_id INTEGER NOT NULL, source TEXT NOT NULL, source_id TEXT NOT NULL,
                    reason TEXT NOT NULL, decided_at TEXT NOT NULL, PRIMARY KEY (kind, source, source_id)
                ) WITHOUT ROWID;
                CREATE INDEX merge_decision_entity ON merge_decision(kind, entity_id);
                INSERT INTO merge_decision SELECT kind, entity_id, source, source_id, merge_reason, merged_at
                    FROM source_record WHERE merge_reason IS NOT NULL;
                ALTER TABLE source_record DROP COLUMN merge_reason;
                ALTER TABLE source_record DROP COLUMN merged_at;
                DROP INDEX source_record_entity;
                CREATE INDEX source_record_entity ON source_record(kind, entity_id);
                DELETE FROM grdb_migrations WHERE identifier LIKE 'v15:%';
                """)
        }
        let migrated = try CatalogDatabase(path: path)
        let migratedRecords = try #require(try migrated.explain(eventID: id)).records
        #expect(migratedRecords.map(\.reason) == reasons)
        #expect(migratedRecords.map(\.mergedAt) == records.map(\.mergedAt))
        let tables = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE name LIKE 'merge_decision%'")
        }
        #expect(tables.isEmpty)
    }

    /// A note is a text field like the others: the most trusted source that has one
    /// gives it, whatever order the sources arrive in.
    @Test func theNoteComesFromTheMostTrustedSourceThatHasOne() throws {
        var withNotes = pages
        withNotes[1].events[0].note = "Doors 19:00 (Bandsintown)"
        var feed = ListingPage(source: .ical, locator: "ics")
        feed.events = [EventListing(
            sourceID: "uid-1", title: "The Distillers w/ Søren Lys", start: EventStart(localDate: day),
            venue: venue("ics", name: "Roundhouse"), lineup: [act("ics", "The Distillers")], note: "First act 20:00 (feed)")]
        withNotes.append(feed)
        func note(_ pages: [ListingPage], _ order: [Int]) throws -> String? {
            let (catalog, _) = try TestSupport.makeCatalog()
            for index in order { _ = try catalog.apply(pages[index]) }
            #expect(try catalog.stats(today: TestSupport.today).events == 1)
            let id = try #require(try catalog.eventIDs(since: day).first)
            return try catalog.event(id: id)?.note
        }
        for order in [[0, 1, 2, 3], [3, 2, 1, 0], [3, 0, 2, 1]] {
            #expect(try note(withNotes, order) == "Doors 19:00 (Bandsintown)", "\(order)")
        }
        withNotes[1].events[0].note = nil
        #expect(try note(withNotes, [1, 3, 0, 2]) == "First act 20:00 (feed)")
    }

    @Test func aCatalogFromBeforeNotesGainsTheColumnAndKeepsItsEvents() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        for page in pages { _ = try catalog.apply(page) }
        let id = try #require(try catalog.eventIDs(since: day).first)
        let before = try #require(try catalog.event(id: id))
        // The catalog as version 16 kept it: no note column.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                ALTER TABLE event DROP COLUMN note;
                DELETE FROM grdb_migrations WHERE identifier LIKE 'v17:%';
                """)
        }
        let migrated = try CatalogDatabase(path: path)
        let after = try #require(try migrated.event(id: id))
        #expect(after == before && after.note == nil)
        var noted = pages[2]
        noted.events[0].note = "Rescheduled from May"
        _ = try migrated.apply(noted)
        #expect(try migrated.event(id: id)?.note == "Rescheduled from May")
    }

    @Test func mergesDoNotDependOnTheOrderSourcesArrive() throws {
        var contents: Set<[String]> = []
        for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2], [1, 2, 0]] {
            let (catalog, _) = try TestSupport.makeCatalog()
            for index in order { _ = try catalog.apply(pages[index]) }
            contents.insert(try content(of: catalog))
        }
        #expect(contents.count == 1, "\(contents)")
    }

    @Test func aRebuiltVenueIsFoundWhereItsRowNowSaysAndByItsName() throws {
        // Ticketmaster ranks first: its venue record, 25 m from Songkick's, moves the row
        // when it arrives last; the R*Tree point and the search entry must move with it.
        for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2]] {
            let (catalog, _) = try TestSupport.makeCatalog()
            for index in order { _ = try catalog.apply(pages[index]) }
            let id = try #require(try catalog.eventIDs(since: day).first)
            let venue = try #require(try catalog.event(id: id)?.venue)
            let here = Coordinate(latitude: try #require(venue.latitude), longitude: try #require(venue.longitude))
            #expect(try catalog.venueDistances(near: here, radiusKilometres: 0.005).count == 1, "\(order)")
            #expect(try catalog.venues(named: venue.name).map(\.id) == [venue.id], "\(order)")
        }
    }

    /// Songkick's show of a band called "Low" at the Roundhouse on `day`.
    var songkickLowAtRoundhouse: ListingPage {
        var page = ListingPage(source: .songkick, locator: "sk")
        page.events = [EventListing(
            sourceID: "1", title: "Low", start: EventStart(localDate: day), venue: venue("sk", name: "Roundhouse"),
            lineup: [act("sk", "Low")])]
        return page
    }

    /// A show of a band called "Low" three days later at Hackney Church, as `source` lists
    /// it (its venue and act ids prefixed with `venuePrefix` and `actPrefix`).
    func lowAtHackney(_ source: String, venuePrefix: String, actPrefix: String) -> ListingPage {
        var page = ListingPage(source: .registered(source), locator: "\(source)-hackney")
        page.events = [EventListing(
            sourceID: "\(source)-hackney", title: "Low", start: EventStart(localDate: day.adding(days: 3)),
            venue: venue(venuePrefix, name: "Hackney Church", latitude: 51.549, longitude: -0.054),
            lineup: [act(actPrefix, "Low")])]
        return page
    }

    @Test func aNameAloneNeverMerges() throws {
        // Two bands called "Low" at different venues on different days stay apart.
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(songkickLowAtRoundhouse)
        _ = try catalog.apply(lowAtHackney("bandsintown", venuePrefix: "bit", actPrefix: "bit"))
        let stats = try catalog.stats(today: TestSupport.today)
        #expect(stats.events == 2 && stats.artists == 2 && stats.venues == 2)
    }

    @Test func anArtistMergedAwayWhileAnEventJoinsIsNotWrittenBackOnItsBill() throws {
        // Last.fm's "Low" has a row of its own (an event nothing else lists) before
        // Songkick's "Low" gets one; a Last.fm listing of the Songkick show, with one
        // more act, then merges the two rows and keeps the older, Last.fm's.
        let lastfmFirst = lowAtHackney("lastfm", venuePrefix: "lf-hc", actPrefix: "lf")
        var lastfmSecond = ListingPage(source: .lastfm, locator: "l2")
        lastfmSecond.events = [EventListing(
            sourceID: "l2", title: "Low", start: EventStart(localDate: day), venue: venue("lf", name: "The Roundhouse"),
            lineup: [act("lf", "Low"), act("lf", "Kestrel Lane")])]
        let (catalog, _) = try TestSupport.makeCatalog()
        for page in [lastfmFirst, songkickLowAtRoundhouse, lastfmSecond] { _ = try catalog.apply(page) }
        let stats = try catalog.stats(today: TestSupport.today)
        #expect(stats.events == 2 && stats.artists == 2)
        let show = try #require(try catalog.eventIDs(since: day).compactMap { try catalog.event(id: $0) }
            .first { $0.start.localDate == day })
        #expect(show.sources.map(\.source) == ["lastfm", "songkick"])
        #expect(show.lineup.map(\.name) == ["Low", "Kestrel Lane"])
    }

    @Test func theSameMusicBrainzIdMergesArtistsWithoutASharedEvent() throws {
        let mbid = "a74b1b7f-71a5-4011-9441-d0b5e4122711"
        var first = ListingPage(source: .songkick, locator: "a")
        first.artists = [ArtistListing(sourceID: "sk-1", name: "Radiohead", musicBrainzIDs: [mbid])]
        var second = ListingPage(source: .bandsintown, locator: "b")
        second.artists = [ArtistListing(sourceID: "bit-1", name: "Radiohead (UK)", musicBrainzIDs: [mbid])]
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(first)
        _ = try catalog.apply(second)
        #expect(try catalog.stats(today: TestSupport.today).artists == 1)
        #expect(try catalog.artists(named: "Radiohead", today: TestSupport.today).first?.sources.count == 2)
    }

    @Test func twoRecordsOfOneSourceNeverMerge() throws {
        var page = ListingPage(source: .songkick, locator: "a")
        page.events = ["early", "late"].map { show in
            EventListing(
                sourceID: show, title: "Night Ferry (\(show) show)", start: EventStart(localDate: day),
                venue: venue("sk", name: "Roundhouse"), lineup: [act("sk", "Night Ferry")])
        }
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(page)
        #expect(try catalog.stats(today: TestSupport.today).events == 2)
    }

    @Test func plansAndTrackedArtistsFollowAMerge() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(pages[1])
        let id = try #require(try catalog.eventIDs(since: day).first)
        try catalog.addPlan(user: "ana", eventID: id)
        let artist = try #require(try catalog.artists(named: "The Distillers", today: TestSupport.today).first)
        try catalog.track(user: "ana", TrackedItem(kind: .artist, id: artist.id, name: artist.name))
        _ = try catalog.apply(pages[0])
        _ = try catalog.apply(pages[2])
        #expect(try catalog.plans(user: "ana", today: TestSupport.today).map(\.event.id) == [id])
        let tracked = try catalog.tracked(user: "ana")
        #expect(tracked.count == 1)
        #expect(try catalog.artistPage(artistID: tracked[0].id, today: TestSupport.today)?.events.map(\.id) == [id])
    }

    /// A festival one source lists without its bill is the same event as another
    /// source's listing of it with the bill, when venue, date and title agree.
    @Test func aFestivalListedWithoutItsBillJoinsTheSameTitleAtTheSameVenue() throws {
        var songkick = ListingPage(source: .songkick, locator: "sk")
        songkick.events = [EventListing(
            sourceID: "fest", title: "Northern Feather Festival 2027", kind: .festival, start: EventStart(localDate: day),
            venue: venue("sk", name: "Turmpark"), lineup: [])]
        var bandsintown = ListingPage(source: .bandsintown, locator: "bit")
        bandsintown.events = [EventListing(
            sourceID: "b-fest", title: "NORTHERN FEATHER FESTIVAL 2027", start: EventStart(localDate: day),
            venue: venue("bit", name: "Turmpark"), lineup: [act("bit", "Night Ferry"), act("bit", "Søren Lys")])]
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(songkick)
        _ = try catalog.apply(bandsintown)
        let ids = try catalog.eventIDs(since: day)
        #expect(ids.count == 1)
        let id = try #require(ids.first)
        let event = try #require(try catalog.event(id: id))
        #expect(event.sources.map(\.source) == ["bandsintown", "songkick"])
        #expect(event.lineup.map(\.name) == ["Night Ferry", "Søren Lys"])
    }

    /// An early and a late show of one act at one venue on one day: another source's
    /// listing of each joins the show at its own time, whichever order they come in.
    @Test func anEarlyAndALateShowEachTakeTheListingAtTheirTime() throws {
        func show(_ sourceID: String, at time: String, _ source: String, venueName: String) -> EventListing {
            EventListing(
                sourceID: sourceID, title: "Night Ferry", start: EventStart(localDate: day, localTime: LocalTime(iso: time)),
                venue: venue(source, name: venueName), lineup: [act(source, "Night Ferry")])
        }
        var songkick = ListingPage(source: .songkick, locator: "sk")
        songkick.events = [show("early", at: "19:00", "sk", venueName: "Roundhouse"),
                           show("late", at: "22:00", "sk", venueName: "Roundhouse")]
        var bandsintown = ListingPage(source: .bandsintown, locator: "bit")
        bandsintown.events = [show("b-late", at: "22:00", "bit", venueName: "The Roundhouse"),
                              show("b-early", at: "19:00", "bit", venueName: "The Roundhouse")]
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(songkick)
        _ = try catalog.apply(bandsintown)
        let shows = try catalog.eventIDs(since: day).map { try #require(try catalog.event(id: $0)) }
        #expect(shows.map { $0.start.localTime?.description ?? "-" }.sorted() == ["19:00:00", "22:00:00"])
        for show in shows {
            let ids = show.sources.map(\.id).sorted()
            #expect(ids == (show.start.localTime?.description == "19:00:00" ? ["b-early", "early"] : ["b-late", "late"]))
        }
        let late = try #require(shows.first { $0.start.localTime?.description == "22:00:00" })
        let explanation = try #require(try catalog.explain(eventID: late.id))
        #expect(explanation.records.contains { $0.reason?.contains("at the same local time (22:00:00)") == true })
    }

    /// Two bands of one source share a name; a second source that knows artists by name
    /// alone (Last.fm) lists both their shows. Each of its listings joins its own show,
    /// but the two bands stay two artists, and each bill names its band once.
    @Test(arguments: [true, false])
    func aSourceNamingTwoNamesakesAloneNeverMergesThem(onOnePage: Bool) throws {
        let duluth = VenueListing(sourceID: "sk-v2", name: "Sacred Heart Music Center", city: "Duluth", country: "US",
                                  coordinate: Coordinate(latitude: 46.7833, longitude: -92.1066))
        var songkick = ListingPage(source: .songkick, locator: "sk")
        songkick.events = [
            EventListing(sourceID: "1", title: "Low at Roundhouse", start: EventStart(localDate: day),
                         venue: venue("sk", name: "Roundhouse"), lineup: [act("sk-uk", "Low")]),
            EventListing(sourceID: "2", title: "Low in Duluth", start: EventStart(localDate: day.adding(days: 9)),
                         venue: duluth, lineup: [act("sk-us", "Low")]),
        ]
        // Last.fm names the act "Low" on both shows: one record, two bands.
        var lastfm = [ListingPage(source: .lastfm, locator: "lf-1"), ListingPage(source: .lastfm, locator: "lf-2")]
        lastfm[0].events = [EventListing(
            sourceID: "l1", title: "Low", start: EventStart(localDate: day),
            venue: venue("lf", name: "The Roundhouse"), lineup: [act("lf", "Low")])]
        lastfm[1].events = [EventListing(
            sourceID: "l2", title: "Low", start: EventStart(localDate: day.adding(days: 9)),
            venue: VenueListing(sourceID: "lf-v2", name: "Sacred Heart Music Center", city: "Duluth", country: "US",
                                coordinate: Coordinate(latitude: 46.7834, longitude: -92.1067)),
            lineup: [act("lf", "Low")])]
        if onOnePage {
            lastfm[0].events += lastfm[1].events
            lastfm.removeLast()
        }
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(songkick)
        for page in lastfm { _ = try catalog.apply(page) }

        let stats = try catalog.stats(today: TestSupport.today)
        #expect(stats.events == 2)
        #expect(stats.artists == 2)
        var headliners: [Int64] = []
        for id in try catalog.eventIDs(since: day) {
            let event = try #require(try catalog.event(id: id))
            #expect(event.sources.map(\.source) == ["lastfm", "songkick"])
            #expect(event.lineup.map(\.name) == ["Low"], "\(event.title)")
            headliners += event.lineup.map(\.artistID)
        }
        #expect(Set(headliners).count == 2)
    }

    /// Re-listing a show whose bill names two of one source's artists with one name (a
    /// festival booked two bands called "Low") keeps them two artists: the bill is not
    /// corroboration between records of one source.
    @Test func aRelistedBillWithTwoNamesakesOfOneSourceKeepsBothArtists() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        let london = Coordinate(latitude: 51.539, longitude: -0.1426)
        func page(status: EventStatus) -> ListingPage {
            var page = ListingPage(source: .songkick, locator: "festival")
            page.events.append(EventListing(
                sourceID: "f1", title: "Low and Low", status: status,
                start: EventStart(localDate: TestSupport.today.adding(days: 3)),
                venue: VenueListing(sourceID: "v1", name: "Roundhouse", coordinate: london),
                lineup: [
                    PerformanceListing(artist: ArtistListing(sourceID: "a1", name: "Low"), billing: .headline, order: 1),
                    PerformanceListing(artist: ArtistListing(sourceID: "a2", name: "LOW"), billing: .headline, order: 2),
                ]))
            return page
        }
        _ = try catalog.apply(page(status: .scheduled))
        #expect(try catalog.stats(today: TestSupport.today).artists == 2)
        _ = try catalog.apply(page(status: .cancelled))
        #expect(try catalog.stats(today: TestSupport.today).artists == 2)
    }
}
