import GRDB
import Geo
import Listings

/// Applying pages of listings: the upsert semantics.
///
/// Identity: a source record is `(source, kind, source id)`. The first time one is seen
/// a catalog row is created and linked to it; afterwards the record always maps to the
/// same row, so ids are stable across re-ingestion. Two records of one source with
/// different ids are different rows, even at the same venue on the same day (early and
/// late shows are real).
///
/// Changes: each source record keeps a content hash. An unchanged record only has its
/// `last_seen` moved. A changed event is updated in place and its lineup replaced by the
/// new one. A changed artist, venue or metro area is updated field by field, keeping a
/// stored value where the new record has none (an event's embedded venue has no street;
/// that must not erase the street a venue-details page gave).
///
/// Atomicity: a page is applied in one transaction, and an identical page (same bytes,
/// same format) is not applied twice.
extension CatalogDatabase: ListingSink {
    public func hasApplied(pageHash: String, format: String) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM applied_page WHERE format = ? AND content_hash = ?",
                arguments: [format, pageHash]) ?? false
        }
    }

    public func apply(_ page: ListingPage, pageHash: String, format: String) throws -> PageOutcome {
        let timestamp = Self.timestamp(now())
        return try writer.write { db in
            var applier = PageApplier(db: db, source: page.source, timestamp: timestamp)
            let outcome = try applier.apply(page)
            try db.execute(
                sql: "INSERT OR REPLACE INTO applied_page (format, content_hash, locator, applied_at) VALUES (?, ?, ?, ?)",
                arguments: [format, pageHash, page.locator, timestamp])
            return outcome
        }
    }

    /// Applies a page without recording its hash (tests and callers that hash nothing).
    public func apply(_ page: ListingPage) throws -> PageOutcome {
        let timestamp = Self.timestamp(now())
        return try writer.write { db in
            var applier = PageApplier(db: db, source: page.source, timestamp: timestamp)
            return try applier.apply(page)
        }
    }
}

/// One page's upserts inside one transaction, with the page's lookups memoized.
struct PageApplier {
    enum Change { case new, updated, unchanged }

    let db: Database
    let source: String
    let timestamp: String
    private var resolved: [EntityKind: [String: Int64]] = [:]

    init(db: Database, source: String, timestamp: String) {
        self.db = db
        self.source = source
        self.timestamp = timestamp
    }

    mutating func apply(_ page: ListingPage) throws -> PageOutcome {
        var outcome = PageOutcome()
        for metro in page.metroAreas { _ = try upsert(metro) }
        for venue in page.venues { _ = try upsert(venue) }
        for artist in page.artists { _ = try upsert(artist) }
        for event in page.events {
            switch try upsert(event) {
            case .new: outcome.eventsNew += 1
            case .updated: outcome.eventsUpdated += 1
            case .unchanged: outcome.eventsUnchanged += 1
            }
        }
        if let similar = page.similarArtists { try replaceSimilarArtists(similar) }
        return outcome
    }

    // MARK: - Source records

    private struct Existing {
        let recordID: Int64
        let entityID: Int64
        let contentHash: String
    }

    private func existingRecord(_ kind: EntityKind, _ sourceID: String, source recordSource: String? = nil) throws -> Existing? {
        let statement = try db.cachedStatement(
            sql: "SELECT id, entity_id, content_hash FROM source_record WHERE source = ? AND kind = ? AND source_id = ?")
        guard let row = try Row.fetchOne(statement, arguments: [recordSource ?? source, kind.rawValue, sourceID])
        else { return nil }
        return Existing(recordID: row[0], entityID: row[1], contentHash: row[2])
    }

    private func insertRecord(
        _ kind: EntityKind, _ sourceID: String, entityID: Int64, url: String?, hash: String, source recordSource: String
    ) throws {
        try db.cachedStatement(sql: """
            INSERT INTO source_record (source, kind, source_id, entity_id, url, content_hash, first_seen, last_seen)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [recordSource, kind.rawValue, sourceID, entityID, url, hash, timestamp, timestamp])
    }

    private func touchRecord(_ existing: Existing, url: String?, hash: String) throws {
        try db.cachedStatement(sql: """
            UPDATE source_record SET url = COALESCE(?, url), content_hash = ?, last_seen = ? WHERE id = ?
            """).execute(arguments: [url, hash, timestamp, existing.recordID])
    }

    /// Finds or creates the row behind a source record; memoized per page, since one
    /// venue or artist appears in many events of the same page.
    private mutating func upsertEntity(
        _ kind: EntityKind, sourceID: String, url: String?, hash: String, source recordSource: String? = nil,
        insert: () throws -> Int64, update: (Int64) throws -> Void
    ) throws -> (Int64, Change) {
        let recordSource = recordSource ?? source
        let memoKey = recordSource == source ? sourceID : recordSource + ":" + sourceID
        if let id = resolved[kind]?[memoKey] { return (id, .unchanged) }
        let result: (Int64, Change)
        if let existing = try existingRecord(kind, sourceID, source: recordSource) {
            if existing.contentHash == hash {
                try touchRecord(existing, url: nil, hash: hash)
                result = (existing.entityID, .unchanged)
            } else {
                try update(existing.entityID)
                try touchRecord(existing, url: url, hash: hash)
                result = (existing.entityID, .updated)
            }
        } else {
            let id = try insert()
            try insertRecord(kind, sourceID, entityID: id, url: url, hash: hash, source: recordSource)
            result = (id, .new)
        }
        resolved[kind, default: [:]][memoKey] = result.0
        return result
    }

    // MARK: - Metro areas, venues, artists

    mutating func upsert(_ metro: MetroAreaListing, source recordSource: String? = nil) throws -> Int64 {
        let arguments: StatementArguments = [
            metro.name, metro.country, metro.region, metro.coordinate?.latitude, metro.coordinate?.longitude, metro.url,
            metro.place?.geonameID, metro.place?.timeZone,
        ]
        let db = self.db
        return try upsertEntity(
            .metroArea, sourceID: metro.sourceID, url: metro.url, hash: metro.contentHash, source: recordSource,
            insert: {
                try db.cachedStatement(sql: """
                    INSERT INTO metro_area (name, country, region, latitude, longitude, url, geoname_id, timezone)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(arguments: arguments)
                let id = db.lastInsertedRowID
                try Self.index(db, .metroArea, id: id, name: metro.name)
                return id
            },
            update: { id in
                try db.cachedStatement(sql: """
                    UPDATE metro_area SET name = ?, country = COALESCE(?, country), region = COALESCE(?, region),
                        latitude = COALESCE(?, latitude), longitude = COALESCE(?, longitude), url = COALESCE(?, url),
                        geoname_id = COALESCE(?, geoname_id), timezone = COALESCE(?, timezone)
                    WHERE id = ?
                    """).execute(arguments: arguments + [id])
                try Self.reindex(db, .metroArea, id: id, name: metro.name)
            }
        ).0
    }

    mutating func upsert(_ venue: VenueListing) throws -> Int64 {
        let metroID = try metroArea(for: venue)
        let arguments: StatementArguments = [
            venue.name, venue.street, venue.postalCode, venue.city, venue.region, venue.country,
            venue.coordinate?.latitude, venue.coordinate?.longitude, venue.coordinateIsApproximate,
            venue.timeZone, venue.website, venue.capacity, venue.url, metroID, venue.place?.geonameID,
        ]
        let db = self.db
        return try upsertEntity(
            .venue, sourceID: venue.sourceID, url: venue.url, hash: venue.contentHash,
            insert: {
                try db.cachedStatement(sql: """
                    INSERT INTO venue (name, street, postal_code, city, region, country, latitude, longitude,
                        coordinates_approximate, timezone, website, capacity, url, metro_area_id, geoname_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(arguments: arguments)
                let id = db.lastInsertedRowID
                try Self.index(db, .venue, id: id, name: venue.name)
                return id
            },
            update: { id in
                // An approximate coordinate never replaces an exact one.
                try db.cachedStatement(sql: """
                    UPDATE venue SET name = ?1, street = COALESCE(?2, street), postal_code = COALESCE(?3, postal_code),
                        city = COALESCE(?4, city), region = COALESCE(?5, region), country = COALESCE(?6, country),
                        latitude = CASE WHEN ?7 IS NULL OR (?9 AND latitude IS NOT NULL AND NOT coordinates_approximate)
                            THEN latitude ELSE ?7 END,
                        longitude = CASE WHEN ?8 IS NULL OR (?9 AND longitude IS NOT NULL AND NOT coordinates_approximate)
                            THEN longitude ELSE ?8 END,
                        coordinates_approximate = CASE WHEN ?7 IS NULL OR (?9 AND latitude IS NOT NULL AND NOT coordinates_approximate)
                            THEN coordinates_approximate ELSE ?9 END,
                        timezone = COALESCE(?10, timezone), website = COALESCE(?11, website),
                        capacity = COALESCE(?12, capacity), url = COALESCE(?13, url),
                        metro_area_id = COALESCE(?14, metro_area_id), geoname_id = COALESCE(?15, geoname_id)
                    WHERE id = ?16
                    """).execute(arguments: arguments + [id])
                try Self.reindex(db, .venue, id: id, name: venue.name)
            }
        ).0
    }

    /// How far a venue without a source metro area may be from a metro area's centre to
    /// join it; beyond that it joins a metro area made for its nearest gazetteer city.
    static let metroAssignmentRadiusKilometres = 50.0

    /// The source's metro area when it names one; else the nearest metro area centre
    /// within ``metroAssignmentRadiusKilometres``; else one for the venue's nearest city
    /// (recorded with source `geonames`).
    private mutating func metroArea(for venue: VenueListing) throws -> Int64? {
        if let metro = venue.metroArea { return try upsert(metro) }
        guard let coordinate = venue.coordinate else { return nil }
        let box = BoundingBox(around: coordinate, radiusKilometres: Self.metroAssignmentRadiusKilometres)
        var best: (Double, Int64)?
        for range in box.longitudeRanges {
            let rows = try Row.fetchAll(
                try db.cachedStatement(sql: """
                    SELECT id, latitude, longitude FROM metro_area
                    WHERE latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?
                    """),
                arguments: [box.minLatitude, box.maxLatitude, range.lowerBound, range.upperBound])
            for row in rows {
                let distance = haversineDistance(from: coordinate, to: Coordinate(latitude: row[1], longitude: row[2]))
                if distance <= Self.metroAssignmentRadiusKilometres, distance < best?.0 ?? .infinity { best = (distance, row[0]) }
            }
        }
        if let best { return best.1 }
        guard let place = venue.place else { return nil }
        let metro = MetroAreaListing(
            sourceID: String(place.geonameID), name: place.name, country: place.countryCode,
            coordinate: place.coordinate, place: place)
        return try upsert(metro, source: "geonames")
    }

    mutating func upsert(_ artist: ArtistListing) throws -> Int64 {
        let arguments: StatementArguments = [
            artist.name, NameFolding.fold(artist.name), artist.musicBrainzIDs.first, artist.onTourUntil?.description,
            artist.url,
        ]
        let db = self.db
        return try upsertEntity(
            .artist, sourceID: artist.sourceID, url: artist.url, hash: artist.contentHash,
            insert: {
                try db.cachedStatement(sql: """
                    INSERT INTO artist (name, folded_name, mbid, on_tour_until, url) VALUES (?, ?, ?, ?, ?)
                    """).execute(arguments: arguments)
                let id = db.lastInsertedRowID
                try Self.index(db, .artist, id: id, name: artist.name)
                return id
            },
            update: { id in
                try db.cachedStatement(sql: """
                    UPDATE artist SET name = ?, folded_name = ?, mbid = COALESCE(?, mbid),
                        on_tour_until = COALESCE(?, on_tour_until), url = COALESCE(?, url)
                    WHERE id = ?
                    """).execute(arguments: arguments + [id])
                try Self.reindex(db, .artist, id: id, name: artist.name)
            }
        ).0
    }

    // MARK: - Events

    mutating func upsert(_ event: EventListing) throws -> Change {
        let venueID = try event.venue.map { try upsert($0) }
        var artistIDs: [Int64] = []
        artistIDs.reserveCapacity(event.lineup.count)
        for performance in event.lineup { artistIDs.append(try upsert(performance.artist)) }

        let arguments: StatementArguments = [
            event.title, event.kind.rawValue, event.status.rawValue, event.start.localDate.description,
            event.start.localTime?.description, event.start.timeZone ?? event.venue?.timeZone,
            event.start.utc?.description, event.endDate?.description, venueID, event.popularity,
            event.ageRestriction, event.url,
        ]
        let db = self.db
        let (_, change) = try upsertEntity(
            .event, sourceID: event.sourceID, url: event.url, hash: event.contentHash,
            insert: {
                try db.cachedStatement(sql: """
                    INSERT INTO event (title, kind, status, local_date, local_time, timezone, start_utc, end_date,
                        venue_id, popularity, age_restriction, url)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(arguments: arguments)
                let id = db.lastInsertedRowID
                try Self.insertLineup(db, eventID: id, event.lineup, artistIDs: artistIDs)
                return id
            },
            update: { id in
                try db.cachedStatement(sql: """
                    UPDATE event SET title = ?, kind = ?, status = ?, local_date = ?, local_time = ?, timezone = ?,
                        start_utc = ?, end_date = ?, venue_id = ?, popularity = ?, age_restriction = ?, url = ?
                    WHERE id = ?
                    """).execute(arguments: arguments + [id])
                try db.cachedStatement(sql: "DELETE FROM lineup WHERE event_id = ?").execute(arguments: [id])
                try Self.insertLineup(db, eventID: id, event.lineup, artistIDs: artistIDs)
            })
        return change
    }

    private static func insertLineup(
        _ db: Database, eventID: Int64, _ lineup: [PerformanceListing], artistIDs: [Int64]
    ) throws {
        // A source that lists an act twice keeps its first billing.
        let statement = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO lineup (event_id, artist_id, billing, position) VALUES (?, ?, ?, ?)")
        for (performance, artistID) in zip(lineup, artistIDs) {
            try statement.execute(arguments: [eventID, artistID, performance.billing.rawValue, performance.order])
        }
    }

    private mutating func replaceSimilarArtists(_ listing: SimilarArtistsListing) throws {
        try db.execute(
            sql: "DELETE FROM similar_artist WHERE source = ? AND artist_source_id = ?",
            arguments: [source, listing.artistSourceID])
        for (rank, similar) in listing.similar.enumerated() where similar.sourceID != listing.artistSourceID {
            let similarID = try upsert(similar)
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO similar_artist (source, artist_source_id, similar_artist_id, rank)
                    VALUES (?, ?, ?, ?)
                    """,
                arguments: [source, listing.artistSourceID, similarID, rank + 1])
        }
    }

    // MARK: - Search index

    // The index holds folded names (see `NameFolding`), and queries are folded the
    // same way, so "soren" finds "Søren" and "ac dc" finds "AC/DC".

    private static func index(_ db: Database, _ kind: SearchKindCode, id: Int64, name: String) throws {
        try db.cachedStatement(sql: "INSERT INTO search_index (rowid, name) VALUES (?, ?)")
            .execute(arguments: [kind.rowID(for: id), NameFolding.fold(name)])
    }

    private static func reindex(_ db: Database, _ kind: SearchKindCode, id: Int64, name: String) throws {
        try db.cachedStatement(sql: "UPDATE search_index SET name = ? WHERE rowid = ?")
            .execute(arguments: [NameFolding.fold(name), kind.rowID(for: id)])
    }
}
