import GRDB
import Listings

/// Band pages' addresses (`artists/<slug>.json`), kept in the catalog so that one, once
/// published, never changes owner: computed from the names each build, "AC DC"'s
/// `ac-dc-6` passed to a newcomer "AC DC 6" and "AC DC" moved to `ac-dc-6-6`.
///
/// The rule: an artist's address is the slug of its name when no artist has had that
/// address, else the slug followed by `-<id>` (repeated while taken); among artists given
/// theirs at once, plain slugs go first, lower ids first. It is given once, by the first
/// build that publishes the artist, and kept through renames. A merged artist's address
/// leads to the artist it joined.
extension CatalogDatabase {
    /// Gives every artist without one its address. Builds call it before they take their
    /// snapshot (a write: it must not happen in the middle of a build's reads).
    public func assignArtistAddresses() throws {
        try writer.write { db in
            let missing = try Row.fetchAll(
                db,
                sql: """
                    SELECT a.id, a.name FROM artist a
                    WHERE NOT EXISTS (SELECT 1 FROM artist_address d WHERE d.artist_id = a.id AND d.is_current = 1)
                    ORDER BY a.id
                    """
            ).map { (id: $0[0] as Int64, name: $0[1] as String) }
            guard !missing.isEmpty else { return }
            var taken = Set(try String.fetchAll(db, sql: "SELECT slug FROM artist_address"))
            let insert = try db.cachedStatement(sql: "INSERT INTO artist_address (slug, artist_id, is_current, first_artist_id) VALUES (?, ?, 1, ?)")
            for (id, slug) in Self.addresses(for: missing, taken: &taken) {
                try insert.execute(arguments: [slug, id, id])
            }
        }
    }

    /// The current address of each artist named; one a build has not assigned yet (a
    /// catalog built without ``assignArtistAddresses()``) is made by the same rule, never
    /// one already given.
    public func artistAddresses(for names: [(id: Int64, name: String)]) throws -> [Int64: String] {
        try reader.read { db in
            var result: [Int64: String] = [:]
            let wanted = Set(names.map(\.id))
            var taken = Set<String>()
            let rows = try Row.fetchCursor(db, sql: "SELECT slug, artist_id, is_current FROM artist_address")
            while let row = try rows.next() {
                let slug: String = row[0]
                taken.insert(slug)
                let id: Int64 = row[1]
                if row[2] as Int64 == 1, wanted.contains(id) { result[id] = slug }
            }
            let missing = names.filter { result[$0.id] == nil }.sorted { $0.id < $1.id }
            for (id, slug) in Self.addresses(for: missing, taken: &taken) { result[id] = slug }
            return result
        }
    }

    /// Addresses that merged artists had, each with the band it leads to now, by slug.
    public func movedArtistAddresses() throws -> [MovedArtistAddress] {
        try reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT old.slug, now.slug, a.name, coalesce(old.first_artist_id, old.artist_id), old.moved_at
                    FROM artist_address old
                    JOIN artist_address now ON now.artist_id = old.artist_id AND now.is_current = 1
                    JOIN artist a ON a.id = old.artist_id
                    WHERE old.is_current = 0 ORDER BY old.slug
                    """
            ).map { row in
                MovedArtistAddress(
                    slug: row[0], current: row[1], name: row[2], firstArtistID: row[3],
                    movedAt: (row[4] as String?).flatMap { UTCInstant(iso: $0) })
            }
        }
    }

    /// The rule, for artists in id order: plain slugs first, then suffixed ones for clashes,
    /// as builds made them before addresses were kept (so a catalog's first kept addresses
    /// are the ones it already published).
    static func addresses(for artists: [(id: Int64, name: String)], taken: inout Set<String>) -> [(Int64, String)] {
        var result: [(Int64, String)] = []
        var clashes: [(Int64, String)] = []
        for artist in artists {
            let slug = Slug.make(artist.name)
            if taken.insert(slug).inserted { result.append((artist.id, slug)) } else { clashes.append((artist.id, slug)) }
        }
        for (id, base) in clashes {
            var slug = "\(base)-\(id)"
            while !taken.insert(slug).inserted { slug += "-\(id)" }
            result.append((id, slug))
        }
        return result
    }
}
