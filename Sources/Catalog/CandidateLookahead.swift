import GRDB
import Listings
import Synchronization

/// Another source's events a new listing may join, with their records, read on the
/// thread that parses pages while the applying thread is busy with earlier ones.
///
/// Merging a second source is bound by the applying thread, and for every event a
/// quarter of its work was this reading: the search at the venue and day, and the other
/// records read back and decoded for the rebuild. The catalog as committed answers both
/// as well, unless this process has since written what they read; ``LookaheadLedger``
/// says when it has, and the applying thread then reads for itself.
struct CandidateLookahead: Sendable {
    /// The venue's row, as this source's venue record named it.
    let venueID: Int64
    /// The ledger's epoch when the reading began.
    let epoch: Int
    /// What the choice was made among.
    let candidates: [PageApplier.CandidateEvent]
    /// The one the listing joins, with its records.
    let chosen: PageApplier.Candidate?

    /// Reads ahead for each of `page`'s events that this source does not list yet and whose
    /// venue is in the catalog; `prepared` is the page's preparation, in event order.
    static func read(
        for page: ListingPage, into prepared: inout [PreparedEvent], epoch: Int, ledger: LookaheadLedger, in db: Database
    ) throws {
        func row(_ kind: EntityKind, _ sourceID: String) throws -> Int64? {
            try PageApplier.row(ofRecord: page.source, kind, sourceID, in: db)
        }
        // A venue new to this source is not in the catalog as committed until the page
        // that named it first lands: guessed by the search its record will make.
        let search = PageApplier(db: db, source: page.source, timestamp: "", revision: 0)
        var venues: [String: Int64?] = [:]
        func venueRow(_ venue: VenueListing) throws -> Int64? {
            if let known = venues[venue.sourceID] { return known }
            let id = try ledger.venueRow(source: page.source, venue.sourceID) {
                try row(.venue, venue.sourceID) ?? search.venueCandidate(for: venue)?.id
            }
            venues[venue.sourceID] = id
            return id
        }
        for (index, event) in page.events.enumerated() {
            // A listing this source has is updated, never searched for.
            guard let venue = event.venue, try row(.event, event.sourceID) == nil,
                let venueID = try venueRow(venue)
            else { continue }
            let candidates = try PageApplier.candidateEvents(
                venueID: venueID, localDate: event.start.localDate.description, excluding: page.source, in: db)
            var chosen = PageApplier.candidate(
                for: event, venueID: venueID, actKeys: prepared[index].actKeys, among: candidates)
            if let id = chosen?.id {
                chosen?.records = try PageApplier.recordSnapshots(EventSnapshot.self, kind: .event, entityID: id, in: db)
            }
            prepared[index].lookahead = CandidateLookahead(
                venueID: venueID, epoch: epoch, candidates: candidates, chosen: chosen)
        }
    }
}

/// What this process's writer changed that a ``CandidateLookahead`` may have read: events
/// written (by row, and by the venue and day they are at now), artists renamed or merged
/// away (the bills read name them), and, as an epoch, writes it cannot follow (another
/// connection's, or its own outside page groups).
///
/// Nothing is ever unmarked within an epoch: a mark may outlive what it marked (a group
/// rolled back), which only sends the applying thread to read for itself.
final class LookaheadLedger: Sendable {
    private struct VenueDay: Hashable {
        let venueID: Int64
        let localDate: String
    }

    private struct VenueKey: Hashable {
        let source: String
        let sourceID: String
    }

    private struct State {
        /// Set once a group begins after any initial load: during one, reading ahead
        /// would be for nothing.
        var enabled = false
        var epoch = 0
        var dataVersion: Int64?
        var events = Set<Int64>()
        var days = Set<VenueDay>()
        var artists = Set<Int64>()
        /// The reading thread's guesses of the venue row a venue record has or will join.
        var venueRows: [VenueKey: Int64] = [:]

        mutating func newEpoch() {
            epoch += 1
            events.removeAll()
            days.removeAll()
            artists.removeAll()
            venueRows.removeAll()
        }
    }

    /// Marks kept before a new epoch forgets them (and what was read before it).
    private static let markLimit = 1_000_000
    private let state = Mutex(State())

    /// The epoch to stamp a lookahead with, read before it; nil when none is worth reading.
    var epochForReading: Int? {
        state.withLock { $0.enabled ? $0.epoch : nil }
    }

    /// A group's transaction began: another connection's commit since the last one may
    /// have changed anything.
    func groupBegins(dataVersion: Int64) {
        state.withLock { state in
            if state.dataVersion != nil, state.dataVersion != dataVersion { state.newEpoch() }
            state.dataVersion = dataVersion
        }
    }

    /// A group began on a catalog that may merge and whose indexes are all committed
    /// (read ahead without them, a search of a row's records scans the table).
    func enable() {
        state.withLock { $0.enabled = true }
    }

    /// This process wrote outside its page groups (unmarked), and the write is over.
    func writtenOutsideGroups() {
        state.withLock { $0.newEpoch() }
    }

    /// The venue row a venue record belongs to, or the one it will join, as `find` says
    /// the first time it finds one. Only a guess: the applying thread uses what was read
    /// ahead for a venue only when it resolved the record to the same row.
    func venueRow(source: String, _ sourceID: String, find: () throws -> Int64?) rethrows -> Int64? {
        let key = VenueKey(source: source, sourceID: sourceID)
        if let known = state.withLock({ $0.venueRows[key] }) { return known }
        guard let found = try find() else { return nil }
        state.withLock { state in
            state.venueRows[key] = found
            if state.venueRows.count > Self.markLimit { state.newEpoch() }
        }
        return found
    }

    /// An event row, its bill or its records were written; `id` nil for a new row.
    func eventWritten(_ id: Int64?, venueID: Int64?, localDate: String) {
        state.withLock { state in
            // Before reading ahead begins, every write is committed when it does.
            guard state.enabled else { return }
            if let id { state.events.insert(id) }
            if let venueID { state.days.insert(VenueDay(venueID: venueID, localDate: localDate)) }
            if state.events.count + state.days.count > Self.markLimit { state.newEpoch() }
        }
    }

    /// An artist's name changed, or its bills moved to another artist.
    func artistChanged(_ id: Int64) {
        state.withLock { state in
            guard state.enabled else { return }
            state.artists.insert(id)
            if state.artists.count > Self.markLimit { state.newEpoch() }
        }
    }

    /// Whether what `lookahead` read for an event on `localDate` is still what the catalog,
    /// as this writer sees it, holds.
    func stillHolds(_ lookahead: CandidateLookahead, localDate: String) -> Bool {
        state.withLock { state in
            state.epoch == lookahead.epoch
                && !state.days.contains(VenueDay(venueID: lookahead.venueID, localDate: localDate))
                && lookahead.candidates.allSatisfy { candidate in
                    !state.events.contains(candidate.id) && candidate.acts.allSatisfy { !state.artists.contains($0.id) }
                }
        }
    }
}
