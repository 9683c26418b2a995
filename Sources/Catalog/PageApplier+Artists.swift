import GRDB
import Geo
import Listings

extension PageApplier {
    /// Finds or creates the artist behind a record.
    /// - Parameter corroboration: the acts (name key → artist id) of an event this
    ///   record's event is merging into; a record with one of those keys joins that
    ///   artist, and two artist rows found to be one are merged.
    /// - Parameter matchKey: the name's ``MatchKey``, when made in advance.
    mutating func upsert(
        _ artist: ArtistListing, corroboratedBy corroboration: [String: Int64], hash: String? = nil,
        matchKey: String? = nil
    ) throws -> Int64 {
        // Folded when compared: most acts need no key (one named before on the page, or
        // on an event that merges with nothing).
        lazy var key = matchKey ?? MatchKey.of(artist.name)
        // Two records of one source with different ids stay two artists, even with one
        // name on one bill (a festival can book two bands called "Low"). Nor does a
        // record that knows an artist by name alone join two artists that another source
        // tells apart: Last.fm's "Low" on the bills of two Songkick bands called "Low".
        func corroborated(apartFrom id: Int64? = nil) throws -> Int64? {
            guard !corroboration.isEmpty, let other = corroboration[key], other != id,
                try !hasRecordFromThisSource(.artist, entityID: other)
            else { return nil }
            if let id, try artistsShareASource(id, other) { return nil }
            return other
        }
        if let id = resolved[.artist]?[artist.sourceID] {
            if let other = try corroborated(apartFrom: id) {
                return try mergeArtists(id, other, reason: "the same name (\(key)) on the bill of a shared event")
            }
            return id
        }
        let hash = hash ?? artist.contentHash
        // Most mentions are of an unchanged record, which needs no snapshot.
        lazy var snapshot = ArtistSnapshot(artist)
        var id: Int64
        // A record written (not merely seen again) may be the one that shows two rows to
        // be one artist: its MusicBrainz id is on another row.
        var written = true
        if let existing = try existingRecord(.artist, artist.sourceID, contentHash: hash) {
            id = existing.entityID
            if existing.contentHash == hash {
                touchRecord(existing)
                written = false
            } else if let (moved, written) = try update(existing, to: snapshot, url: artist.url, hash: hash) {
                try rebuildArtist(id, sourcesChanged: moved, knowing: (artist.sourceID, written))
            }
            if let other = try corroborated(apartFrom: id) {
                id = try mergeArtists(id, other, reason: "the same name (\(key)) on the bill of a shared event")
            }
        } else {
            let payload = snapshot.payload
            if let other = try corroborated() {
                id = other
                try insertRecord(
                    .artist, artist.sourceID, entityID: id, url: artist.url, hash: hash, payload: payload,
                    mergeReason: "the same name (\(key)) on the bill of a shared event")
                try rebuildArtist(id, sourcesChanged: true)
            } else if let (other, mbid) = try artistSharing(musicBrainzIDs: artist.musicBrainzIDs) {
                id = other
                try insertRecord(
                    .artist, artist.sourceID, entityID: id, url: artist.url, hash: hash, payload: payload,
                    mergeReason: "the same MusicBrainz id (\(mbid))")
                try rebuildArtist(id, sourcesChanged: true)
            } else {
                try db.cachedStatement(sql: """
                    INSERT INTO artist (name, folded_name, match_key, mbid, on_tour_until, url, revision)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """).execute { binder in
                        binder.bind(snapshot.name)
                        binder.bind(NameFolding.fold(snapshot.name))
                        binder.bind(key)
                        binder.bind(snapshot.mbids.first)
                        binder.bind(snapshot.onTourUntil)
                        binder.bind(snapshot.url)
                        binder.bind(revision)
                    }
                id = db.lastInsertedRowID
                try SearchIndex.insert(db, .artist, id: id, name: snapshot.name)
                try insertRecord(.artist, artist.sourceID, entityID: id, url: artist.url, hash: hash, payload: payload)
            }
        }
        if written, !artist.musicBrainzIDs.isEmpty,
            let (other, mbid) = try artistSharing(musicBrainzIDs: artist.musicBrainzIDs, apartFrom: id),
            try !artistsShareASource(id, other)
        {
            id = try mergeArtists(id, other, reason: "the same MusicBrainz id (\(mbid))")
        }
        resolved[.artist, default: [:]][artist.sourceID] = id
        return id
    }

    /// Whether one source has records on both artists (so it knows them as two).
    private func artistsShareASource(_ a: Int64, _ b: Int64) throws -> Bool {
        try !sources(ofRow: a, .artist).isDisjoint(with: sources(ofRow: b, .artist))
    }

    /// An artist of another source with one of these MusicBrainz ids, lowest id first
    /// (other than `apartFrom`).
    private func artistSharing(musicBrainzIDs mbids: [String], apartFrom row: Int64? = nil) throws -> (Int64, String)? {
        if othersAbsent { return nil }
        for mbid in mbids {
            let candidates = try Int64.fetchAll(
                try db.cachedStatement(sql: "SELECT id FROM artist WHERE mbid = ? ORDER BY id"), arguments: [mbid])
            for candidate in candidates where candidate != row {
                guard try !hasRecordFromThisSource(.artist, entityID: candidate) else { continue }
                return (candidate, mbid)
            }
        }
        return nil
    }

    /// Rebuilds an artist row from all its records, by source precedence.
    /// - Parameter known: this source's record just written.
    func rebuildArtist(
        _ id: Int64, sourcesChanged: Bool, knowing known: (sourceID: String, snapshot: ArtistSnapshot)? = nil
    ) throws {
        let records = try snapshots(
            ArtistSnapshot.self, kind: .artist, entityID: id, knowing: known.map { (source, $0.sourceID, $0.snapshot) })
        guard let best = records.first?.value else { return }
        let mbid = records.lazy.compactMap { $0.value.mbids.first }.first
        let url = records.lazy.compactMap { $0.value.url }.first
        let onTour = records.lazy.compactMap { $0.value.onTourUntil }.first
        let changed = try updateChangedColumns(
            Self.artistColumns, id: id,
            to: [
                best.name.databaseValue, NameFolding.fold(best.name).databaseValue, MatchKey.of(best.name).databaseValue,
                mbid.databaseValue, onTour.databaseValue, url.databaseValue,
            ],
            stampingAnyway: sourcesChanged)
        if changed.first == 0 {
            try SearchIndex.update(db, .artist, id: id, name: best.name)
        }
    }

    private static let artistColumns = RebuiltColumns(
        "artist", ["name", "folded_name", "match_key", "mbid", "on_tour_until", "url"])

    /// Makes two artist rows one: the lower id stays, the other's records, bills and
    /// similar-artist links move to it. Returns the id kept.
    mutating func mergeArtists(_ a: Int64, _ b: Int64, reason: String) throws -> Int64 {
        let keep = min(a, b)
        let remove = max(a, b)
        artistMerges += 1
        // Records move between artists below: what was read ahead follows them.
        prefetched[.artist] = prefetched[.artist]?.mapValues { existing in
            existing.map { $0.entityID == remove ? $0.moved(to: keep) : $0 }
        }
        seen?.recordsMoved(.artist, from: remove, to: keep)
        try db.cachedStatement(sql: """
            UPDATE source_record SET entity_id = ?, merge_reason = ?, merged_at = ? WHERE kind = 'artist' AND entity_id = ?
            """).execute(arguments: [keep, reason, timestamp, remove])
        // The bills that named the artist going away now name the one that stays.
        try db.cachedStatement(sql: "UPDATE event SET revision = ? WHERE id IN (SELECT event_id FROM lineup WHERE artist_id = ?)")
            .execute(arguments: [revision, remove])
        try db.cachedStatement(sql: "UPDATE OR IGNORE lineup SET artist_id = ? WHERE artist_id = ?")
            .execute(arguments: [keep, remove])
        try db.cachedStatement(sql: "DELETE FROM lineup WHERE artist_id = ?").execute(arguments: [remove])
        try db.cachedStatement(sql: "UPDATE OR IGNORE similar_artist SET similar_artist_id = ? WHERE similar_artist_id = ?")
            .execute(arguments: [keep, remove])
        try db.cachedStatement(sql: "DELETE FROM similar_artist WHERE similar_artist_id = ?")
            .execute(arguments: [remove])
        // Fans tracking either now track the one that stays.
        try db.cachedStatement(sql: "UPDATE OR IGNORE fan_tracked SET ref = ? WHERE kind = 'artist' AND ref = ?")
            .execute(arguments: [keep, remove])
        try db.cachedStatement(sql: "DELETE FROM fan_tracked WHERE kind = 'artist' AND ref = ?")
            .execute(arguments: [remove])
        try SearchIndex.delete(db, .artist, id: remove)
        try db.cachedStatement(sql: "DELETE FROM artist WHERE id = ?").execute(arguments: [remove])
        // Its band page's address stays published: it now leads to the artist it joined.
        try db.cachedStatement(sql: "UPDATE artist_address SET artist_id = ?, is_current = 0, moved_at = ? WHERE artist_id = ?")
            .execute(arguments: [keep, timestamp, remove])
        for (sourceID, id) in resolved[.artist] ?? [:] where id == remove { resolved[.artist]?[sourceID] = keep }
        try rebuildArtist(keep, sourcesChanged: true)
        return keep
    }
}
