@testable import Catalog
import Foundation
import GRDB
import Geo
import Listings
import Testing

/// The reading thread reads ahead the events a page's listings may join
/// (``CandidateLookahead``); what it read is used only while nothing written since could
/// have changed it.
struct CandidateLookaheadTests {
    private let day = LocalDate(iso: "2027-03-05")!
    private let echo = Coordinate(latitude: 34.0775, longitude: -118.2606)

    private let mbid = "4991e134-af50-46b8-a3e2-e3497ab781b6"

    private func page(
        _ source: String, _ locator: String, eventID: String, venueID: String, at coordinate: Coordinate,
        musicBrainzIDs: [String] = []
    ) -> ListingPage {
        var page = ListingPage(source: source, locator: locator)
        page.events = [EventListing(
            sourceID: eventID, title: "Velvet Harbour", start: EventStart(localDate: day),
            venue: VenueListing(sourceID: venueID, name: "The Echo", city: "Los Angeles", coordinate: coordinate),
            lineup: [PerformanceListing(
                artist: ArtistListing(sourceID: source + "-velvet", name: "Velvet Harbour", musicBrainzIDs: musicBrainzIDs),
                billing: .headline, order: 1)])]
        return page
    }

    /// Another connection (another process) to the catalog, on the same clock.
    private func reopened(_ path: String) throws -> CatalogDatabase {
        try CatalogDatabase(path: path, now: { Date(timeIntervalSince1970: 1_800_000_000) })
    }

    private func apply(_ page: ListingPage, to catalog: CatalogDatabase) throws {
        try catalog.withPageGroup { _ = try $0.apply(page, pageHash: page.locator, format: page.source) }
    }

    /// A Songkick show at the Echo, and a Last.fm page elsewhere applied after it, so that
    /// the catalog reads ahead for Last.fm's next pages.
    /// The Songkick show is written by a process of its own, before any reading ahead:
    /// only what the returned catalog writes can make what it reads ahead stale.
    private func catalogMergingLastFM() throws -> (CatalogDatabase, path: String) {
        let (songkick, path) = try TestSupport.makeCatalog()
        try apply(page("songkick", "sk", eventID: "sk1", venueID: "sk-echo", at: echo), to: songkick)
        let catalog = try reopened(path)
        try apply(
            page("lastfm", "elsewhere", eventID: "lf0", venueID: "lf-far", at: Coordinate(latitude: 51.5, longitude: -0.1)),
            to: catalog)
        return (catalog, path)
    }

    private func lastFMShowsAtTheEcho(_ path: String) throws -> [Int64: Int] {
        try DatabaseQueue(path: path).read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT r.entity_id, count(*) FROM source_record r JOIN event e ON e.id = r.entity_id
                WHERE r.kind = 'event' AND r.source = 'lastfm' AND e.local_date = '2027-03-05' AND e.title = 'Velvet Harbour'
                    AND r.source_id != 'lf0'
                GROUP BY r.entity_id
                """)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0[1] as Int) })
        }
    }

    private func lookahead(_ page: ListingPage) -> CandidateLookahead? {
        (page.preparation as? [PreparedEvent])?.first?.lookahead
    }

    @Test func aShowReadAheadAsFreeIsNotJoinedOnceAnEarlierPageOfTheSameSourceJoinedIt() throws {
        let (catalog, path) = try catalogMergingLastFM()
        // Two Last.fm listings of the same night, read before either is applied: both
        // find the Songkick show free to join.
        var first = page("lastfm", "first", eventID: "lf1", venueID: "lf-echo", at: echo)
        var second = page("lastfm", "second", eventID: "lf2", venueID: "lf-echo", at: echo)
        catalog.prepare(&first)
        catalog.prepare(&second)
        #expect(lookahead(second)?.candidates.count == 1)
        try apply(first, to: catalog)
        try apply(second, to: catalog)
        // Two records of one source are never merged: the second is an event of its own.
        #expect(try lastFMShowsAtTheEcho(path).values.sorted() == [1, 1])
    }

    @Test func aShowReadAheadIsNotJoinedOnceAnotherConnectionJoinedIt() throws {
        let (catalog, path) = try catalogMergingLastFM()
        var second = page("lastfm", "second", eventID: "lf2", venueID: "lf-echo", at: echo)
        catalog.prepare(&second)
        #expect(lookahead(second)?.candidates.count == 1)
        let other = try reopened(path)
        try apply(page("lastfm", "first", eventID: "lf1", venueID: "lf-echo", at: echo), to: other)
        try apply(second, to: catalog)
        #expect(try lastFMShowsAtTheEcho(path).values.sorted() == [1, 1])
    }

    @Test func aBillReadAheadIsNotUsedOnceAnArtistOnItWasRenamed() throws {
        let (songkick, path) = try TestSupport.makeCatalog()
        try apply(page("songkick", "sk", eventID: "sk1", venueID: "sk-echo", at: echo, musicBrainzIDs: [mbid]), to: songkick)
        let catalog = try reopened(path)
        try apply(
            page("lastfm", "elsewhere", eventID: "lf0", venueID: "lf-far", at: Coordinate(latitude: 51.5, longitude: -0.1)),
            to: catalog)
        var listing = page("lastfm", "first", eventID: "lf1", venueID: "lf-echo", at: echo)
        catalog.prepare(&listing)
        #expect(lookahead(listing)?.chosen?.reason.hasSuffix("sharing Velvet Harbour") == true)
        // Ticketmaster, the most trusted source, names the band its own way.
        var ticketmaster = ListingPage(source: "ticketmaster", locator: "artist")
        ticketmaster.artists = [ArtistListing(sourceID: "tm-velvet", name: "The Velvet Harbour", musicBrainzIDs: [mbid])]
        try apply(ticketmaster, to: catalog)
        try apply(listing, to: catalog)
        let reason = try DatabaseQueue(path: path).read { db in
            try String.fetchOne(db, sql: "SELECT merge_reason FROM source_record WHERE source = 'lastfm' AND source_id = 'lf1'")
        }
        #expect(reason?.hasSuffix("sharing The Velvet Harbour") == true, "\(reason ?? "not merged")")
    }

    @Test func aShowReadAheadAndStillFreeIsJoinedAsIfReadWhenApplied() throws {
        var dumps: [String] = []
        for readingAhead in [true, false] {
            let (catalog, path) = try catalogMergingLastFM()
            var listing = page("lastfm", "first", eventID: "lf1", venueID: "lf-echo", at: echo)
            if readingAhead {
                catalog.prepare(&listing)
                #expect(lookahead(listing)?.chosen?.records?.count == 1)
            }
            try apply(listing, to: catalog)
            #expect(try lastFMShowsAtTheEcho(path).values.sorted() == [1])
            dumps.append(try TestSupport.dump(path, includingProvenanceTimes: false))
        }
        #expect(dumps[0] == dumps[1])
    }
}
