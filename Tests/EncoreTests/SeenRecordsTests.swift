@testable import Catalog
import Foundation
import GRDB
import Listings
import Testing

/// Records remembered across an ingest's groups (``SeenRecords``) must never answer for
/// what the catalog no longer holds.
struct SeenRecordsTests {
    private func page(_ locator: String, artist: ArtistListing, eventID: String) -> ListingPage {
        var page = ListingPage(source: "songkick", locator: locator)
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

private final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ start: Date) { value = start }
    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
