import Geo
import Listings

/// What the static feeds read: a narrow view of the catalog, so feed building can be
/// tested without SQLite and the catalog knows nothing of feeds. `CatalogDatabase`
/// conforms (in the CLI module, which sees both).
public protocol FeedSource {
    func stats(today: LocalDate) throws -> CatalogStats
    func metroAreas(near center: Coordinate?, radiusKilometres: Double?, today: LocalDate) throws -> [MetroAreaOverview]
    func events(inMetroAreas ids: [Int64], window: DateWindow) throws -> [EventDetail]
    /// Artists with at least one event on or after `since`, by id.
    func artistNames(withEventsSince since: LocalDate) throws -> [(id: Int64, name: String)]
    func artistPage(artistID: Int64, past: Bool, today: LocalDate) throws -> ArtistPage?
    /// ``artistPage(artistID:past:today:)`` with its events as ids, past ones on or after `pastSince`.
    func artistPageOutline(artistID: Int64, today: LocalDate, pastSince: LocalDate?) throws -> ArtistPageOutline?
    /// ``artistPageOutline(artistID:today:pastSince:)`` of many artists, in ascending id order.
    func artistPageOutlines(ids: [Int64], today: LocalDate, pastSince: LocalDate?) throws -> [ArtistPageOutline]
    /// Venues with at least one event on or after `since`, by id.
    func venueIDs(withEventsSince since: LocalDate) throws -> [Int64]
    func venuePage(id: Int64, today: LocalDate) throws -> VenuePage?
    /// ``venuePage(id:today:)`` with its events as ids.
    func venuePageOutline(id: Int64, today: LocalDate) throws -> VenuePageOutline?
    /// The ids of ``events(inMetroAreas:window:)``, in the same order.
    func eventIDs(inMetroAreas ids: [Int64], window: DateWindow) throws -> [Int64]
    /// Map pins of events, in the order of `ids`.
    func eventPins(ids: [Int64]) throws -> [EventPin]
    /// Event ids on or after `since`, by id.
    func eventIDs(since: LocalDate) throws -> [Int64]
    func event(id: Int64) throws -> EventDetail?
    /// Full details of many events, in id order.
    func events(ids: [Int64]) throws -> [EventDetail]
    func fans() throws -> [String]
    func plans(user: String, past: Bool, today: LocalDate) throws -> [PlanEntry]
    func feed(user: String, window: DateWindow, markSeen: Bool) throws -> [FeedEntry]
}
