import GRDB
import Geo
import Listings

/// The names the catalog can be searched by (`search_index`, FTS5; rowid = entity id × 4 +
/// kind code), and venues' addresses. It holds folded names (see `NameFolding`), and queries are folded the same
/// way, so "soren" finds "Søren" and "ac dc" finds "AC/DC".
enum SearchIndex {
    static func insert(_ db: Database, _ kind: SearchKindCode, id: Int64, name: String) throws {
        try insert(db, rowID: kind.rowID(for: id), folded: NameFolding.fold(name))
    }

    static func update(_ db: Database, _ kind: SearchKindCode, id: Int64, name: String) throws {
        try db.cachedStatement(sql: "UPDATE search_index SET name = ? WHERE rowid = ?")
            .execute(arguments: [NameFolding.fold(name), kind.rowID(for: id)])
    }

    static func delete(_ db: Database, _ kind: SearchKindCode, id: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM search_index WHERE rowid = ?").execute(arguments: [kind.rowID(for: id)])
    }

    /// Indexes a venue's street and postal code (`encore search "Calle Mayor"`), replacing
    /// what it had; an address with neither leaves the venue found by name alone.
    static func setAddress(_ db: Database, venue id: Int64, street: String?, postalCode: String?, isNew: Bool) throws {
        let rowID = SearchKindCode.venueAddress.rowID(for: id)
        if !isNew {
            try db.cachedStatement(sql: "DELETE FROM search_index WHERE rowid = ?").execute(arguments: [rowID])
        }
        let folded = NameFolding.fold([street, postalCode].compactMap { $0 }.joined(separator: " "))
        guard !folded.isEmpty else { return }
        try insert(db, rowID: rowID, folded: folded)
    }

    private static func insert(_ db: Database, rowID: Int64, folded: String) throws {
        try db.cachedStatement(sql: "INSERT INTO search_index (rowid, name) VALUES (?, ?)").execute { binder in
            binder.bind(rowID)
            binder.bind(folded)
        }
    }
}
