import GRDB
import Geo
import Listings

extension PageApplier {
    /// Finds or creates the venue behind a record (see the merge rules on `PageApplier`).
    mutating func upsert(_ venue: VenueListing, hash: String? = nil) throws -> Int64 {
        if let id = resolved[.venue]?[venue.sourceID] { return id }
        let hash = hash ?? venue.contentHash
        let id: Int64
        if let existing = try existingRecord(.venue, venue.sourceID, contentHash: hash) {
            id = existing.entityID
            if existing.contentHash == hash {
                // Its metro area was found when this content was first applied: a source
                // that names none (Bandsintown) costs a search of metro areas otherwise.
                touchRecord(existing)
            } else if let (moved, written) = try update(
                existing, to: VenueSnapshot(venue, metroAreaID: try metroArea(for: venue)), url: venue.url, hash: hash)
            {
                try rebuildVenue(id, sourcesChanged: moved, knowing: (venue.sourceID, written))
            }
        } else {
            let snapshot = VenueSnapshot(venue, metroAreaID: try metroArea(for: venue))
            let payload = snapshot.payload
            if let (candidate, reason) = try venueCandidate(for: venue) {
                id = candidate
                try insertRecord(
                    .venue, venue.sourceID, entityID: id, url: venue.url, hash: hash, payload: payload, mergeReason: reason)
                try rebuildVenue(id, sourcesChanged: true)
            } else {
                try db.cachedStatement(sql: Self.insertVenueSQL).execute { binder in
                    for value in Self.venueValues(snapshot) { binder.bind(value) }
                    binder.bind(revision)
                }
                id = db.lastInsertedRowID
                try locate(venue: id, latitude: snapshot.latitude, longitude: snapshot.longitude, isNew: true)
                try SearchIndex.insert(db, .venue, id: id, name: snapshot.name)
                if snapshot.street != nil || snapshot.postalCode != nil {
                    try SearchIndex.setAddress(
                        db, venue: id, street: snapshot.street, postalCode: snapshot.postalCode, isNew: true)
                }
                try insertRecord(.venue, venue.sourceID, entityID: id, url: venue.url, hash: hash, payload: payload)
            }
        }
        resolved[.venue, default: [:]][venue.sourceID] = id
        return id
    }

    private static let venueColumns = RebuiltColumns("venue", [
        "name", "match_key", "street", "postal_code", "city", "region", "country", "latitude", "longitude",
        "coordinates_approximate", "timezone", "website", "capacity", "url", "metro_area_id", "geoname_id",
    ])

    private static let insertVenueSQL = """
        INSERT INTO venue (\(venueColumns.names.joined(separator: ", ")), revision)
        VALUES (\(Array(repeating: "?", count: venueColumns.names.count + 1).joined(separator: ", ")))
        """

    /// A venue row's values, in the order of ``venueColumns``.
    private static func venueValues(_ snapshot: VenueSnapshot) -> [DatabaseValue] {
        [
            snapshot.name.databaseValue, MatchKey.of(snapshot.name).databaseValue, snapshot.street.databaseValue,
            snapshot.postalCode.databaseValue, snapshot.city.databaseValue, snapshot.region.databaseValue,
            snapshot.country.databaseValue, snapshot.latitude.databaseValue, snapshot.longitude.databaseValue,
            snapshot.approximate.databaseValue, snapshot.timeZone.databaseValue, snapshot.website.databaseValue,
            snapshot.capacity.databaseValue, snapshot.url.databaseValue, snapshot.metroAreaID.databaseValue,
            snapshot.geonameID.databaseValue,
        ]
    }

    /// Another source's venue that this record names: agreeing names within 250 m, or,
    /// without exact coordinates, the same name key in the same city. A venue that already
    /// has a record of this source takes another only under the same name key (one source
    /// spelling one venue two ways: "Club  Verrière", "The Fillmore" and "Fillmore"), so
    /// whichever spelling arrives first, all join one venue.
    func venueCandidate(for venue: VenueListing) throws -> (id: Int64, reason: String)? {
        // With no other source in the catalog, only this source's other spellings (the
        // same name key, near) are candidates; so too for a position that is only its
        // city's, which one source gives all its spellings of a venue alike.
        if let coordinate = venue.coordinate {
            let box = BoundingBox(around: coordinate, radiusKilometres: Self.venueMergeRadiusKilometres)
            var best: (distance: Double, id: Int64, name: String)?
            for rows in try venues(in: box) {
                for (id, name, position, _, _) in rows {
                    let distance = haversineDistance(from: coordinate, to: position)
                    let sameKey = MatchKey.of(name) == MatchKey.of(venue.name)
                    let sameCore = sameKey || Self.sameCore(name, venue)
                    guard distance <= Self.venueMergeRadiusKilometres, sameKey || !venue.coordinateIsApproximate,
                        sameCore || MatchKey.venueNamesAgree(name, venue.name),
                        try sameCore || !hasRecordFromThisSource(.venue, entityID: id)
                    else { continue }
                    if (distance, id) < (best?.distance ?? .infinity, best?.id ?? 0) { best = (distance, id, name) }
                }
            }
            if let best {
                let metres = Int((best.distance * 1000).rounded())
                return (best.id, "names agree (\"\(best.name)\" / \"\(venue.name)\") \(metres) m apart")
            }
        }
        if let sameCity = try sameCityCandidate(for: venue) { return sameCity }
        // Without exact coordinates on one side, the same name in the same city.
        guard !othersAbsent, let city = venue.city else { return nil }
        let exact = venue.coordinate != nil && !venue.coordinateIsApproximate
        let rows = try Row.fetchAll(
            try db.cachedStatement(sql: """
                SELECT id, name, city, latitude IS NULL OR coordinates_approximate FROM venue WHERE match_key = ? ORDER BY id
                """),
            arguments: [MatchKey.of(venue.name)])
        for row in rows {
            let id: Int64 = row[0]
            let otherCity: String? = row[2]
            let otherIsApproximate: Bool = row[3]
            // Same key on both sides: even a venue this source already names may take it.
            guard let otherCity, NameFolding.fold(otherCity) == NameFolding.fold(city), !exact || otherIsApproximate
            else { continue }
            return (id, "the same name (\"\(row[1] as String)\") in the same city (\(city)), no exact coordinates")
        }
        return nil
    }

    /// The venues inside a box (one list per longitude range), read to the end before the
    /// caller's checks run statements of their own; `approximateOnly` keeps those placed
    /// at their city only.
    func venues(in box: BoundingBox, approximateOnly: Bool = false) throws
        -> [[(id: Int64, name: String, at: Coordinate, city: String?, geonameID: Int64?)]]
    {
        try box.longitudeRanges.map { range in
            try ColumnCursor(
                db.cachedStatement(sql: """
                    SELECT v.id, v.name, v.latitude, v.longitude, v.city, v.geoname_id
                    FROM venue_location r JOIN venue v ON v.id = r.id
                    WHERE r.min_lat >= ? AND r.max_lat <= ? AND r.min_lng >= ? AND r.max_lng <= ?
                        AND (? OR v.coordinates_approximate)
                    """),
                binding: { binder in
                    binder.bind(box.minLatitude - 1e-4)
                    binder.bind(box.maxLatitude + 1e-4)
                    binder.bind(range.lowerBound - 1e-4)
                    binder.bind(range.upperBound + 1e-4)
                    binder.bind(Int64(approximateOnly ? 0 : 1))
                }
            ) { row in
                (
                    id: row.int64(0), name: row.text(1), at: Coordinate(latitude: row.double(2), longitude: row.double(3)),
                    city: row.optionalText(4), geonameID: row.optionalInt64(5)
                )
            }.all()
        }
    }

    /// Rebuilds a venue row from all its records: each field from the most trusted
    /// record that has it; an exact position beats an approximate one.
    /// - Parameter known: this source's record just written.
    func rebuildVenue(
        _ id: Int64, sourcesChanged: Bool, knowing known: (sourceID: String, snapshot: VenueSnapshot)? = nil
    ) throws {
        let records = try snapshots(
            VenueSnapshot.self, kind: .venue, entityID: id, knowing: known.map { (source, $0.sourceID, $0.snapshot) }
        ).map(\.value)
        guard var merged = records.first else { return }
        func first<T>(_ field: (VenueSnapshot) -> T?) -> T? { records.lazy.compactMap(field).first }
        merged.street = first(\.street)
        merged.postalCode = first(\.postalCode)
        merged.city = first(\.city)
        merged.region = first(\.region)
        merged.country = first(\.country)
        let positioned = records.first { $0.latitude != nil && !$0.approximate } ?? records.first { $0.latitude != nil }
        merged.latitude = positioned?.latitude
        merged.longitude = positioned?.longitude
        merged.approximate = positioned?.approximate ?? false
        merged.timeZone = first(\.timeZone)
        merged.website = first(\.website)
        merged.capacity = first(\.capacity)
        merged.url = first(\.url)
        merged.metroAreaID = try metroArea(
            records: records.compactMap(\.metroAreaID),
            at: positioned.flatMap { record in
                record.latitude.flatMap { latitude in
                    record.longitude.map { Coordinate(latitude: latitude, longitude: $0) }
                }
            })
        merged.geonameID = first(\.geonameID)
        let changed = try updateChangedColumns(
            Self.venueColumns, id: id, to: Self.venueValues(merged), stampingAnyway: sourcesChanged)
        let names = changed.map { Self.venueColumns.names[$0] }
        if names.contains("latitude") || names.contains("longitude") {
            try locate(venue: id, latitude: merged.latitude, longitude: merged.longitude, isNew: false)
        }
        if names.contains("name") { try SearchIndex.update(db, .venue, id: id, name: merged.name) }
        if names.contains("street") || names.contains("postal_code") {
            try SearchIndex.setAddress(
                db, venue: id, street: merged.street, postalCode: merged.postalCode, isNew: false)
        }
    }

    /// A venue's metro area, whatever order its records and the metro areas arrived in:
    /// the first of its records' metro areas that a source named; else the nearest one a
    /// source named within reach of its position; else the one Encore made for its
    /// nearest city (what a record holds when it arrived before any source named an area
    /// near it).
    private func metroArea(records ids: [Int64], at coordinate: Coordinate?) throws -> Int64? {
        var distinct: [Int64] = []
        for id in ids where !distinct.contains(id) { distinct.append(id) }
        guard !distinct.isEmpty else { return nil }
        let named = Set(
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT entity_id FROM source_record
                    WHERE kind = 'metro_area' AND source <> 'geonames' AND entity_id IN (\(distinct.map { _ in "?" }.joined(separator: ",")))
                    """, arguments: StatementArguments(distinct)))
        if let first = distinct.first(where: { named.contains($0) }) { return first }
        if let coordinate, let nearest = try nearestNamedMetroArea(to: coordinate) { return nearest }
        // A made area is dropped once no venue is in it; a record may still name one.
        return try distinct.first { try Bool.fetchOne(db, sql: "SELECT 1 FROM metro_area WHERE id = ?", arguments: [$0]) == true }
    }

    /// Keeps the venue's point in the `venue_location` R*Tree (a degenerate box) in step
    /// with its row: every write of a venue's coordinates goes through here.
    private func locate(venue id: Int64, latitude: Double?, longitude: Double?, isNew: Bool) throws {
        if !isNew {
            try db.cachedStatement(sql: "DELETE FROM venue_location WHERE id = ?").execute { $0.bind(id) }
        }
        guard let latitude, let longitude else { return }
        try db.cachedStatement(sql: "INSERT INTO venue_location VALUES (?, ?, ?, ?, ?)").execute { binder in
            binder.bind(id)
            binder.bind(latitude)
            binder.bind(latitude)
            binder.bind(longitude)
            binder.bind(longitude)
        }
    }
}
