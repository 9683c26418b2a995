import Foundation
import GRDB
import Geo
import Listings

/// Where things are: radius queries over the venue R*Tree, metro areas, venue pages.
///
/// A radius query is three steps: the R*Tree returns venues inside the bounding box
/// (split in two across the antimeridian), an exact haversine distance keeps those
/// within the radius, then the events at those venues are filtered by the venue-local
/// date window. Venues without coordinates are not found by radius queries.
extension CatalogDatabase {
    /// Venues within `radiusKilometres` of `center`, with their distances, via the R*Tree.
    public func venueDistances(near center: Coordinate, radiusKilometres: Double) throws -> [Int64: Double] {
        try writer.read { db in try Self.venueDistances(db, near: center, radiusKilometres: radiusKilometres) }
    }

    /// The same set by scanning every venue: the baseline the R*Tree is checked against.
    public func venueDistancesByScan(near center: Coordinate, radiusKilometres: Double) throws -> [Int64: Double] {
        try writer.read { db in
            var result: [Int64: Double] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, latitude, longitude FROM venue WHERE latitude IS NOT NULL")
            while let row = try rows.next() {
                let distance = haversineDistance(from: center, to: Coordinate(latitude: row[1], longitude: row[2]))
                if distance <= radiusKilometres { result[row[0]] = distance }
            }
            return result
        }
    }

    /// Events at venues within the radius whose dates meet the window.
    /// - Parameter order: `.date` (chronological) or `.distance` (nearest first, then date).
    public func events(
        near center: Coordinate, radiusKilometres: Double, window: DateWindow, order: NearbyOrder = .date,
        limit: Int? = nil
    ) throws -> [NearbyEvent] {
        try writer.read { db in
            let distances = try Self.venueDistances(db, near: center, radiusKilometres: radiusKilometres)
            return try Self.nearbyEvents(db, distances: distances, window: window, order: order, limit: limit, listed: listedEvents)
        }
    }

    /// The same as ``events(near:radiusKilometres:window:order:limit:)`` without the
    /// R*Tree: the brute-force baseline for benchmarks and tests.
    public func eventsByScan(
        near center: Coordinate, radiusKilometres: Double, window: DateWindow, order: NearbyOrder = .date
    ) throws -> [NearbyEvent] {
        let distances = try venueDistancesByScan(near: center, radiusKilometres: radiusKilometres)
        return try writer.read { db in
            try Self.nearbyEvents(db, distances: distances, window: window, order: order, limit: nil, listed: listedEvents)
        }
    }

    /// Events in any of the metro areas, in the window, chronological.
    public func events(inMetroAreas ids: [Int64], window: DateWindow) throws -> [EventDetail] {
        guard !ids.isEmpty else { return [] }
        return try writer.read { db in
            try EventDetailLoader.load(
                db,
                where: """
                    e.venue_id IN (SELECT id FROM venue WHERE metro_area_id IN (SELECT value FROM json_each(?)))
                    AND \(Self.windowCondition) AND \(listedEvents)
                    """,
                arguments: [Self.jsonArray(ids), window.to.description, window.from.description])
        }
    }

    /// Metro areas with their upcoming-event counts; nearest first when `center` is
    /// given (within `radiusKilometres`), else busiest first.
    public func metroAreas(near center: Coordinate? = nil, radiusKilometres: Double? = nil, today: LocalDate)
        throws -> [MetroAreaOverview]
    {
        try writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT m.id, m.name, m.country, m.region,
                        COALESCE(m.latitude, (SELECT AVG(latitude) FROM venue v WHERE v.metro_area_id = m.id)),
                        COALESCE(m.longitude, (SELECT AVG(longitude) FROM venue v WHERE v.metro_area_id = m.id)),
                        (SELECT COUNT(*) FROM event e JOIN venue v ON v.id = e.venue_id
                         WHERE v.metro_area_id = m.id AND COALESCE(e.end_date, e.local_date) >= ? AND e.unlisted_since IS NULL),
                        (SELECT COUNT(*) FROM venue v WHERE v.metro_area_id = m.id)
                    FROM metro_area m
                    """,
                arguments: [today.description])
            var overviews = rows.map { row -> MetroAreaOverview in
                let latitude: Double? = row[4]
                let longitude: Double? = row[5]
                var distance: Double?
                if let center, let latitude, let longitude {
                    distance = haversineDistance(from: center, to: Coordinate(latitude: latitude, longitude: longitude))
                }
                return MetroAreaOverview(
                    metroArea: MetroAreaSummary(id: row[0], name: row[1], country: row[2], region: row[3]),
                    latitude: latitude, longitude: longitude, upcomingEvents: row[6], venues: row[7],
                    distanceKilometres: distance)
            }
            if center != nil {
                overviews = overviews.filter { overview in
                    guard let distance = overview.distanceKilometres else { return false }
                    return radiusKilometres.map { distance <= $0 } ?? true
                }
                overviews.sort { ($0.distanceKilometres!, $0.metroArea.id) < ($1.distanceKilometres!, $1.metroArea.id) }
            } else {
                overviews.sort { ($1.upcomingEvents, $0.metroArea.name, $0.metroArea.id) < ($0.upcomingEvents, $1.metroArea.name, $1.metroArea.id) }
            }
            return overviews
        }
    }

    /// Metro areas linked to a gazetteer city, or whose centre is within
    /// `radiusKilometres` of `center`: "the metro area of Madrid".
    public func metroAreaIDs(geonameID: Int?, center: Coordinate, radiusKilometres: Double) throws -> [Int64] {
        let nearby = try metroAreas(near: center, radiusKilometres: radiusKilometres, today: LocalDate(daysSinceEpoch: 0))
        var ids = nearby.map(\.metroArea.id)
        if let geonameID {
            let linked = try writer.read { db in
                try Int64.fetchAll(db, sql: "SELECT id FROM metro_area WHERE geoname_id = ?", arguments: [geonameID])
            }
            ids = linked + ids.filter { !linked.contains($0) }
        }
        return ids
    }

    /// Venues whose name matches (folded, prefix-aware), nearest to `center` first when
    /// given, else by name.
    public func venues(named name: String, near center: Coordinate? = nil) throws -> [VenueSummary] {
        guard let query = Self.prefixQuery(NameFolding.fold(name)) else { return [] }
        return try writer.read { db in
            let ids = try Int64.fetchAll(
                db,
                sql: "SELECT rowid / 4 FROM search_index WHERE search_index MATCH ? AND rowid % 4 = 2 ORDER BY rank LIMIT 200",
                arguments: [query])
            var venues = try ids.compactMap { try Self.venueSummary(db, id: $0) }
            let exact = NameFolding.fold(name)
            venues.sort { a, b in
                let aExact = NameFolding.fold(a.name) == exact
                let bExact = NameFolding.fold(b.name) == exact
                if aExact != bExact { return aExact }
                if let center {
                    let da = a.coordinate.map { haversineDistance(from: center, to: $0) } ?? .infinity
                    let db = b.coordinate.map { haversineDistance(from: center, to: $0) } ?? .infinity
                    if da != db { return da < db }
                }
                return (a.name, a.id) < (b.name, b.id)
            }
            return venues
        }
    }

    /// The venue page: the venue, its metro area, sources and upcoming events.
    public func venuePage(id: Int64, today: LocalDate) throws -> VenuePage? {
        try writer.read { db in
            guard let venue = try Self.venueSummary(db, id: id) else { return nil }
            let metro = try Row.fetchOne(
                db,
                sql: "SELECT m.id, m.name, m.country, m.region FROM venue v JOIN metro_area m ON m.id = v.metro_area_id WHERE v.id = ?",
                arguments: [id]
            ).map { MetroAreaSummary(id: $0[0], name: $0[1], country: $0[2], region: $0[3]) }
            let sources = try Row.fetchAll(
                db,
                sql: "SELECT source, source_id, url FROM source_record WHERE kind = 'venue' AND entity_id = ? ORDER BY source, source_id",
                arguments: [id]
            ).map { SourceLink(source: $0[0], id: $0[1], url: $0[2]) }
            let events = try EventDetailLoader.load(
                db, where: "e.venue_id = ? AND COALESCE(e.end_date, e.local_date) >= ? AND \(listedEvents)",
                arguments: [id, today.description])
            return VenuePage(venue: venue, metroArea: metro, sources: sources, events: events)
        }
    }

    // MARK: - Helpers

    /// Overlap of an event's days with the window; arguments: window end, window start.
    static let windowCondition = "e.local_date <= ? AND COALESCE(e.end_date, e.local_date) >= ?"

    static func jsonArray(_ ids: some Sequence<Int64>) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    static func venueDistances(_ db: Database, near center: Coordinate, radiusKilometres: Double) throws -> [Int64: Double] {
        let box = BoundingBox(around: center, radiusKilometres: radiusKilometres)
        // The R*Tree holds 32-bit floats rounded outward, so the box is widened by a hair
        // and distances are measured from the venue's stored coordinate.
        let statement = try db.cachedStatement(sql: """
            SELECT v.id, v.latitude, v.longitude FROM venue_location r JOIN venue v ON v.id = r.id
            WHERE r.min_lat >= ? AND r.max_lat <= ? AND r.min_lng >= ? AND r.max_lng <= ?
            """)
        var result: [Int64: Double] = [:]
        for range in box.longitudeRanges {
            let slack = 1e-4
            let rows = try Row.fetchCursor(
                statement,
                arguments: [box.minLatitude - slack, box.maxLatitude + slack, range.lowerBound - slack, range.upperBound + slack])
            while let row = try rows.next() {
                let distance = haversineDistance(from: center, to: Coordinate(latitude: row[1], longitude: row[2]))
                if distance <= radiusKilometres { result[row[0]] = distance }
            }
        }
        return result
    }

    static func nearbyEvents(
        _ db: Database, distances: [Int64: Double], window: DateWindow, order: NearbyOrder, limit: Int?,
        listed: String
    ) throws -> [NearbyEvent] {
        guard !distances.isEmpty else { return [] }
        let events = try EventDetailLoader.load(
            db,
            where: "e.venue_id IN (SELECT value FROM json_each(?)) AND \(windowCondition) AND \(listed)",
            arguments: [jsonArray(distances.keys.sorted()), window.to.description, window.from.description],
            limit: order == .date ? limit : nil)
        var nearby = events.map { NearbyEvent(event: $0, distanceKilometres: distances[$0.venue!.id]!) }
        if order == .distance {
            // Stable: the chronological order breaks ties.
            let position = Dictionary(uniqueKeysWithValues: nearby.enumerated().map { ($1.event.id, $0) })
            nearby.sort { ($0.distanceKilometres, position[$0.event.id]!) < ($1.distanceKilometres, position[$1.event.id]!) }
            if let limit { nearby = Array(nearby.prefix(limit)) }
        }
        return nearby
    }

    static func venueSummary(_ db: Database, id: Int64) throws -> VenueSummary? {
        guard let row = try Row.fetchOne(
            db,
            sql: """
                SELECT id, name, street, postal_code, city, region, country, latitude, longitude,
                    coordinates_approximate, timezone
                FROM venue WHERE id = ?
                """,
            arguments: [id])
        else { return nil }
        return VenueSummary(
            id: row[0], name: row[1], street: row[2], postalCode: row[3], city: row[4], region: row[5],
            country: row[6], latitude: row[7], longitude: row[8], coordinatesApproximate: row[9], timeZone: row[10])
    }
}

extension VenueSummary {
    /// The venue's coordinate, when it has one.
    public var coordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
