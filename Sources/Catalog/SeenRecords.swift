import Foundation
import Listings

/// Artist and venue records this process has lately written or stamped seen, with the
/// content they had: an act on tour is named on hundreds of pages of a crawl, and each
/// mention would otherwise be looked up and have its `last_seen` written again.
///
/// A mention whose content hash matches an entry is known unchanged without a query and
/// needs no stamp; one that changes the record finds its stored snapshot and page in the
/// entry (a few hundred bytes a record, for a minute at most). So `last_seen` is exact
/// to within ``stampLifetime``: entries are forgotten when it passes, and whenever
/// another connection has written the catalog (`PRAGMA data_version`), since it may
/// have merged or moved records.
///
/// It also remembers what merging asks of other sources' records again and again: the
/// row a record belongs to, and which sources have records on a row. An artist merge
/// moves what it knows to the row that stays; another connection's write forgets it all.
/// A Songkick act on tour is on the bill of every Last.fm event merging into its shows.
///
/// Entries learnt by a page are kept only once the page lands; one rolled back takes its
/// entries with it, and a group rolled back forgets everything.
///
/// Only the catalog's writer touches it, inside its transactions (which GRDB runs one at
/// a time).
// @unchecked: only the writer's connection touches it, and GRDB runs its transactions one at a time.
final class SeenRecords: @unchecked Sendable {
    struct Key: Hashable {
        let source: String
        let kind: EntityKind
        let sourceID: String
        /// Its strings hashed once: a key is looked up in two tables or three, and moved
        /// from one to another as its page lands.
        private let hash: Int

        init(source: String, kind: EntityKind, sourceID: String) {
            self.source = source
            self.kind = kind
            self.sourceID = sourceID
            var hasher = Hasher()
            hasher.combine(source)
            hasher.combine(kind)
            hasher.combine(sourceID)
            hash = hasher.finalize()
        }

        static func == (a: Key, b: Key) -> Bool {
            a.hash == b.hash && a.kind == b.kind && a.sourceID == b.sourceID && a.source == b.source
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }
    }

    struct Entry {
        let recordID: Int64
        let entityID: Int64
        /// The content last applied, or that of a leaner mention known to add nothing to it.
        let contentHash: String
        /// The record as stored, when the writer had it in hand.
        var stored: StoredRecord?
    }

    struct StoredRecord {
        let payload: String?
        let url: String?
    }

    static let stampLifetime: TimeInterval = 60
    /// Kinds worth remembering: events are named once a crawl, metro areas rarely.
    static let kinds: Set<EntityKind> = [.artist, .venue]

    private var entries: [Key: Entry] = [:]
    private var learntOnThisPage: [Key: Entry] = [:]
    /// Only records that exist (a record is never deleted).
    private var rows: [Key: Int64] = [:]
    private var rowsLearntOnThisPage: [Key: Int64] = [:]
    /// Rows merged away, and the row their records moved to.
    private var moved: [EntityKind: [Int64: Int64]] = [:]
    private var movedLearntOnThisPage: [EntityKind: [Int64: Int64]] = [:]
    private var sources: [EntityKind: [Int64: Set<String>]] = [:]
    /// `.some(nil)`: what was known is no longer true.
    private var sourcesLearntOnThisPage: [EntityKind: [Int64: Set<String>?]] = [:]
    private var epoch: Date?
    private var dataVersion: Int64?

    /// Called as a group opens.
    func groupOpens(at date: Date, dataVersion: Int64) {
        let expired = epoch.map { date < $0 || date.timeIntervalSince($0) >= Self.stampLifetime } ?? true
        if expired || dataVersion != self.dataVersion {
            forgetAll()
            epoch = date
        }
        self.dataVersion = dataVersion
    }

    func entry(_ key: Key) -> Entry? {
        guard let entry = learntOnThisPage[key] ?? entries[key] else { return nil }
        let row = current(entry.entityID, key.kind)
        return row == entry.entityID
            ? entry : Entry(recordID: entry.recordID, entityID: row, contentHash: entry.contentHash, stored: entry.stored)
    }

    /// Whether a record has an entry (what ``entry(_:)`` says without making it).
    func knows(_ key: Key) -> Bool {
        learntOnThisPage.index(forKey: key) != nil || entries.index(forKey: key) != nil
    }

    /// Where a row's records are now: the row, or the one it was merged into.
    private func current(_ row: Int64, _ kind: EntityKind) -> Int64 {
        guard !moved.isEmpty || !movedLearntOnThisPage.isEmpty else { return row }
        var row = row
        while let next = movedLearntOnThisPage[kind]?[row] ?? moved[kind]?[row] { row = next }
        return row
    }

    func learn(_ key: Key, _ entry: Entry) {
        guard Self.kinds.contains(key.kind) else { return }
        learntOnThisPage[key] = entry
    }

    /// The catalog row a record belongs to.
    func row(of key: Key) -> Int64? {
        if let entry = entry(key) { return entry.entityID }
        return (rowsLearntOnThisPage[key] ?? rows[key]).map { current($0, key.kind) }
    }

    func learnRow(_ row: Int64, of key: Key) {
        rowsLearntOnThisPage[key] = row
    }

    /// The sources with a record on a row.
    func sources(ofRow row: Int64, _ kind: EntityKind) -> Set<String>? {
        if let learnt = sourcesLearntOnThisPage[kind]?[row] { return learnt }
        return sources[kind]?[row]
    }

    func learnSources(_ sources: Set<String>, ofRow row: Int64, _ kind: EntityKind) {
        sourcesLearntOnThisPage[kind, default: [:]][row] = sources
    }

    /// A record was written on a row: what is known of the row's sources now includes it.
    func recordInserted(_ key: Key, row: Int64) {
        if var known = sources(ofRow: row, key.kind), known.insert(key.source).inserted {
            learnSources(known, ofRow: row, key.kind)
        }
    }

    func pageLanded() {
        entries.merge(learntOnThisPage) { _, new in new }
        learntOnThisPage.removeAll(keepingCapacity: true)
        rows.merge(rowsLearntOnThisPage) { _, new in new }
        rowsLearntOnThisPage.removeAll(keepingCapacity: true)
        for (kind, learnt) in movedLearntOnThisPage { moved[kind, default: [:]].merge(learnt) { _, new in new } }
        movedLearntOnThisPage.removeAll(keepingCapacity: true)
        for (kind, learnt) in sourcesLearntOnThisPage {
            for (row, known) in learnt { sources[kind, default: [:]][row] = known }
        }
        sourcesLearntOnThisPage.removeAll(keepingCapacity: true)
    }

    func pageRolledBack() {
        learntOnThisPage.removeAll(keepingCapacity: true)
        rowsLearntOnThisPage.removeAll(keepingCapacity: true)
        movedLearntOnThisPage.removeAll(keepingCapacity: true)
        sourcesLearntOnThisPage.removeAll(keepingCapacity: true)
    }

    /// Every record of row `removed` moved to row `kept` (an artist merge).
    func recordsMoved(_ kind: EntityKind, from removed: Int64, to kept: Int64) {
        movedLearntOnThisPage[kind, default: [:]][removed] = kept
        let merged = sources(ofRow: kept, kind).flatMap { kept in sources(ofRow: removed, kind).map(kept.union) }
        sourcesLearntOnThisPage[kind, default: [:]][kept] = .some(merged)
        sourcesLearntOnThisPage[kind, default: [:]][removed] = .some([])
    }

    func forgetAll() {
        entries.removeAll()
        learntOnThisPage.removeAll()
        rows.removeAll()
        rowsLearntOnThisPage.removeAll()
        moved.removeAll()
        movedLearntOnThisPage.removeAll()
        sources.removeAll()
        sourcesLearntOnThisPage.removeAll()
        epoch = nil
    }
}
