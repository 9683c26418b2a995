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
        try reader.read { db in try Self.venueDistances(db, near: center, radiusKilometres: radiusKilometres) }
    }

    /// The same set by scanning every venue: the baseline the R*Tree is checked against.
    public func venueDistancesByScan(near center: Coordinate, radiusKilometres: Double) throws -> [Int64: Double] {
        try reader.read { db in
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
    /// - Parameters:
    ///   - order: `.date` (chronological) or `.distance` (nearest first, then date).
    ///   - limit: at most this many events (a page), after skipping `offset` of them.
    public func events(
        near center: Coordinate, radiusKilometres: Double, window: DateWindow, order: NearbyOrder = .date,
        limit: Int? = nil, offset: Int = 0
    ) throws -> [NearbyEvent] {
        try reader.read { db in
            if order == .date {
                // Chronological pages need only which venues are in range; distances are
                // measured for the page's venues alone.
                let venues = try Self.venueIDs(db, near: center, radiusKilometres: radiusKilometres)
                let ids = try Self.eventIDs(db, atVenues: venues, window: window, limit: limit, offset: offset, listed: listedEvents)
                return try Self.details(db, ids: ids, listed: "1").map { event in
                    NearbyEvent(event: event, distanceKilometres: haversineDistance(from: center, to: event.venue!.coordinate!))
                }
            }
            let distances = try Self.venueDistances(db, near: center, radiusKilometres: radiusKilometres)
            return try Self.nearbyEvents(
                db, distances: distances, window: window, order: order, limit: limit, offset: offset, listed: listedEvents)
        }
    }

    /// How many events ``events(near:radiusKilometres:window:order:limit:offset:)`` finds
    /// without a limit, counted in the index.
    public func eventCount(near center: Coordinate, radiusKilometres: Double, window: DateWindow) throws -> Int {
        try reader.read { db in
            let venues = try Self.venueIDs(db, near: center, radiusKilometres: radiusKilometres)
            return try Self.eventCount(db, atVenues: venues, window: window, listed: listedEvents)
        }
    }

    /// The same answer as ``events(near:radiusKilometres:window:order:limit:offset:)`` with
    /// no index at all: every venue's distance is computed and every event row is read.
    /// The brute-force baseline for benchmarks and tests.
    public func eventsByScan(
        near center: Coordinate, radiusKilometres: Double, window: DateWindow, order: NearbyOrder = .date,
        limit: Int? = nil, offset: Int = 0
    ) throws -> [NearbyEvent] {
        let distances = try venueDistancesByScan(near: center, radiusKilometres: radiusKilometres)
        let includesUnlisted = includesUnlisted
        return try reader.read { db in
            let from = window.from.description
            let to = window.to.description
            var matches: [(key: EventOrderKey, venue: Int64)] = []
            let rows = try Row.fetchCursor(
                db, sql: "SELECT id, venue_id, local_date, local_time, end_date, unlisted_since FROM event NOT INDEXED")
            while let row = try rows.next() {
                guard let venue = row[1] as Int64?, distances[venue] != nil else { continue }
                let localDate: String = row[2]
                let lastDate: String = row[4] ?? localDate
                guard localDate <= to, lastDate >= from, includesUnlisted || row[5] == nil as String? else { continue }
                matches.append((EventOrderKey(localDate: localDate, localTime: row[3], id: row[0]), venue))
            }
            switch order {
            case .date: matches.sort { $0.key < $1.key }
            case .distance: matches.sort { (distances[$0.venue]!, $0.key) < (distances[$1.venue]!, $1.key) }
            }
            let page = Self.page(matches, limit: limit, offset: offset)
            return try Self.details(db, ids: page.map(\.key.id), listed: "1").map {
                NearbyEvent(event: $0, distanceKilometres: distances[$0.venue!.id]!)
            }
        }
    }

    /// Events in any of the metro areas, in the window, chronological.
    public func events(inMetroAreas ids: [Int64], window: DateWindow) throws -> [EventDetail] {
        try events(inMetroAreas: ids, window: window, limit: nil, offset: 0)
    }

    /// One page of ``events(inMetroAreas:window:)``: at most `limit` after skipping `offset`.
    public func events(inMetroAreas ids: [Int64], window: DateWindow, limit: Int?, offset: Int)
        throws -> [EventDetail]
    {
        guard !ids.isEmpty else { return [] }
        return try reader.read { db in
            let venues = try Self.venueIDs(db, inMetroAreas: ids)
            let page = try Self.eventIDs(db, atVenues: venues, window: window, limit: limit, offset: offset, listed: listedEvents)
            return try Self.details(db, ids: page, listed: "1")
        }
    }

    /// How many events ``events(inMetroAreas:window:limit:offset:)`` finds without a limit.
    public func eventCount(inMetroAreas ids: [Int64], window: DateWindow) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try reader.read { db in
            try Self.eventCount(db, atVenues: Self.venueIDs(db, inMetroAreas: ids), window: window, listed: listedEvents)
        }
    }

    /// Metro areas with their upcoming-event counts; nearest first when `center` is
    /// given (within `radiusKilometres`), else busiest first.
    public func metroAreas(near center: Coordinate? = nil, radiusKilometres: Double? = nil, today: LocalDate)
        throws -> [MetroAreaOverview]
    {
        try reader.read { db in
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
        try reader.read { db in
            // Positions only: counting every metro's events (as `metroAreas` does) would
            // read the whole event table to answer one city.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT m.id,
                        COALESCE(m.latitude, (SELECT AVG(latitude) FROM venue v WHERE v.metro_area_id = m.id)),
                        COALESCE(m.longitude, (SELECT AVG(longitude) FROM venue v WHERE v.metro_area_id = m.id))
                    FROM metro_area m
                    """)
            let nearby = rows.compactMap { row -> (id: Int64, distance: Double)? in
                guard let latitude = row[1] as Double?, let longitude = row[2] as Double? else { return nil }
                let distance = haversineDistance(from: center, to: Coordinate(latitude: latitude, longitude: longitude))
                return distance <= radiusKilometres ? (row[0], distance) : nil
            }
            var ids = nearby.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }.map(\.id)
            if let geonameID {
                let linked = try Int64.fetchAll(db, sql: "SELECT id FROM metro_area WHERE geoname_id = ? ORDER BY id", arguments: [geonameID])
                ids = linked + ids.filter { !linked.contains($0) }
            }
            return ids
        }
    }

    /// Venues whose name matches (folded, prefix-aware), nearest to `center` first when
    /// given, else by name.
    public func venues(named name: String, near center: Coordinate? = nil) throws -> [VenueSummary] {
        guard let query = Self.prefixQuery(NameFolding.fold(name)) else { return [] }
        return try reader.read { db in
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
        try reader.read { db in
            guard let listing = try Self.venuePageOutline(db, id: id, today: today, listed: listedEvents) else { return nil }
            return VenuePage(
                venue: listing.venue, metroArea: listing.metroArea, sources: listing.sources,
                events: try Self.details(db, ids: listing.eventIDs, listed: "1"))
        }
    }

    /// The venue page with its upcoming events as ids, chronological.
    public func venuePageOutline(id: Int64, today: LocalDate) throws -> VenuePageOutline? {
        try reader.read { db in try Self.venuePageOutline(db, id: id, today: today, listed: listedEvents) }
    }

    static func venuePageOutline(_ db: Database, id: Int64, today: LocalDate, listed: String) throws -> VenuePageOutline? {
        guard let venue = try venueSummary(db, id: id) else { return nil }
        let metro = try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT m.id, m.name, m.country, m.region FROM venue v JOIN metro_area m ON m.id = v.metro_area_id WHERE v.id = ?"),
            arguments: [id]
        ).map { MetroAreaSummary(id: $0[0], name: $0[1], country: $0[2], region: $0[3]) }
        let sources = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT source, source_id, url FROM source_record WHERE kind = 'venue' AND entity_id = ? ORDER BY source, source_id"),
            arguments: [id]
        ).map { SourceLink(source: $0[0], id: $0[1], url: $0[2]) }
        let events = try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT e.id FROM event e WHERE e.venue_id = ? AND COALESCE(e.end_date, e.local_date) >= ? AND \(listed)
                ORDER BY e.local_date, e.local_time IS NULL, e.local_time, e.id
                """),
            arguments: [id, today.description]
        ) { $0.int64(0) }.all()
        return VenuePageOutline(venue: venue, metroArea: metro, sources: sources, eventIDs: events)
    }

    /// The ids of ``events(inMetroAreas:window:)``, in the same order.
    public func eventIDs(inMetroAreas ids: [Int64], window: DateWindow) throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try reader.read { db in
            try Self.eventIDs(
                db, atVenues: Self.venueIDs(db, inMetroAreas: ids), window: window, limit: nil, offset: 0, listed: listedEvents)
        }
    }

    /// Map pins of events (distinct ids), in the order of `ids`; unknown ids are left out.
    public func eventPins(ids: [Int64]) throws -> [EventPin] {
        guard !ids.isEmpty else { return [] }
        return try reader.read { db in
            // Put in order here: `ORDER BY` the array's key had SQLite sort every joined
            // row in a temporary B-tree. Venues are read once each, after the events: a
            // join read the venue again for every show, which was most of the query.
            // The pins are filled in place: a big city's map has tens of thousands of them,
            // and a second array of them was most of a feed build's peak memory.
            let cursor = try ColumnCursor(
                db.cachedStatement(sql: """
                    SELECT page.key, e.id, e.title, e.status, e.local_date, e.local_time, e.timezone, e.start_utc, e.venue_id
                    FROM json_each(?) page CROSS JOIN event e ON e.id = page.value
                    """),
                arguments: [Self.jsonArray(ids)]
            ) { row -> (position: Int64, venueID: Int64?, pin: EventPin) in
                (row.int64(0), row.optionalInt64(8), EventPin(
                    id: row.int64(1), title: row.text(2), start: EventStart(
                        localDate: row.localDate(4)!, localTime: row.optionalText(5).flatMap { LocalTime(iso: $0) },
                        timeZone: row.optionalText(6), utc: row.optionalText(7).flatMap { UTCInstant(iso: $0) }),
                    status: row.value(3, else: EventStatus.scheduled), venue: nil))
            }
            var pins: [EventPin] = []
            var positions: [Int64] = []
            var venueIDs: [Int64?] = []
            while let row = try cursor.next() {
                pins.append(row.pin)
                positions.append(row.position)
                venueIDs.append(row.venueID)
            }
            let venues = try Self.venueSummaries(db, ids: Set(venueIDs.compactMap { $0 }).sorted())
            for index in pins.indices { pins[index].venue = venueIDs[index].flatMap { venues[$0] } }
            // The array is the outer loop, so the rows almost always come in order already.
            guard zip(positions, positions.dropFirst()).allSatisfy({ $0 < $1 }) else {
                return positions.indices.sorted { positions[$0] < positions[$1] }.map { pins[$0] }
            }
            return pins
        }
    }

    /// Venues by id, for ids in ascending order (neighbouring seeks, neighbouring pages).
    static func venueSummaries(_ db: Database, ids: [Int64]) throws -> [Int64: VenueSummary] {
        guard !ids.isEmpty else { return [:] }
        var venues: [Int64: VenueSummary] = [:]
        let rows = try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT v.id, v.name, v.street, v.postal_code, v.city, v.region, v.country, v.latitude, v.longitude,
                    v.coordinates_approximate, v.timezone
                FROM json_each(?) ids CROSS JOIN venue v ON v.id = ids.value
                """),
            arguments: [jsonArray(ids)]
        ) { row in
            VenueSummary(
                id: row.int64(0), name: row.text(1), street: row.optionalText(2), postalCode: row.optionalText(3),
                city: row.optionalText(4), region: row.optionalText(5), country: row.optionalText(6),
                latitude: row.optionalDouble(7), longitude: row.optionalDouble(8),
                coordinatesApproximate: row.bool(9), timeZone: row.optionalText(10))
        }
        while let venue = try rows.next() { venues[venue.id] = venue }
        return venues
    }

    // MARK: - Helpers

    /// Overlap of an event's days with the window, in the venue's local dates.
    ///
    /// The lower bound on `local_date` is redundant (the last day decides) but lets the
    /// index seek: an event cannot start more than the longest span in the catalog
    /// before it ends (kept by triggers in `event_span_bound`). Arguments: ``windowArguments``.
    static let windowCondition =
        "e.local_date >= ? AND e.local_date <= ? AND COALESCE(e.end_date, e.local_date) >= ?"

    /// Events at a JSON array of distinct venues, in the window; arguments: the venue ids
    /// (``jsonArray(_:)``), then ``windowArguments(_:_:)``.
    ///
    /// A join from the array, not `venue_id IN (…)`: for an `IN` list SQLite first builds
    /// a temporary index of the ids, time a fan's radius query would wait for.
    /// `CROSS JOIN` keeps the array as the outer loop (one index seek per venue).
    static func eventsAtVenuesInWindow(listed: String) -> String {
        """
        json_each(?) venues CROSS JOIN event e ON e.venue_id = venues.value
        WHERE \(windowCondition) AND \(listed)
        """
    }

    static func windowArguments(_ db: Database, _ window: DateWindow) throws -> StatementArguments {
        let span = try Int.fetchOne(db.cachedStatement(sql: "SELECT max_days FROM event_span_bound")) ?? 0
        return [window.from.adding(days: -span).description, window.to.description, window.from.description]
    }

    /// `[1,2,3]`, for `json_each(?)`: one cached statement whatever the count. Written
    /// digit by digit, as a radius query passes thousands of venue ids.
    static func jsonArray(_ ids: some Sequence<Int64>) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(ids.underestimatedCount * 8 + 2)
        for id in ids {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            bytes.appendDecimal(id)
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The R*Tree's candidates in the bounding box of the circle: id and the box the
    /// venue's point was stored as (32-bit floats rounded outward, so the box is widened
    /// by a hair and holds the exact point).
    private static func boxCandidates(
        _ db: Database, near center: Coordinate, radiusKilometres: Double, _ body: (Int64, Coordinate) -> Void
    ) throws {
        let box = BoundingBox(around: center, radiusKilometres: radiusKilometres)
        let statement = try db.cachedStatement(sql: """
            SELECT id, (min_lat + max_lat) / 2, (min_lng + max_lng) / 2 FROM venue_location
            WHERE min_lat >= ? AND max_lat <= ? AND min_lng >= ? AND max_lng <= ?
            """)
        for range in box.longitudeRanges {
            let slack = 1e-4
            let rows = try ColumnCursor(
                statement,
                arguments: [box.minLatitude - slack, box.maxLatitude + slack, range.lowerBound - slack, range.upperBound + slack]
            ) { row in (row.int64(0), Coordinate(latitude: row.double(1), longitude: row.double(2))) }
            while let (id, point) = try rows.next() { body(id, point) }
        }
    }

    /// How far the middle of a stored box can be from the exact point, with room to spare:
    /// a 32-bit float is within 4e-6° of the value, under half a metre on the ground.
    private static let boxTolerance = 0.002

    /// Venues within the radius, via the R*Tree alone. A venue whose box is within
    /// ``boxTolerance`` of the edge is measured from its exact coordinate, so the set is
    /// exactly the one exact distances give.
    static func venueIDs(_ db: Database, near center: Coordinate, radiusKilometres: Double) throws -> [Int64] {
        var inside: [Int64] = []
        var edge: [Int64] = []
        try boxCandidates(db, near: center, radiusKilometres: radiusKilometres) { id, point in
            let distance = haversineDistance(from: center, to: point)
            if distance <= radiusKilometres - boxTolerance {
                inside.append(id)
            } else if distance <= radiusKilometres + boxTolerance {
                edge.append(id)
            }
        }
        if !edge.isEmpty {
            inside += try exactDistances(db, venues: edge, from: center).filter { $0.value <= radiusKilometres }.keys
        }
        return inside
    }

    /// Venues within the radius with their exact distances.
    static func venueDistances(_ db: Database, near center: Coordinate, radiusKilometres: Double) throws -> [Int64: Double] {
        var candidates: [Int64] = []
        try boxCandidates(db, near: center, radiusKilometres: radiusKilometres) { id, point in
            if haversineDistance(from: center, to: point) <= radiusKilometres + boxTolerance { candidates.append(id) }
        }
        return try exactDistances(db, venues: candidates, from: center).filter { $0.value <= radiusKilometres }
    }

    private static func exactDistances(_ db: Database, venues: [Int64], from center: Coordinate) throws -> [Int64: Double] {
        var result: [Int64: Double] = [:]
        let rows = try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT id, latitude, longitude FROM venue
                WHERE id IN (SELECT value FROM json_each(?)) AND latitude IS NOT NULL
                """),
            arguments: [jsonArray(venues)]
        ) { row in
            (row.int64(0), haversineDistance(from: center, to: Coordinate(latitude: row.double(1), longitude: row.double(2))))
        }
        while let (id, distance) = try rows.next() { result[id] = distance }
        return result
    }

    static func venueIDs(_ db: Database, inMetroAreas ids: [Int64]) throws -> [Int64] {
        try Int64.fetchAll(
            db, sql: "SELECT id FROM venue WHERE metro_area_id IN (SELECT value FROM json_each(?))",
            arguments: [jsonArray(ids)])
    }

    /// Ids of the events at `venues` in the window, chronological, one page of them.
    /// Answered from the covering index `event_venue_window` alone.
    ///
    /// Pages are soonest first, so when the window's first days already hold `offset +
    /// limit` events, those are the page: every event left out starts later. A dense area
    /// (thousands of concerts a month) then reads a few days of listings instead of the
    /// whole window; a sparse one widens the days by the density it saw, then takes all.
    static func eventIDs(
        _ db: Database, atVenues venues: some Collection<Int64>, window: DateWindow, limit: Int?, offset: Int,
        listed: String
    ) throws -> [Int64] {
        guard !venues.isEmpty, limit != 0 else { return [] }
        // In id order, neighbouring seeks land on neighbouring index pages.
        let venueList = jsonArray(venues.sorted())
        guard let limit else { return try eventIDs(db, venueList, window: window, limit: -1, offset: offset, listed: listed) }
        let needed = offset + limit
        var days = 3
        for _ in 0..<2 {
            let end = window.from.adding(days: days - 1)
            guard end < window.to, let firstDays = DateWindow(from: window.from, to: end) else { break }
            let found = try eventIDs(db, venueList, window: firstDays, limit: needed, offset: 0, listed: listed)
            if found.count >= needed { return Array(found.dropFirst(offset)) }
            guard !found.isEmpty else { break }
            days = days * 2 * needed / found.count
        }
        return try eventIDs(db, venueList, window: window, limit: limit, offset: offset, listed: listed)
    }

    private static func eventIDs(
        _ db: Database, _ venueList: String, window: DateWindow, limit: Int, offset: Int, listed: String
    ) throws -> [Int64] {
        try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT e.id FROM \(eventsAtVenuesInWindow(listed: listed))
                ORDER BY e.local_date, e.local_time IS NULL, e.local_time, e.id
                LIMIT ? OFFSET ?
                """),
            arguments: [venueList] + windowArguments(db, window) + [limit, offset]
        ) { $0.int64(0) }.all()
    }

    static func eventCount(
        _ db: Database, atVenues venues: some Collection<Int64>, window: DateWindow, listed: String
    ) throws -> Int {
        guard !venues.isEmpty else { return 0 }
        return try Int.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) FROM \(eventsAtVenuesInWindow(listed: listed))
                """,
            arguments: [jsonArray(venues)] + windowArguments(db, window)) ?? 0
    }

    /// Full details of the events, in the order of `ids`.
    static func details(_ db: Database, ids: [Int64], listed: String) throws -> [EventDetail] {
        guard !ids.isEmpty else { return [] }
        let loaded = try EventDetailLoader.load(db, ids: ids, where: listed)
        if loaded.map(\.id) == ids { return loaded }
        let position = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        return loaded.sorted { position[$0.id, default: .max] < position[$1.id, default: .max] }
    }

    static func page<Element>(_ elements: [Element], limit: Int?, offset: Int) -> ArraySlice<Element> {
        let start = min(max(offset, 0), elements.count)
        let end = limit.map { min(elements.count, start + max($0, 0)) } ?? elements.count
        return elements[start..<end]
    }

    static func nearbyEvents(
        _ db: Database, distances: [Int64: Double], window: DateWindow, order: NearbyOrder, limit: Int?,
        offset: Int = 0, listed: String
    ) throws -> [NearbyEvent] {
        guard !distances.isEmpty else { return [] }
        let ids: [Int64]
        switch order {
        case .date:
            ids = try eventIDs(db, atVenues: distances.keys, window: window, limit: limit, offset: offset, listed: listed)
        case .distance:
            // Every match is needed to find the nearest; the index gives them chronologically,
            // and the stable sort keeps that order among equally distant venues.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT e.id, e.venue_id FROM \(eventsAtVenuesInWindow(listed: listed))
                    ORDER BY e.local_date, e.local_time IS NULL, e.local_time, e.id
                    """,
                arguments: [jsonArray(distances.keys)] + windowArguments(db, window))
            let matches = rows.enumerated().map { (position: $0, id: $1[0] as Int64, distance: distances[$1[1]]!) }
                .sorted { ($0.distance, $0.position) < ($1.distance, $1.position) }
            ids = page(matches, limit: limit, offset: offset).map(\.id)
        }
        return try details(db, ids: ids, listed: "1").map {
            NearbyEvent(event: $0, distanceKilometres: distances[$0.venue!.id]!)
        }
    }

    static func venueSummary(_ db: Database, id: Int64) throws -> VenueSummary? {
        try venueSummaries(db, ids: [id])[id]
    }
}

extension VenueSummary {
    /// The venue's coordinate, when it has one.
    public var coordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}

/// Chronological order of events: local date, then local time (unknown last), then id.
struct EventOrderKey: Comparable {
    let localDate: String
    let localTime: String?
    let id: Int64

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.localDate, lhs.localTime == nil ? 1 : 0, lhs.localTime ?? "", lhs.id)
            < (rhs.localDate, rhs.localTime == nil ? 1 : 0, rhs.localTime ?? "", rhs.id)
    }
}
