import Foundation
import Listings

/// Artist and venue records this process has lately written or stamped seen, with the
/// content they had: an act on tour is named on hundreds of pages of a crawl, and each
/// mention would otherwise be looked up and have its `last_seen` written again.
///
/// A mention whose content hash matches an entry is known unchanged without a query and
/// needs no stamp. So `last_seen` is exact to within ``stampLifetime``: entries are
/// forgotten when it passes, and whenever another connection has written the catalog
/// (`PRAGMA data_version`), since it may have merged or moved records.
///
/// Entries learnt by a page are kept only once the page lands; one rolled back takes its
/// entries with it, and a group rolled back forgets everything.
///
/// Only the catalog's writer touches it, inside its transactions (which GRDB runs one at
/// a time).
final class SeenRecords: @unchecked Sendable {
    struct Key: Hashable {
        let source: String
        let kind: EntityKind
        let sourceID: String
    }

    struct Entry {
        let recordID: Int64
        let entityID: Int64
        let contentHash: String
    }

    static let stampLifetime: TimeInterval = 60
    /// Kinds worth remembering: events are named once a crawl, metro areas rarely.
    static let kinds: Set<EntityKind> = [.artist, .venue]

    /// By kind, so that forgetting one kind (after every artist merge) costs nothing.
    private var entries: [EntityKind: [Key: Entry]] = [:]
    private var learntOnThisPage: [Key: Entry] = [:]
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
        learntOnThisPage[key] ?? entries[key.kind]?[key]
    }

    func learn(_ key: Key, _ entry: Entry) {
        guard Self.kinds.contains(key.kind) else { return }
        learntOnThisPage[key] = entry
    }

    func pageLanded() {
        for (key, entry) in learntOnThisPage { entries[key.kind, default: [:]][key] = entry }
        learntOnThisPage.removeAll(keepingCapacity: true)
    }

    func pageRolledBack() {
        learntOnThisPage.removeAll(keepingCapacity: true)
    }

    /// Records of `kind` moved between catalog rows.
    func forget(_ kind: EntityKind) {
        entries[kind] = nil
        learntOnThisPage = learntOnThisPage.filter { $0.key.kind != kind }
    }

    func forgetAll() {
        entries.removeAll()
        learntOnThisPage.removeAll()
        epoch = nil
    }
}
