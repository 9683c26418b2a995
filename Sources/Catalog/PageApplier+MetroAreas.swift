import GRDB
import Geo
import Listings

/// Metro areas: the ones sources name, and the ones Encore makes for venues no source
/// places, so that a venue's area depends on its position and not on arrival order.
extension PageApplier {
    /// Metro areas are not merged across sources: each keeps the source's own identity.
    mutating func upsert(_ metro: MetroAreaListing, source recordSource: String? = nil, hash: String? = nil) throws -> Int64 {
        let recordSource = recordSource ?? source
        let memoKey = recordSource + ":" + metro.sourceID
        if let id = resolved[.metroArea]?[memoKey] { return id }
        let arguments: StatementArguments = [
            metro.name, metro.country, metro.region, metro.coordinate?.latitude, metro.coordinate?.longitude, metro.url,
            metro.place?.geonameID, metro.place?.timeZone,
        ]
        let id: Int64
        let hash = hash ?? metro.contentHash
        if let existing = try existingRecord(.metroArea, metro.sourceID, source: recordSource) {
            id = existing.entityID
            if existing.contentHash == hash {
                touchRecord(existing)
            } else {
                // A guessed place only fills what the catalog lacks.
                let placed: (String) -> String = { metro.placeIsGuessed ? "COALESCE(\($0), ?)" : "COALESCE(?, \($0))" }
                let changed = try update(
                    "metro_area", id: id,
                    setting: [
                        "name": "?", "country": "COALESCE(?, country)", "region": "COALESCE(?, region)",
                        "latitude": placed("latitude"), "longitude": placed("longitude"),
                        "url": "COALESCE(?, url)", "geoname_id": placed("geoname_id"), "timezone": placed("timezone"),
                    ], to: arguments)
                if changed { try SearchIndex.update(db, .metroArea, id: id, name: metro.name) }
                try updateRecord(existing, url: metro.url, hash: hash, payload: nil)
            }
        } else {
            try db.cachedStatement(sql: """
                INSERT INTO metro_area (name, country, region, latitude, longitude, url, geoname_id, timezone, revision)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: arguments + [revision])
            id = db.lastInsertedRowID
            try SearchIndex.insert(db, .metroArea, id: id, name: metro.name)
            try insertRecord(.metroArea, metro.sourceID, entityID: id, url: metro.url, hash: hash, payload: nil, source: recordSource)
            if recordSource != "geonames", !othersAbsent, let centre = metro.coordinate { try rehomeVenues(near: centre) }
        }
        resolved[.metroArea, default: [:]][memoKey] = id
        return id
    }

    /// Venues in a metro area Encore made (for their nearest city) within reach of a metro
    /// area a source just named: rebuilt, so they join it as if it had been there first.
    private mutating func rehomeVenues(near centre: Coordinate) throws {
        let box = BoundingBox(around: centre, radiusKilometres: Self.metroAssignmentRadiusKilometres)
        for range in box.longitudeRanges {
            let ids = try Int64.fetchAll(
                db,
                sql: """
                    SELECT v.id FROM venue v JOIN source_record r
                        ON r.kind = 'metro_area' AND r.entity_id = v.metro_area_id AND r.source = 'geonames'
                    WHERE v.latitude BETWEEN ? AND ? AND v.longitude BETWEEN ? AND ?
                    ORDER BY v.id
                    """, arguments: [box.minLatitude, box.maxLatitude, range.lowerBound, range.upperBound])
            for id in ids { try rebuildVenue(id, sourcesChanged: false) }
        }
    }

    /// The nearest metro area a source named (not one Encore made) whose centre is within
    /// ``metroAssignmentRadiusKilometres`` of `coordinate`.
    func nearestNamedMetroArea(to coordinate: Coordinate) throws -> Int64? {
        let box = BoundingBox(around: coordinate, radiusKilometres: Self.metroAssignmentRadiusKilometres)
        var best: (Double, Int64)?
        for range in box.longitudeRanges {
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT m.id, m.latitude, m.longitude FROM metro_area m
                    WHERE m.latitude BETWEEN ? AND ? AND m.longitude BETWEEN ? AND ?
                        AND EXISTS (
                            SELECT 1 FROM source_record r
                            WHERE r.kind = 'metro_area' AND r.entity_id = m.id AND r.source <> 'geonames')
                    """, arguments: [box.minLatitude, box.maxLatitude, range.lowerBound, range.upperBound])
            for row in rows {
                let id: Int64 = row[0]
                let distance = haversineDistance(from: coordinate, to: Coordinate(latitude: row[1], longitude: row[2]))
                if distance <= Self.metroAssignmentRadiusKilometres, (distance, id) < (best ?? (.infinity, 0)) {
                    best = (distance, id)
                }
            }
        }
        return best?.1
    }

    /// The source's metro area when it names one; else the nearest metro area a source
    /// named whose centre is within ``metroAssignmentRadiusKilometres``; else one made for
    /// the most populous city within that reach (recorded with source `geonames`). Each
    /// step depends on the venue's position only, not on which venues came first.
    mutating func metroArea(for venue: VenueListing) throws -> Int64? {
        if let metro = venue.metroArea { return try upsert(metro) }
        guard let coordinate = venue.coordinate else { return nil }
        if let named = try nearestNamedMetroArea(to: coordinate) { return named }
        guard let place = venue.metroPlace ?? venue.place else { return nil }
        let metro = MetroAreaListing(
            sourceID: String(place.geonameID), name: place.name, country: place.countryCode,
            coordinate: place.coordinate, place: place)
        return try upsert(metro, source: "geonames")
    }


    /// Removes the metro areas Encore made for a venue's nearest city (source `geonames`)
    /// that no venue is in any more: a source that names metro areas arrived and its
    /// venues moved into them. Without this, the catalog would depend on which source came
    /// first (one that names none makes these areas; one arriving after another that does
    /// never needs them). An area a fan tracks stays.
    mutating func dropMetroAreasMadeForNoVenue() throws {
        let ids = try Int64.fetchAll(
            db,
            sql: """
                SELECT r.entity_id FROM source_record r
                WHERE r.source = 'geonames' AND r.kind = 'metro_area'
                    AND NOT EXISTS (SELECT 1 FROM venue v WHERE v.metro_area_id = r.entity_id)
                    AND NOT EXISTS (
                        SELECT 1 FROM source_record o
                        WHERE o.kind = 'metro_area' AND o.entity_id = r.entity_id AND o.source <> 'geonames')
                    AND NOT EXISTS (SELECT 1 FROM fan_tracked t WHERE t.kind = 'city' AND t.ref = r.entity_id)
                """)
        guard !ids.isEmpty else { return }
        for id in ids {
            try db.execute(sql: "DELETE FROM source_record WHERE kind = 'metro_area' AND entity_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM metro_area WHERE id = ?", arguments: [id])
            try SearchIndex.delete(db, .metroArea, id: id)
        }
        let dropped = Set(ids)
        resolved[.metroArea] = resolved[.metroArea]?.filter { !dropped.contains($0.value) }
    }
}
