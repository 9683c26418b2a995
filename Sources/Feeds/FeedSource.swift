import Geo
import Listings

/// What the static feeds read: a narrow view of the catalog, so feed building can be
/// tested without SQLite and the catalog knows nothing of feeds. `CatalogDatabase`
/// conforms (in the CLI module, which sees both).
///
/// Lists (band, venue and metro pages) are read as ids: the build renders each event
/// once, with its concert page, and splices it into every list that shows it.
///
/// Sendable: a build reads the catalog on another core while it loads its last state.
public protocol FeedSource: Sendable {
    func stats(today: LocalDate) throws -> CatalogStats
    func metroAreas(near center: Coordinate?, radiusKilometres: Double?, today: LocalDate) throws -> [MetroAreaOverview]
    /// Artists with at least one event on or after `since`, by id.
    func artistNames(withEventsSince since: LocalDate) throws -> [(id: Int64, name: String)]
    /// Band pages with their events as ids (upcoming, and past ones on or after
    /// `pastSince`), in ascending artist id order; unknown ids left out.
    func artistPageOutlines(ids: [Int64], today: LocalDate, pastSince: LocalDate?) throws -> [ArtistPageOutline]
    /// Venues with at least one listed event on or after `since` (those with pages), by id.
    func venueNames(withEventsSince since: LocalDate) throws -> [(id: Int64, name: String, city: String?)]
    /// Venues with at least one event on or after `since`, by id.
    func venueIDs(withEventsSince since: LocalDate) throws -> [Int64]
    /// The venue page with its upcoming events as ids.
    func venuePageOutline(id: Int64, today: LocalDate) throws -> VenuePageOutline?
    /// Ids of the events of metro areas whose dates meet the window, chronological.
    func eventIDs(inMetroAreas ids: [Int64], window: DateWindow) throws -> [Int64]
    /// Map pins of events, in the order of `ids`.
    func eventPins(ids: [Int64]) throws -> [EventPin]
    /// Event ids on or after `since`, by id.
    func eventIDs(since: LocalDate) throws -> [Int64]
    /// Full details of many events, in id order.
    func events(ids: [Int64]) throws -> [EventDetail]
    func fans() throws -> [String]
    /// The catalog's revision: rows written later carry a higher one.
    func catalogRevision() throws -> Int64
    /// Rows written after `revision`, and what shows them.
    func changes(since revision: Int64) throws -> CatalogChanges
    /// The venue, metro area and acts of each event.
    func eventOwners(ids: [Int64]) throws -> [EventOwners]
    func plans(user: String, past: Bool, today: LocalDate) throws -> [PlanEntry]
    func feed(user: String, window: DateWindow, markSeen: Bool) throws -> [FeedEntry]
    /// Band pages' addresses (slugs) of the artists named. A source that keeps addresses
    /// (the catalog) never gives one to another artist once published.
    func artistAddresses(for names: [(id: Int64, name: String)]) throws -> [Int64: String]
    /// Addresses of bands that merged into others, which keep a page saying where they went.
    func movedArtistAddresses() throws -> [MovedArtistAddress]
    /// Shows recommended to the fan (`encore discover`), best first.
    func discover(
        user: String, center: Coordinate?, radiusKilometres: Double?, window: DateWindow, today: LocalDate, limit: Int?
    ) throws -> [Recommendation]
    /// Tickets going on sale for the fan (`encore onsale`), soonest first.
    func onSales(user: String, now: UTCInstant, days: Int, today: LocalDate) throws -> [OnSaleEntry]
}

extension FeedSource {
    /// Addresses made from the names alone, for sources that keep none: unique within one
    /// build (lower ids keep the plain slug), but a newcomer can take one.
    public func artistAddresses(for names: [(id: Int64, name: String)]) throws -> [Int64: String] {
        Slug.unique(names.map { (key: $0.id, name: $0.name) })
    }

    /// Sources that keep no addresses move none.
    public func movedArtistAddresses() throws -> [MovedArtistAddress] { [] }

    /// Sources without fans' listening recommend nothing.
    public func discover(
        user: String, center: Coordinate?, radiusKilometres: Double?, window: DateWindow, today: LocalDate, limit: Int?
    ) throws -> [Recommendation] { [] }

    public func onSales(user: String, now: UTCInstant, days: Int, today: LocalDate) throws -> [OnSaleEntry] { [] }
}
