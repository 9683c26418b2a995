import GRDB
import Geo
import Listings

/// The names the catalog can be searched by (`search_index`, FTS5; rowid = entity id × 4 +
/// kind code), and venues' addresses. It holds folded names (see `NameFolding`), and queries are folded the same
/// way, so "soren" finds "Søren" and "ac dc" finds "AC/DC". Inside a page group the new
/// names wait in ``PendingSearchNames``.
enum SearchIndex {
    static func insert(
        _ db: Database, _ kind: SearchKindCode, id: Int64, name: String, holdingIn pending: PendingSearchNames?
    ) throws {
        let rowID = kind.rowID(for: id)
        let folded = NameFolding.fold(name)
        if let pending {
            pending.insert(rowID, folded)
        } else {
            try insert(db, rowID: rowID, folded: folded)
        }
    }

    static func update(
        _ db: Database, _ kind: SearchKindCode, id: Int64, name: String, holdingIn pending: PendingSearchNames?
    ) throws {
        let rowID = kind.rowID(for: id)
        let folded = NameFolding.fold(name)
        if let pending, pending.replace(rowID, folded) { return }
        try db.cachedStatement(sql: "UPDATE search_index SET name = ? WHERE rowid = ?").execute(arguments: [folded, rowID])
    }

    static func delete(_ db: Database, _ kind: SearchKindCode, id: Int64, holdingIn pending: PendingSearchNames?) throws {
        let rowID = kind.rowID(for: id)
        if let pending, pending.remove(rowID) { return }
        try db.cachedStatement(sql: "DELETE FROM search_index WHERE rowid = ?").execute(arguments: [rowID])
    }

    /// Indexes a venue's street and postal code (`encore search "Calle Mayor"`), replacing
    /// what it had; an address with neither leaves the venue found by name alone.
    static func setAddress(
        _ db: Database, venue id: Int64, street: String?, postalCode: String?, holdingIn pending: PendingSearchNames?,
        isNew: Bool
    ) throws {
        let rowID = SearchKindCode.venueAddress.rowID(for: id)
        if !isNew, !(pending?.remove(rowID) ?? false) {
            try db.cachedStatement(sql: "DELETE FROM search_index WHERE rowid = ?").execute(arguments: [rowID])
        }
        let folded = NameFolding.fold([street, postalCode].compactMap { $0 }.joined(separator: " "))
        guard !folded.isEmpty else { return }
        if let pending { pending.insert(rowID, folded) } else { try insert(db, rowID: rowID, folded: folded) }
    }

    fileprivate static func insert(_ db: Database, rowID: Int64, folded: String) throws {
        try db.cachedStatement(sql: "INSERT INTO search_index (rowid, name) VALUES (?, ?)").execute { binder in
            binder.bind(rowID)
            binder.bind(folded)
        }
    }
}

/// The hashes of pages a group applied, until it commits.
final class PendingAppliedPages {
    private struct Key: Hashable, Comparable {
        let format: String
        let pageHash: String
        static func < (a: Key, b: Key) -> Bool { (a.format, a.pageHash) < (b.format, b.pageHash) }
    }

    private var pages: [Key: (locator: String, appliedAt: String)] = [:]

    func insert(format: String, pageHash: String, locator: String, appliedAt: String) {
        pages[Key(format: format, pageHash: pageHash)] = (locator, appliedAt)
    }

    func contains(format: String, pageHash: String) -> Bool {
        pages[Key(format: format, pageHash: pageHash)] != nil
    }

    /// Inserts the pages in the table's key order, and forgets them.
    func write(_ db: Database) throws {
        for (key, page) in pages.sorted(by: { $0.key < $1.key }) {
            try CatalogDatabase.recordApplied(
                format: key.format, pageHash: key.pageHash, locator: page.locator, appliedAt: page.appliedAt, in: db)
        }
        pages.removeAll()
    }

    /// After a rollback: the pages went with it.
    func forgetAll() {
        pages.removeAll()
    }
}

/// The search names a page group added, inserted in rowid order when it commits.
///
/// FTS5 writes its pending terms out as a new segment (and merges segments) whenever a
/// rowid arrives below the previous one, and an artist's rowid is mostly above the next
/// new venue's: inserted as they came, about one insert in three wrote a segment, and
/// each insert cost two to three times what it does in order.
final class PendingSearchNames {
    /// rowid → folded name.
    private var names: [Int64: String] = [:]

    func insert(_ rowID: Int64, _ folded: String) {
        names[rowID] = folded
    }

    /// Renames a name still waiting; false when it is not (it is in the table).
    func replace(_ rowID: Int64, _ folded: String) -> Bool {
        guard names[rowID] != nil else { return false }
        names[rowID] = folded
        return true
    }

    /// Drops a name still waiting; false when it is not.
    func remove(_ rowID: Int64) -> Bool {
        names.removeValue(forKey: rowID) != nil
    }

    /// Inserts the waiting names, lowest rowid first, and forgets them.
    func write(_ db: Database) throws {
        for (rowID, folded) in names.sorted(by: { $0.key < $1.key }) {
            try SearchIndex.insert(db, rowID: rowID, folded: folded)
        }
        names.removeAll()
    }

    /// After a rollback: the names went with the rows they named.
    func forgetAll() {
        names.removeAll()
    }
}
