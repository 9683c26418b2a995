import GRDB
import Geo
import Listings

/// What is on inside the map area a person is looking at (`encore near --bbox`), and the
/// lookups place resolution asks the catalog.
extension CatalogDatabase {
    /// Events at venues inside `box` (across the antimeridian when it wraps), in the
    /// window, soonest first; one page of them when `limit` is given.
    public func events(in box: BoundingBox, window: DateWindow, limit: Int? = nil, offset: Int = 0) throws -> [EventDetail] {
        try reader.read { db in
            let venues = try Self.venueIDs(db, in: box)
            let ids = try Self.eventIDs(db, atVenues: venues, window: window, limit: limit, offset: offset, listed: listedEvents)
            return try Self.details(db, ids: ids, listed: "1")
        }
    }

    /// How many events ``events(in:window:limit:offset:)`` finds without a limit.
    public func eventCount(in box: BoundingBox, window: DateWindow) throws -> Int {
        try reader.read { db in
            try Self.eventCount(db, atVenues: Self.venueIDs(db, in: box), window: window, listed: listedEvents)
        }
    }

    /// How many venues with coordinates are inside `box`.
    public func venueCount(in box: BoundingBox) throws -> Int {
        try reader.read { db in try Self.venueIDs(db, in: box).count }
    }

    /// Whether any venue within the radius has an upcoming listed event: how place
    /// resolution tells the Valencia the catalog covers from the one it does not. One
    /// event answers it, so a namesake with thousands costs no more than one with a few.
    public func hasUpcomingEvents(near center: Coordinate, radiusKilometres: Double, today: LocalDate) throws -> Bool {
        // "Upcoming" has no end; a century stands for it in the window the index reads.
        let window = DateWindow(from: today, to: today.adding(days: 36_500))!
        return try reader.read { db in
            let venues = try Self.venueIDs(db, near: center, radiusKilometres: radiusKilometres)
            return try !Self.eventIDs(db, atVenues: venues, window: window, limit: 1, offset: 0, listed: listedEvents).isEmpty
        }
    }

    /// A metro area by its catalog id (`encore city "#5"`), or nil.
    public func metroArea(id: Int64) throws -> MetroAreaSummary? {
        try reader.read { db in
            try Row.fetchOne(db, sql: "SELECT id, name, country, region FROM metro_area WHERE id = ?", arguments: [id])
                .map { MetroAreaSummary(id: $0[0], name: $0[1], country: $0[2], region: $0[3]) }
        }
    }

    /// Venues inside the box, by the R*Tree, then by their exact coordinates: the tree
    /// stores 32-bit floats rounded outward, which may reach a hair past an edge.
    static func venueIDs(_ db: Database, in box: BoundingBox) throws -> [Int64] {
        let statement = try db.cachedStatement(sql: """
            SELECT v.id, v.latitude, v.longitude FROM venue_location l JOIN venue v ON v.id = l.id
            WHERE l.max_lat >= ? AND l.min_lat <= ? AND l.max_lng >= ? AND l.min_lng <= ?
            """)
        // A set: a venue on the antimeridian is in both halves of a box that wraps.
        var ids = Set<Int64>()
        for range in box.longitudeRanges {
            let rows = try ColumnCursor(
                statement, arguments: [box.minLatitude, box.maxLatitude, range.lowerBound, range.upperBound]
            ) { row in (row.int64(0), Coordinate(latitude: row.double(1), longitude: row.double(2))) }
            while let (id, point) = try rows.next() {
                if box.contains(point) { ids.insert(id) }
            }
        }
        return Array(ids)
    }
}
