@testable import Catalog
import Foundation
import GRDB
import Geo
import Ingest
import Listings
import Testing

/// Records remembered across an ingest's groups (``SeenRecords``) must never answer for
/// what the catalog no longer holds.
struct SeenRecordsTests {
    private func page(_ locator: String, artist: ArtistListing, eventID: String) -> ListingPage {
        var page = ListingPage(source: .songkick, locator: locator)
        page.events = [EventListing(
            sourceID: eventID, title: eventID, start: EventStart(localDate: LocalDate(iso: "2027-01-01")!),
            lineup: [PerformanceListing(artist: artist, billing: .headline, order: 1)])]
        return page
    }

    private func artistURL(_ path: String) throws -> String? {
        try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "SELECT url FROM artist") }
    }

    @Test func aChangeWrittenByAnotherConnectionIsNotMistakenForWhatThisOneSaw() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let original = ArtistListing(sourceID: "a1", name: "Velvet Harbour", url: "http://sk/original")
        let changed = ArtistListing(sourceID: "a1", name: "Velvet Harbour", url: "http://sk/changed")
        try catalog.withPageGroup { _ = try $0.apply(page("1", artist: original, eventID: "e1"), pageHash: "1", format: "f") }
        let other = try CatalogDatabase(path: path, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        try other.withPageGroup { _ = try $0.apply(page("2", artist: changed, eventID: "e2"), pageHash: "2", format: "f") }
        #expect(try artistURL(path) == "http://sk/changed")
        // The first connection saw the original content; it must find the change, not
        // take the original back as unchanged.
        try catalog.withPageGroup { _ = try $0.apply(page("3", artist: original, eventID: "e3"), pageHash: "3", format: "f") }
        #expect(try artistURL(path) == "http://sk/original")
    }

    @Test func aRecordChangedAgainWithinARunIsFilledFromWhatTheRunStoredNotFromALeanerMention() throws {
        // The run remembers the stored snapshot of each record it wrote or read; a leaner
        // mention in between stamps the record without replacing what is remembered.
        let (catalog, path) = try TestSupport.makeCatalog()
        let mbid = "4991e134-af50-46b8-a3e2-e3497ab781b6"
        let rich = ArtistListing(sourceID: "a1", name: "Low", musicBrainzIDs: [mbid], url: "http://sk/low")
        let lean = ArtistListing(sourceID: "a1", name: "Low")
        let moved = ArtistListing(sourceID: "a1", name: "Low", url: "http://sk/music/low")
        try catalog.withPageGroup { group in
            _ = try group.apply(page("1", artist: rich, eventID: "e1"), pageHash: "1", format: "f")
            _ = try group.apply(page("2", artist: lean, eventID: "e2"), pageHash: "2", format: "f")
            _ = try group.apply(page("3", artist: moved, eventID: "e3"), pageHash: "3", format: "f")
        }
        let row = try DatabaseQueue(path: path).read { db in
            try Row.fetchOne(db, sql: "SELECT mbid, url FROM artist")
        }
        #expect(row?["mbid"] as String? == mbid)
        #expect(row?["url"] as String? == "http://sk/music/low")
        let records = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT url FROM source_record WHERE kind = 'artist'")
        }
        #expect(records == ["http://sk/music/low"])
    }

    @Test func whatARolledBackPageWroteIsNotRemembered() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let sabotage = try CatalogSabotage(path: path)
        try sabotage.failInsertsOfEventsTitled("doomed")
        let artist = ArtistListing(sourceID: "a1", name: "Velvet Harbour")
        try catalog.withPageGroup { group in
            #expect(throws: (any Error).self) {
                try group.apply(page("1", artist: artist, eventID: "doomed"), pageHash: "1", format: "f")
            }
            // The artist's record went with the page: it must be written again here.
            _ = try group.apply(page("2", artist: artist, eventID: "kept"), pageHash: "2", format: "f")
        }
        try sabotage.remove()
        #expect(try sabotage.eventTitles() == ["kept"])
        let records = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM source_record WHERE kind = 'artist'")
        }
        #expect(records == 1)
        #expect(try catalog.stats(today: TestSupport.today).artists == 1)
    }

    @Test func lastSeenMovesOnceTheStampsAreOlderThanTheirLifetime() throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let path = try TestSupport.temporaryDirectory().appendingPathComponent("catalog.sqlite").path
        let catalog = try CatalogDatabase(path: path, now: { clock.now })
        let artist = ArtistListing(sourceID: "a1", name: "Velvet Harbour")
        func lastSeen() throws -> String? {
            try DatabaseQueue(path: path).read { db in
                try String.fetchOne(db, sql: "SELECT last_seen FROM source_record WHERE kind = 'artist'")
            }
        }
        try catalog.withPageGroup { _ = try $0.apply(page("1", artist: artist, eventID: "e1"), pageHash: "1", format: "f") }
        let first = try lastSeen()
        clock.now += 30
        try catalog.withPageGroup { _ = try $0.apply(page("2", artist: artist, eventID: "e2"), pageHash: "2", format: "f") }
        #expect(try lastSeen() == first)
        clock.now += SeenRecords.stampLifetime
        try catalog.withPageGroup { _ = try $0.apply(page("3", artist: artist, eventID: "e3"), pageHash: "3", format: "f") }
        #expect(try lastSeen() == CatalogDatabase.timestamp(clock.now))
    }
}

/// What merging remembers across a group's pages (the row a record belongs to, the
/// sources on a row) must follow artist merges and forget what a rolled-back page did.
struct RememberedMergeTests {
    let day = LocalDate(iso: "2027-03-14")!

    private func page(_ source: String, _ eventID: String, venue: String, day offset: Int, title: String? = nil) -> ListingPage {
        var page = ListingPage(source: .registered(source), locator: "\(source)-\(eventID)")
        let coordinate = venue == "Roundhouse"
            ? Coordinate(latitude: 51.5432, longitude: -0.1519) : Coordinate(latitude: 51.549, longitude: -0.054)
        page.events = [EventListing(
            sourceID: eventID, title: title ?? "Low at \(venue)", start: EventStart(localDate: day.adding(days: offset)),
            venue: VenueListing(sourceID: "\(source)-\(venue)", name: venue, city: "London", country: "UK", coordinate: coordinate),
            lineup: [PerformanceListing(artist: ArtistListing(sourceID: "\(source)-low", name: "Low"), billing: .headline, order: 1)])]
        return page
    }

    /// Songkick knows "Low" first; Ticketmaster lists a show of theirs that Songkick does
    /// not (a second "Low" row, for now); Bandsintown lists the same show, and its
    /// rebuild learns which row Ticketmaster's record is on; then Songkick lists it too:
    /// the two rows are found to be one, and the rebuilt show must name the row that
    /// stays, not the one merged away.
    private var pages: [ListingPage] {
        [
            page("songkick", "s1", venue: "Roundhouse", day: 0),
            page("ticketmaster", "t1", venue: "Hackney Church", day: 2),
            page("bandsintown", "b1", venue: "Hackney Church", day: 2),
            page("songkick", "s2", venue: "Hackney Church", day: 2),
        ]
    }

    @Test func anArtistMergedAwayIsFollowedToTheRowThatKeptItsRecords() throws {
        let (grouped, groupedPath) = try TestSupport.makeCatalog()
        // Outside a group nothing is remembered: the group below learns Ticketmaster's
        // record from the catalog.
        for page in pages.prefix(2) { _ = try grouped.apply(page) }
        try grouped.withPageGroup { group in
            for (index, page) in pages.enumerated().dropFirst(2) {
                _ = try group.apply(page, pageHash: String(index), format: "f")
            }
        }
        let (oneByOne, oneByOnePath) = try TestSupport.makeCatalog()
        for page in pages { _ = try oneByOne.apply(page) }
        #expect(try grouped.stats(today: TestSupport.today).artists == 1)
        let show = try #require(try grouped.event(id: 2))
        #expect(show.lineup.map(\.name) == ["Low"])
        #expect(show.sources.map(\.source).sorted() == ["bandsintown", "songkick", "ticketmaster"])
        // Everything but which pages were recorded as applied (a group records hashes).
        func listings(_ path: String) throws -> [Substring] {
            try TestSupport.dump(path, includingProvenanceTimes: false).split(separator: "\n")
                .filter { !$0.hasPrefix("applied_page") }
        }
        #expect(try listings(groupedPath) == listings(oneByOnePath))
    }

    @Test func aMergeOnAPageThatRolledBackIsForgotten() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let sabotage = try CatalogSabotage(path: path)
        try sabotage.failInsertsOfEventsTitled("doomed")
        var doomedMerge = pages[3]
        doomedMerge.events += page("songkick", "s3", venue: "Roundhouse", day: 5, title: "doomed").events
        let jsonld = page("jsonld", "j1", venue: "Hackney Church", day: 2)
        for page in pages.prefix(2) { _ = try catalog.apply(page) }
        try catalog.withPageGroup { group in
            // After a page fails, each page of the group lands or rolls back on its own.
            #expect(throws: (any Error).self) {
                try group.apply(page("songkick", "s0", venue: "Roundhouse", day: 4, title: "doomed"), pageHash: "x", format: "f")
            }
            _ = try group.apply(pages[2], pageHash: "2", format: "f")
            // The artists' merge goes with the page that made it.
            #expect(throws: (any Error).self) { try group.apply(doomedMerge, pageHash: "doomed", format: "f") }
            _ = try group.apply(jsonld, pageHash: "j", format: "f")
        }
        try sabotage.remove()
        #expect(try catalog.stats(today: TestSupport.today).artists == 2)
        let songkickShow = try #require(try catalog.event(id: 1))
        let show = try #require(try catalog.event(id: 2))
        #expect(show.title == "Low at Hackney Church")
        #expect(show.sources.map(\.source).sorted() == ["bandsintown", "jsonld", "ticketmaster"])
        #expect(show.lineup.count == 1)
        #expect(show.lineup.map(\.artistID) != songkickShow.lineup.map(\.artistID))
    }
}

private final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ start: Date) { value = start }
    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
