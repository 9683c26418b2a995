import Foundation
import GRDB
import Geo
import Listings

/// Source records: each row's provenance, looked up a page at a time, written, and
/// stamped when seen again.
extension PageApplier {
    struct Existing {
        let kind: EntityKind
        let sourceID: String
        let recordID: Int64
        let entityID: Int64
        let contentHash: String
        let payload: String?
        /// The record's page, as stored (unknown, and never needed, when ``isFresh``).
        let url: String?
        /// Known from ``SeenRecords`` to hold this content and a fresh `last_seen`.
        var isFresh = false
        /// Known from ``SeenRecords`` to have a fresh `last_seen` (this run wrote or
        /// stamped it, within ``SeenRecords/stampLifetime``), whatever its content.
        var stampedLately = false

        func moved(to row: Int64) -> Existing {
            Existing(
                kind: kind, sourceID: sourceID, recordID: recordID, entityID: row, contentHash: contentHash,
                payload: payload, url: url, isFresh: isFresh, stampedLately: stampedLately)
        }
    }

    /// Looks up this source's records of `kind` for `sourceIDs` in one query (a page names
    /// hundreds of records, and a query each would dominate applying it).
    mutating func prefetchRecords(_ kind: EntityKind, _ sourceIDs: [String]) throws {
        guard !sourceIDs.isEmpty else { return }
        var list: [UInt8] = [UInt8(ascii: "[")]
        var found: [String: Existing?] = [:]
        found.reserveCapacity(sourceIDs.count)
        // Events are never among the records seen: no key to make for each.
        let seen = SeenRecords.kinds.contains(kind) ? seen : nil
        for sourceID in sourceIDs
        where seen?.knows(.init(source: source, kind: kind, sourceID: sourceID)) != true
            && found.updateValue(nil, forKey: sourceID) == nil
        {
            if list.count > 1 { list.append(UInt8(ascii: ",")) }
            list.appendJSONString(sourceID)
        }
        list.append(UInt8(ascii: "]"))
        // Every id known already: nothing to read.
        if list.count > 2 { try readRecords(kind, listed: list, into: &found) }
        prefetched[kind, default: [:]].merge(found) { _, new in new }
    }

    private func readRecords(_ kind: EntityKind, listed list: [UInt8], into found: inout [String: Existing?]) throws {
        let rows = try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT r.source_id, r.id, r.entity_id, r.content_hash, r.payload, r.url
                FROM json_each(?) ids CROSS JOIN source_record r
                ON r.source = ? AND r.kind = ? AND r.source_id = ids.value
                """),
            binding: { binder in
                binder.bind(String(decoding: list, as: UTF8.self))
                binder.bind(source)
                binder.bind(kind.rawValue)
            }
        ) { row -> (String, Existing) in
            let sourceID = row.text(0)
            return (sourceID, Existing(
                kind: kind, sourceID: sourceID, recordID: row.int64(1), entityID: row.int64(2),
                contentHash: row.text(3), payload: row.optionalText(4), url: row.optionalText(5)))
        }
        while let (sourceID, existing) = try rows.next() { found[sourceID] = existing }
    }

    /// This source's record (or `recordSource`'s) for a source id.
    /// - Parameter contentHash: the content being applied; a record lately seen with it is
    ///   answered from ``SeenRecords`` (without its payload, which only a change needs).
    func existingRecord(
        _ kind: EntityKind, _ sourceID: String, source recordSource: String? = nil, contentHash: String? = nil
    ) throws -> Existing? {
        if let contentHash, let entry = seen?.entry(.init(source: recordSource ?? source, kind: kind, sourceID: sourceID)) {
            if entry.contentHash == contentHash {
                return Existing(
                    kind: kind, sourceID: sourceID, recordID: entry.recordID, entityID: entry.entityID,
                    contentHash: contentHash, payload: nil, url: nil, isFresh: true)
            }
            // Changed since this run wrote or read it (a Bandsintown artist's own page
            // after the bills that named it): what is stored is known without a query.
            if let stored = entry.stored {
                return Existing(
                    kind: kind, sourceID: sourceID, recordID: entry.recordID, entityID: entry.entityID,
                    contentHash: entry.contentHash, payload: stored.payload, url: stored.url, stampedLately: true)
            }
        }
        if recordSource == nil || recordSource == source {
            if let known = prefetched[kind]?[sourceID] { return known }
        }
        return try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT id, entity_id, content_hash, payload, url FROM source_record
                WHERE source = ? AND kind = ? AND source_id = ?
                """),
            binding: { binder in
                binder.bind(recordSource ?? source)
                binder.bind(kind.rawValue)
                binder.bind(sourceID)
            }
        ) { row in
            Existing(
                kind: kind, sourceID: sourceID, recordID: row.int64(0), entityID: row.int64(1), contentHash: row.text(2),
                payload: row.optionalText(3), url: row.optionalText(4))
        }.all().first
    }

    /// - Parameter mergeReason: why the record joins a row another source created, for
    ///   `encore explain`.
    mutating func insertRecord(
        _ kind: EntityKind, _ sourceID: String, entityID: Int64, url: String?, hash: String, payload: String?,
        source recordSource: String? = nil, mergeReason: String? = nil
    ) throws {
        if recordSource == nil || recordSource == source { prefetched[kind]?.removeValue(forKey: sourceID) }
        try db.cachedStatement(sql: """
            INSERT INTO source_record (
                source, kind, source_id, entity_id, url, content_hash, payload, first_seen, last_seen, merge_reason, merged_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute { binder in
                binder.bind(recordSource ?? source)
                binder.bind(kind.rawValue)
                binder.bind(sourceID)
                binder.bind(entityID)
                binder.bind(url)
                binder.bind(hash)
                binder.bind(payload)
                binder.bind(timestamp)
                binder.bind(timestamp)
                binder.bind(mergeReason)
                binder.bind(mergeReason == nil ? nil : timestamp)
            }
        let key = SeenRecords.Key(source: recordSource ?? source, kind: kind, sourceID: sourceID)
        seen?.learn(
            key,
            .init(recordID: db.lastInsertedRowID, entityID: entityID, contentHash: hash, stored: .init(payload: payload, url: url)))
        seen?.recordInserted(key, row: entityID)
    }

    /// Stamps a record seen. `mention` is the hash of what this listing said when it is
    /// not the stored one but says nothing new (a lean mention of a richer record): the
    /// next mention like it is then known unchanged without a query.
    mutating func touchRecord(_ existing: Existing, mention: String? = nil) {
        guard !existing.isFresh else { return }
        if !existing.stampedLately { touched.insert(existing.recordID) }
        seen?.learn(
            .init(source: source, kind: existing.kind, sourceID: existing.sourceID),
            .init(
                recordID: existing.recordID, entityID: existing.entityID, contentHash: mention ?? existing.contentHash,
                stored: .init(payload: existing.payload, url: existing.url)))
    }

    func touchSeenRecords() throws {
        guard !touched.isEmpty else { return }
        let ids = CatalogDatabase.jsonArray(touched.sorted())
        try db.cachedStatement(
            sql: """
                UPDATE source_record SET last_seen = ?1 FROM json_each(?2) ids
                WHERE source_record.id = ids.value AND source_record.last_seen <> ?1
                """
        ).execute { binder in
            binder.bind(timestamp)
            binder.bind(ids)
        }
    }

    /// Returns whether the record's page (its url, shown among a row's sources) moved.
    /// `existing` is never one known fresh (that content is not updated), so its stored
    /// url was read with it.
    @discardableResult
    mutating func updateRecord(_ existing: Existing, url: String?, hash: String, payload: String?) throws -> Bool {
        assert(!existing.isFresh, "a record known unchanged is updated")
        let stored = existing.url
        let moved = url != nil && stored != url
        prefetched[existing.kind]?.removeValue(forKey: existing.sourceID)
        seen?.learn(
            .init(source: source, kind: existing.kind, sourceID: existing.sourceID),
            .init(
                recordID: existing.recordID, entityID: existing.entityID, contentHash: hash,
                stored: .init(payload: payload, url: url ?? stored)))
        try db.cachedStatement(sql: """
            UPDATE source_record SET url = COALESCE(?, url), content_hash = ?, payload = ?, last_seen = ? WHERE id = ?
            """).execute { binder in
                binder.bind(url)
                binder.bind(hash)
                binder.bind(payload)
                binder.bind(timestamp)
                binder.bind(existing.recordID)
            }
        return moved
    }

    /// Replaces a changed record's snapshot with `snapshot`, its gaps filled from the
    /// record's last one.
    /// - Returns: nil when the listing says nothing the record does not (a name on a
    ///   bill after the artist's own page said more): it is only stamped seen. Otherwise
    ///   whether the record's page moved (see ``updateRecord(_:url:hash:payload:)``), and
    ///   the snapshot written.
    mutating func update<Snapshot: FillableSnapshot>(
        _ existing: Existing, to snapshot: Snapshot, url: String?, hash: String
    ) throws -> (moved: Bool, snapshot: Snapshot)? {
        var snapshot = snapshot
        let old = try existing.payload.map { try SnapshotCoding.decode(Snapshot.self, from: $0) }
        if let old { snapshot = snapshot.filling(from: old) }
        guard snapshot != old else {
            touchRecord(existing, mention: hash)
            return nil
        }
        return (try updateRecord(existing, url: url, hash: hash, payload: snapshot.payload), snapshot)
    }

    /// The payloads of every record behind a row, most trusted first.
    /// - Parameter known: a record whose snapshot is in hand (its payload is not decoded).
    func snapshots<T: Decodable>(
        _ type: T.Type, kind: EntityKind, entityID: Int64, knowing known: (source: String, sourceID: String, value: T)? = nil
    ) throws -> [(source: String, sourceID: String, value: T)] {
        // With one source in the catalog, an event row has one record: the one in hand.
        // Venues and artists may hold several of one source (spellings, a shared MBID).
        if othersAbsent, kind == .event, let known { return [known] }
        return try Self.recordSnapshots(type, kind: kind, entityID: entityID, knowing: known, in: db)
    }

    /// The catalog row a source record belongs to; nil when there is no such record.
    static func row(ofRecord source: String, _ kind: EntityKind, _ sourceID: String, in db: Database) throws -> Int64? {
        try db.cachedStatement(sql: "SELECT entity_id FROM source_record WHERE source = ? AND kind = ? AND source_id = ?")
            .fetchInt64 { binder in
                binder.bind(source)
                binder.bind(kind.rawValue)
                binder.bind(sourceID)
            }
    }

    static func recordSnapshots<T: Decodable>(
        _ type: T.Type, kind: EntityKind, entityID: Int64, knowing known: (source: String, sourceID: String, value: T)? = nil,
        in db: Database
    ) throws -> [(source: String, sourceID: String, value: T)] {
        // Read straight from SQLite's buffer: a payload is about a kilobyte, and a merge
        // reads one back for every record the event already had.
        let decoded = try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT source, source_id, payload FROM source_record
                WHERE kind = ? AND entity_id = ? AND payload IS NOT NULL
                """),
            arguments: [kind.rawValue, entityID]
        ) { row -> (source: String, sourceID: String, value: T) in
            if let known, row.hasText(0, known.source), row.hasText(1, known.sourceID) { return known }
            let value = try row.withBytes(2) { payload in try SnapshotCoding.decode(type, bytes: payload) }
            return (row.text(0), row.text(1), value)
        }.all()
        return try SourcePrecedence.ordered(decoded, in: db)
    }

    /// Whether a row already has a record from this page's source.
    func hasRecordFromThisSource(_ kind: EntityKind, entityID: Int64) throws -> Bool {
        try sources(ofRow: entityID, kind).contains(source)
    }

    /// The sources with a record on a row.
    func sources(ofRow entityID: Int64, _ kind: EntityKind) throws -> Set<String> {
        if othersAbsent { return [source] }
        if let known = seen?.sources(ofRow: entityID, kind) { return known }
        let statement = try db.cachedStatement(sql: "SELECT DISTINCT source FROM source_record WHERE kind = ? AND entity_id = ?")
        let sources = try Set(ColumnCursor(statement, arguments: [kind.rawValue, entityID]) { $0.text(0) }.all())
        seen?.learnSources(sources, ofRow: entityID, kind)
        return sources
    }
}
