import GRDB
import Geo
import Listings

/// What fans listen to (`encore track import`), the artists they follow by name and the
/// artists they hide from recommendations.
extension CatalogDatabase {
    /// Matches each listened artist to the catalog (MusicBrainz id first, then the folded
    /// name `track artist` uses; a credit's acts only where the catalog knows each) and,
    /// unless `dryRun`, follows the first `top` of `ranked` and remembers all of `ranked`
    /// as the fan's listening. One transaction: a failure changes nothing.
    public func importListening(user: String, ranked: [ListenedArtist], top: Int, dryRun: Bool) throws -> [ListeningMatch] {
        let timestamp = Self.timestamp(now())
        let work: (Database) throws -> [ListeningMatch] = { db in
            let followed = try Self.followedArtistIDs(db, user: user)
            let followedNames = Set(try String.fetchAll(db, sql: "SELECT name_key FROM fan_followed_name WHERE fan = ?", arguments: [user]))
            var matches: [ListeningMatch] = []
            var newlyFollowed: Set<Int64> = []
            for (rank, listened) in ranked.enumerated() {
                var artists = try Self.catalogArtist(db, name: listened.name, mbid: listened.musicBrainzID).map { [$0] } ?? []
                if artists.isEmpty, !listened.credits.isEmpty {
                    let parts = try listened.credits.map { try Self.catalogArtist(db, name: $0, mbid: nil) }
                    if parts.allSatisfy({ $0 != nil }) { artists = parts.compactMap { $0 } }
                }
                if !dryRun {
                    try Self.ensureFan(db, user)
                    try db.execute(
                        sql: """
                            INSERT OR REPLACE INTO fan_listened (fan, name_key, name, mbid, plays, ms_played, artist_id)
                            VALUES (?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            user, NameFolding.fold(listened.name), listened.name, listened.musicBrainzID, listened.plays,
                            listened.millisecondsPlayed, artists.count == 1 ? artists[0].id : nil,
                        ])
                }
                guard rank < top else { continue }
                let outcome: ListeningMatch.Outcome
                if artists.isEmpty {
                    outcome = followedNames.contains(NameFolding.fold(listened.name)) ? .alreadyFollowed : .notInCatalog
                    if !dryRun {
                        try db.execute(
                            sql: "INSERT OR IGNORE INTO fan_followed_name (fan, name_key, name, mbid, added_at) VALUES (?, ?, ?, ?, ?)",
                            arguments: [user, NameFolding.fold(listened.name), listened.name, listened.musicBrainzID, timestamp])
                    }
                } else if artists.allSatisfy({ followed.contains($0.id) || newlyFollowed.contains($0.id) }) {
                    outcome = .alreadyFollowed
                } else {
                    outcome = .followed
                    for artist in artists where !followed.contains(artist.id) {
                        newlyFollowed.insert(artist.id)
                        if !dryRun {
                            try db.execute(
                                sql: """
                                    INSERT OR IGNORE INTO fan_tracked (fan, kind, ref, name, latitude, longitude, added_at)
                                    VALUES (?, 'artist', ?, ?, NULL, NULL, ?)
                                    """,
                                arguments: [user, artist.id, artist.name, timestamp])
                        }
                    }
                }
                matches.append(ListeningMatch(listened: listened, outcome: outcome, artists: artists))
            }
            return matches
        }
        return dryRun ? try reader.read(work) : try writer.write(work)
    }

    /// The catalog artist of a MusicBrainz id, else of a folded name (the one with the
    /// lowest id: the first the catalog knew).
    static func catalogArtist(_ db: Database, name: String, mbid: String?) throws -> ArtistReference? {
        if let mbid, let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT id, name FROM artist WHERE mbid = ? ORDER BY id LIMIT 1"), arguments: [mbid])
        {
            return ArtistReference(id: row[0], name: row[1])
        }
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT id, name FROM artist WHERE folded_name = ? ORDER BY id LIMIT 1"),
            arguments: [NameFolding.fold(name)])
        else { return nil }
        return ArtistReference(id: row[0], name: row[1])
    }

    /// The catalog artists a fan follows: tracked ones, and names followed before the
    /// catalog knew them that it knows now.
    static func followedArtistIDs(_ db: Database, user: String) throws -> Set<Int64> {
        Set(try Int64.fetchAll(
            db,
            sql: """
                SELECT ref FROM fan_tracked WHERE fan = ? AND kind = 'artist'
                UNION SELECT a.id FROM fan_followed_name f JOIN artist a ON a.folded_name = f.name_key WHERE f.fan = ?
                """,
            arguments: [user, user]))
    }

    /// Names a fan follows that no catalog artist has yet.
    public func followedNamesNotInCatalog(user: String) throws -> [String] {
        try reader.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT f.name FROM fan_followed_name f WHERE f.fan = ?
                    AND NOT EXISTS (SELECT 1 FROM artist a WHERE a.folded_name = f.name_key) ORDER BY f.name_key
                    """,
                arguments: [user])
        }
    }

    /// The fan's listening matched to catalog artists: artist id → (name, plays).
    static func listenedArtists(_ db: Database, user: String) throws -> [Int64: (name: String, plays: Int)] {
        var result: [Int64: (name: String, plays: Int)] = [:]
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT COALESCE(l.artist_id, (SELECT a.id FROM artist a WHERE a.folded_name = l.name_key ORDER BY a.id LIMIT 1)),
                       l.name, l.plays
                FROM fan_listened l WHERE l.fan = ?
                """,
            arguments: [user])
        for row in rows {
            guard let id = row[0] as Int64? else { continue }
            let plays: Int = row[2]
            if plays > result[id]?.plays ?? -1 { result[id] = (row[1], plays) }
        }
        return result
    }

    /// Keeps an artist out of the fan's recommendations; false when already hidden.
    @discardableResult
    public func hide(user: String, artist: ArtistReference) throws -> Bool {
        try writer.write { db in
            try Self.ensureFan(db, user)
            try db.execute(
                sql: "INSERT OR IGNORE INTO fan_hidden (fan, artist_id, name) VALUES (?, ?, ?)",
                arguments: [user, artist.id, artist.name])
            return db.changesCount > 0
        }
    }

    @discardableResult
    public func unhide(user: String, artistID: Int64) throws -> Bool {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM fan_hidden WHERE fan = ? AND artist_id = ?", arguments: [user, artistID])
            return db.changesCount > 0
        }
    }

    public func hiddenArtists(user: String) throws -> [ArtistReference] {
        try reader.read { db in
            try Row.fetchAll(db, sql: "SELECT artist_id, name FROM fan_hidden WHERE fan = ? ORDER BY name, artist_id", arguments: [user])
                .map { ArtistReference(id: $0[0], name: $0[1]) }
        }
    }
}

extension CatalogDatabase {
    /// Every artist any local fan follows, by name with its MusicBrainz id when known,
    /// in name order: what similar-artist sources are asked about.
    public func followedArtistsForSimilarLists() throws -> [(name: String, mbid: String?)] {
        try reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT a.name, a.mbid FROM artist a WHERE a.id IN (
                        SELECT ref FROM fan_tracked WHERE kind = 'artist'
                        UNION SELECT a2.id FROM fan_followed_name f JOIN artist a2 ON a2.folded_name = f.name_key)
                    UNION SELECT f.name, f.mbid FROM fan_followed_name f
                    WHERE NOT EXISTS (SELECT 1 FROM artist a3 WHERE a3.folded_name = f.name_key)
                    ORDER BY 1, 2
                    """
            ).map { (name: $0[0], mbid: $0[1]) }
        }
    }
}
