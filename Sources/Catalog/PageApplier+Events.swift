import GRDB
import Geo
import Listings

extension PageApplier {
    /// Applies one event record: a new event, a merge into another source's listing of
    /// the same concert, an update, or nothing when the record is unchanged.
    /// - Parameter hashes: the listing's content hashes, when made in advance.
    mutating func upsert(_ event: EventListing, hashes: PageContentHashes.Event? = nil) throws -> Change {
        let venueID = try event.venue.map { try upsert($0, hash: hashes?.venue) }
        func snapshotAndPayload() -> (EventSnapshot, payload: String) {
            let snapshot = EventSnapshot(event, venueID: venueID)
            return (snapshot, snapshot.payload)
        }
        let hash = hashes?.event ?? event.contentHash
        func upsertLineup(corroboratedBy acts: [String: Int64]) throws {
            for (index, performance) in event.lineup.enumerated() {
                _ = try upsert(
                    performance.artist, corroboratedBy: acts, hash: hashes?.acts[index])
            }
        }
        if let existing = try existingRecord(.event, event.sourceID) {
            try upsertLineup(corroboratedBy: try actKeys(existing.entityID))
            if existing.contentHash == hash {
                touchRecord(existing)
                return .unchanged
            }
            let (snapshot, payload) = snapshotAndPayload()
            try updateRecord(existing, url: event.url, hash: hash, payload: payload)
            try rebuildEvent(existing.entityID, knowing: (event.sourceID, snapshot))
            return .updated
        }
        let (snapshot, payload) = snapshotAndPayload()
        if let venueID,
            let candidate = try eventCandidate(for: event, venueID: venueID)
                ?? (displaceWorseRecord(for: event, venueID: venueID) ? eventCandidate(for: event, venueID: venueID) : nil)
        {
            let merges = artistMerges
            let sets = try setsToTakeIn(event, venueID: venueID, joining: candidate.id)
            try upsertLineup(corroboratedBy: Self.actKeys(candidate.stored.acts).merging(try actKeys(ofSets: sets)) { a, _ in a })
            try insertRecord(
                .event, event.sourceID, entityID: candidate.id, url: event.url, hash: hash, payload: payload,
                mergeReason: candidate.reason)
            // What the search read still stands: an artist merged away on the way may
            // be on the bill read, but never on the rebuilt one, which then differs
            // and is written.
            try rebuildEvent(
                candidate.id, recordAdded: true, knowing: (event.sourceID, snapshot),
                stored: candidate.stored, billStillNamesArtists: artistMerges == merges)
            resolved[.event, default: [:]][event.sourceID] = candidate.id
            // Now listed by this source too: never a candidate for its other events.
            let key = "\(venueID) \(event.start.localDate)"
            candidateMemo[key]?.removeAll { $0.id == candidate.id }
            if takenMemo[key]?.contains(candidate.id) == false { takenMemo[key] = (takenMemo[key]! + [candidate.id]).sorted() }
            try takeIn(sets, into: candidate.id)
            return .merged
        }
        if let venueID, let festival = try festivalCandidate(for: event, venueID: venueID) {
            let sets = try setsToTakeIn(event, venueID: venueID, joining: festival.id)
            try upsertLineup(corroboratedBy: try actKeys(festival.id).merging(try actKeys(ofSets: sets)) { a, _ in a })
            try insertRecord(
                .event, event.sourceID, entityID: festival.id, url: event.url, hash: hash, payload: payload,
                mergeReason: festival.reason)
            try rebuildEvent(festival.id, knowing: (event.sourceID, snapshot))
            resolved[.event, default: [:]][event.sourceID] = festival.id
            try takeIn(sets, into: festival.id)
            return .merged
        }
        let sets = try setsToTakeIn(event, venueID: venueID, joining: nil)
        try upsertLineup(corroboratedBy: try actKeys(ofSets: sets))
        let merged = merge([(source, event.sourceID, snapshot)]) { [resolved] _, artistSourceID in
            resolved[.artist]?[artistSourceID]
        }
        let id = try write(merged, into: nil)
        try insertRecord(.event, event.sourceID, entityID: id, url: event.url, hash: hash, payload: payload)
        resolved[.event, default: [:]][event.sourceID] = id
        try takeIn(sets, into: id)
        return .new
    }

    /// Name key → artist id of an event's acts.
    func actKeys(_ eventID: Int64) throws -> [String: Int64] {
        Self.actKeys(try acts(of: eventID))
    }

    private static func actKeys(_ acts: [Act]) -> [String: Int64] {
        var keys: [String: Int64] = [:]
        for act in acts where keys[act.key] == nil { keys[act.key] = act.id }
        return keys
    }

    /// An act on a stored bill.
    struct Act {
        let key: String
        let name: String
        let id: Int64
        let billing: String
        let position: Int
    }

    /// An event's acts in bill order.
    private func acts(of eventID: Int64) throws -> [Act] {
        try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT a.match_key, a.name, a.id, l.billing, l.position FROM lineup l JOIN artist a ON a.id = l.artist_id
                WHERE l.event_id = ? ORDER BY l.position
                """),
            arguments: [eventID]
        ) { row in Act(key: row.text(0), name: row.text(1), id: row.int64(2), billing: row.text(3), position: row.int(4)) }
            .all()
    }

    /// An event as stored: what rebuilding it compares with, read once.
    struct StoredEvent: Sendable {
        /// ``eventColumns``, in order.
        let columns: [DatabaseValue]
        let acts: [Act]
    }

    /// Another source's event a listing joins, and why.
    struct Candidate: Sendable {
        let id: Int64
        let reason: String
        let stored: StoredEvent
    }

    /// Another source's event at a venue on a day, with its bill and the columns a
    /// rebuild compares.
    struct CandidateEvent: Sendable {
        let id: Int64
        let title: String
        let time: String?
        let columns: [DatabaseValue]
        var acts: [Act]
    }

    private static let candidatesSQL = """
        SELECT e.id, \(eventColumns.names.map { "e." + $0 }.joined(separator: ", ")),
            a.match_key, a.name, a.id, l.billing, l.position
        FROM event e LEFT JOIN lineup l ON l.event_id = e.id LEFT JOIN artist a ON a.id = l.artist_id
        WHERE e.venue_id = ? AND e.local_date = ? AND NOT EXISTS (
            SELECT 1 FROM source_record r WHERE r.kind = 'event' AND r.entity_id = e.id AND r.source = ?)
        """

    /// The events at a venue on a local date that `source` does not list (two records of
    /// one source are never merged), by id, each bill in order.
    static func candidateEvents(
        venueID: Int64, localDate: String, excluding source: String, in db: Database
    ) throws -> [CandidateEvent] {
        // Each comes with its bill and the columns a rebuild compares, in one statement.
        var candidates: [CandidateEvent] = []
        let rows = try ColumnCursor(
            try db.cachedStatement(sql: Self.candidatesSQL),
            binding: { binder in
                binder.bind(venueID)
                binder.bind(localDate)
                binder.bind(source)
            }
        ) { row in
            // Rows come in no particular order (sorted below: cheaper than SQLite's
            // sorter, for a handful of rows).
            let id = row.int64(0)
            var index = candidates.firstIndex { $0.id == id }
            if index == nil {
                let stored = (1...Int32(Self.eventColumns.names.count)).map { row.databaseValue($0) }
                candidates.append(
                    CandidateEvent(id: id, title: row.text(1), time: row.optionalText(5), columns: stored, acts: []))
                index = candidates.count - 1
            }
            let act = Int32(Self.eventColumns.names.count) + 1
            guard let index, !row.isNull(act + 2) else { return }
            candidates[index].acts.append(Act(
                key: row.text(act), name: row.text(act + 1), id: row.int64(act + 2), billing: row.text(act + 3),
                position: row.int(act + 4)))
        }
        while try rows.next() != nil {}
        candidates.sort { $0.id < $1.id }
        for index in candidates.indices where candidates[index].acts.count > 1 {
            candidates[index].acts.sort { $0.position < $1.position }
        }
        return candidates
    }

    /// Another source's event this listing joins.
    private mutating func eventCandidate(for event: EventListing, venueID: Int64) throws -> Candidate? {
        if othersAbsent { return nil }
        let localDate = event.start.localDate.description
        if candidateMemoMerges != artistMerges {
            candidateMemo = [:]
            takenMemo = [:]
            candidateMemoMerges = artistMerges
        }
        let key = "\(venueID) \(localDate)"
        let candidates: [CandidateEvent]
        if let known = candidateMemo[key] {
            candidates = known
        } else {
            candidates = try Self.candidateEvents(venueID: venueID, localDate: localDate, excluding: source, in: db)
            candidateMemo[key] = candidates
        }
        return Self.candidate(for: event, venueID: venueID, among: candidates)
    }

    /// Another source's event at the same venue on the same local date sharing at least
    /// one act: one at the same local time first (an early and a late show share their
    /// bill), then one within ``sameShowMinutes`` (doors versus show time), then one whose
    /// time is unknown on either side, then the one sharing most acts, then the oldest.
    /// Two known times further apart are two shows (a matinee and the evening show), never
    /// merged. A credit featuring a guest ("A feat. B") shares each of its acts. A listing
    /// with an empty bill (how Songkick lists cancelled shows, and some festivals) shares
    /// an act when its title names one, or when both titles are the same.
    /// - Parameter candidates: the ``candidateEvents(venueID:localDate:excluding:in:)``.
    static func candidate(
        for event: EventListing, venueID: Int64, among candidates: [CandidateEvent]
    ) -> Candidate? {
        // Most events have no other event at their venue that day.
        guard !candidates.isEmpty else { return nil }
        var keys = Set(event.lineup.map { MatchKey.of($0.artist.name) })
        for performance in event.lineup {
            keys.formUnion(MatchKey.featuredActs(performance.artist.name).map(MatchKey.of))
        }
        let time = event.start.localTime?.description
        var best: (rank: (time: Int, shared: Int), index: Int, note: String, sameTime: Bool)?
        var sharing = 0
        for (index, candidate) in candidates.enumerated() {
            let acts = candidate.acts
            var shared = acts.filter { act in
                keys.contains(act.key) || MatchKey.featuredActs(act.name).contains { keys.contains(MatchKey.of($0)) }
            }.map(\.name)
            var byTitle = false
            if shared.isEmpty, event.lineup.isEmpty {
                shared = acts.map(\.name).filter { MatchKey.title(event.title, names: $0) }
                byTitle = true
            } else if shared.isEmpty, acts.isEmpty {
                shared = event.lineup.map(\.artist.name).filter { MatchKey.title(candidate.title, names: $0) }
                byTitle = true
            }
            // A festival listed without its bill names no act: the same title says it.
            var sameTitle = false
            if shared.isEmpty, event.lineup.isEmpty || acts.isEmpty, MatchKey.of(event.title) == MatchKey.of(candidate.title) {
                shared = [candidate.title]
                sameTitle = true
            }
            // Two listings without a bill (a cancelled show, a listing titled by its
            // headliner): one's title names the other's ("Os Lobos Elétricos" in "Os Lobos
            // Elétricos with Chapel Moon at …").
            if shared.isEmpty, event.lineup.isEmpty, acts.isEmpty {
                if MatchKey.title(event.title, names: candidate.title) {
                    shared = [candidate.title]
                } else if MatchKey.title(candidate.title, names: event.title) {
                    shared = [event.title]
                }
                byTitle = !shared.isEmpty
            }
            guard !shared.isEmpty else { continue }
            sharing += 1
            guard let timeAgreement = Self.timeAgreement(time, candidate.time) else { continue }
            let rank = (time: timeAgreement, shared: shared.count)
            if best == nil || rank > best!.rank {
                let note = sameTitle
                    ? "the same title (\"\(candidate.title)\") on a listing without a bill"
                    : "sharing " + shared.joined(separator: ", ") + (byTitle ? " (named in the title of a listing without a bill)" : "")
                best = (rank, index, note, timeAgreement == 3)
            }
        }
        guard let best else { return nil }
        let chosen = candidates[best.index]
        // Said when the time told two shows of the day apart.
        let at = best.sameTime && sharing > 1 ? " at the same local time (\(time ?? ""))" : ""
        return Candidate(
            id: chosen.id,
            reason: "the same venue (#\(venueID)) and local date (\(event.start.localDate))\(at), \(best.note)",
            stored: StoredEvent(columns: chosen.columns, acts: chosen.acts))
    }

    /// How far apart two known start times of one show can be: a source giving the doors
    /// and another the stage time. Further apart, they are two shows of the day.
    static let sameShowMinutes = 90

    /// Minutes since midnight of a stored `HH:MM:SS` time.
    static func minutes(_ time: String?) -> Int? {
        guard let time, let parsed = LocalTime(iso: time) else { return nil }
        return parsed.secondsSinceMidnight / 60
    }

    /// Rebuilds an event from all its records.
    /// - Parameter recordAdded: the rebuild follows a record joining the event, so the
    ///   records before it are all still there, unchanged.
    /// - Parameter known: this source's record just written, whose payload need not be
    ///   read back and decoded.
    /// - Parameter stored: the event as stored, when read already.
    /// - Parameter billStillNamesArtists: no artist on the stored bill was merged away
    ///   since it was read.
    func rebuildEvent(
        _ id: Int64, recordAdded: Bool = false, knowing known: (sourceID: String, snapshot: EventSnapshot)? = nil,
        stored: StoredEvent? = nil, billStillNamesArtists: Bool = false
    ) throws {
        let known = known.map { (source: source, sourceID: $0.sourceID, value: $0.snapshot) }
        let records = try snapshots(EventSnapshot.self, kind: .event, entityID: id, knowing: known)
        guard !records.isEmpty else { return }
        // A record joining an event that had one: the stored bill is that record's acts
        // in its order, unless some shared an artist or had none (then it is shorter).
        var billed: (source: String, artists: [String: Int64])?
        if recordAdded, billStillNamesArtists, let stored, let known, records.count == 2,
            let other = records.first(where: { $0.source != source || $0.sourceID != known.sourceID })
        {
            let acts = other.value.lineup.sorted { $0.order < $1.order }
            if acts.count == stored.acts.count {
                billed = (other.source, [:])
                for (act, storedAct) in zip(acts, stored.acts) { billed?.artists[act.artistSourceID] = storedAct.id }
            }
        }
        let sellers = try SourcePrecedence.ticketSellers(among: records, in: db)
        let merged = try merge(records, sellers: sellers) { [resolved] source, artistSourceID in
            // This page's acts were all resolved before the event.
            if source == self.source, let id = resolved[.artist]?[artistSourceID] { return id }
            if source == billed?.source, let id = billed?.artists[artistSourceID] { return id }
            let key = SeenRecords.Key(source: source, kind: .artist, sourceID: artistSourceID)
            if let id = seen?.row(of: key) { return id }
            let id = try Self.row(ofRecord: source, .artist, artistSourceID, in: db)
            if let id { seen?.learnRow(id, of: key) }
            return id
        }
        _ = try write(merged, into: id, recordAdded: recordAdded, stored: stored)
    }

    /// One event from its records, most trusted first: each field from the first record
    /// that has it; the status from a ticket seller when one lists it; the lineup the
    /// union of the records' lineups, in the most trusted record's order. An act another
    /// source already named on this bill is that act (Last.fm's "Low" on the bill of a
    /// Songkick "Low" is the Songkick band, whichever "Low" its record joined).
    /// - Parameter sellers: the records' sources that sell tickets.
    func merge(
        _ records: [(source: String, sourceID: String, value: EventSnapshot)], sellers: Set<String> = [],
        artistID: (String, String) throws -> Int64?
    ) rethrows -> MergedEvent {
        // On a festival's row, the records listing it whole decide its fields; its sets
        // add their acts, each with its day and time as its slot.
        let whole = records.filter { $0.value.isWholeFestival }
        let records = whole.isEmpty ? records : whole + records.filter { !$0.value.isWholeFestival }
        let festivalRow = !whole.isEmpty
        let snapshots = records.map(\.value)
        func first<T>(_ field: (EventSnapshot) -> T?) -> T? { snapshots.lazy.compactMap(field).first }
        var merged = MergedEvent(base: snapshots[0])
        merged.base.localTime = first(\.localTime)
        merged.base.timeZone = first(\.timeZone)
        merged.base.utc = first(\.utc)
        merged.base.endDate = first(\.endDate)
        merged.base.venueID = first(\.venueID)
        merged.base.url = first(\.url)
        merged.base.popularity = first(\.popularity)
        merged.base.ageRestriction = first(\.ageRestriction)
        merged.base.note = first(\.note)
        if let seller = records.first(where: { sellers.contains($0.source) }) {
            merged.base.status = seller.value.status
        }
        var seen = Set<Int64>()
        var namedBy: [String: String] = [:]
        var namedID: [String: Int64] = [:]
        // Names are compared across records only: a new event has one.
        let comparesNames = records.count > 1
        for record in records {
            let slot = festivalRow && !record.value.isWholeFestival ? (record.value.localDate, record.value.localTime) : nil
            for act in record.value.lineup.sorted(by: { $0.order < $1.order }) {
                let key = comparesNames ? MatchKey.of(act.name) : nil
                if let key, let source = namedBy[key], source != record.source {
                    if let slot, let id = namedID[key], merged.slots[id] == nil { merged.slots[id] = slot }
                    continue
                }
                guard let id = try artistID(record.source, act.artistSourceID) else { continue }
                if let slot, merged.slots[id] == nil { merged.slots[id] = slot }
                guard seen.insert(id).inserted else { continue }
                if let key {
                    namedBy[key] = record.source
                    namedID[key] = id
                }
                merged.lineup.append((id, act.billing, merged.lineup.count + 1))
            }
            for offer in record.value.offers { merged.offers.append((record.source, offer)) }
        }
        return merged
    }

    /// Writes a merged event: a new row when `id` is nil; its lineup and offers replaced.
    /// - Parameter stored: row `id` as stored, when read already.
    func write(_ merged: MergedEvent, into id: Int64?, recordAdded: Bool = false, stored: StoredEvent? = nil) throws -> Int64 {
        let event = merged.base
        func bindFields(_ binder: inout ParameterBinder) {
            binder.bind(event.title)
            binder.bind(event.kind)
            binder.bind(event.status)
            binder.bind(event.localDate)
            binder.bind(event.localTime)
            binder.bind(event.timeZone)
            binder.bind(event.utc)
            binder.bind(event.endDate)
            binder.bind(event.venueID)
            binder.bind(event.popularity)
            binder.bind(event.ageRestriction)
            binder.bind(event.url)
            binder.bind(event.note)
            binder.bind(revision)
        }
        let eventID: Int64
        if let id {
            // A rebuild follows a change of the event's records: its sources changed even
            // when its values did not.
            let (changed, before) = try updateChangedColumnsKeepingStored(
                Self.eventColumns, id: id,
                to: [
                    event.title.databaseValue, event.kind.databaseValue, event.status.databaseValue,
                    event.localDate.databaseValue, event.localTime.databaseValue, event.timeZone.databaseValue,
                    event.utc.databaseValue, event.endDate.databaseValue, event.venueID.databaseValue,
                    event.popularity.databaseValue, event.ageRestriction.databaseValue, event.url.databaseValue,
                    event.note.databaseValue,
                ],
                stampingAnyway: true, stored: stored?.columns)
            if let change = Self.fansChange(changed, before: before, status: EventStatus(rawValue: event.status) ?? .scheduled) {
                try db.cachedStatement(sql: "UPDATE event SET changed_at = ?, change = ? WHERE id = ?")
                    .execute(arguments: [timestamp, change.rawValue, id])
            }
            eventID = id
        } else {
            try db.cachedStatement(sql: """
                INSERT INTO event (title, kind, status, local_date, local_time, timezone, start_utc, end_date,
                    venue_id, popularity, age_restriction, url, note, revision)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(binding: bindFields)
            eventID = db.lastInsertedRowID
        }
        if let endDate = event.endDate {
            // The longest an event lasts, an upper bound that window queries seek by.
            try db.cachedStatement(sql: """
                UPDATE event_span_bound SET max_days = MAX(max_days,
                    COALESCE(CAST(ceil(julianday(?) - julianday(?)) AS INTEGER), 0))
                WHERE id = 1
                """).execute(arguments: [endDate, event.localDate])
        }
        // A rebuilt event's bill and offers are mostly what they were (a source merging
        // in lists the same acts): rewritten only when they differ.
        // A festival's slots are not among what the stored bill is compared by.
        // A cancelled show keeps the bill it had: sources drop a cancelled show's acts
        // (Songkick empties its performances), but its fans are still its band's.
        let keepsBill = id != nil && merged.lineup.isEmpty && event.status == EventStatus.cancelled.rawValue
        if !keepsBill, try id == nil || !merged.slots.isEmpty || !sameLineup(stored?.acts ?? acts(of: eventID), merged.lineup) {
            if id != nil {
                try db.cachedStatement(sql: "DELETE FROM lineup WHERE event_id = ?").execute(arguments: [eventID])
            }
            let lineup = try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO lineup (event_id, artist_id, billing, position, slot_date, slot_time)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
            for act in merged.lineup {
                try lineup.execute { binder in
                    binder.bind(eventID)
                    binder.bind(act.artistID)
                    binder.bind(act.billing)
                    binder.bind(act.position)
                    binder.bind(merged.slots[act.artistID]?.date)
                    binder.bind(merged.slots[act.artistID]?.time)
                }
            }
        }
        // The stored offers are those of the records the event had: when a record joins
        // and no record has offers, none were stored.
        let offersUnchanged = try id == nil || (recordAdded && merged.offers.isEmpty)
            ? merged.offers.isEmpty : sameOffers(eventID, merged.offers)
        guard !offersUnchanged else { return eventID }
        if id != nil { try db.cachedStatement(sql: "DELETE FROM offer WHERE event_id = ?").execute(arguments: [eventID]) }
        let offers = try db.cachedStatement(sql: """
            INSERT INTO offer (event_id, position, source, url, price_min, price_max, currency, status, on_sale)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (position, (source, offer)) in merged.offers.enumerated() {
            try offers.execute { binder in
                binder.bind(eventID)
                binder.bind(position + 1)
                binder.bind(source)
                binder.bind(offer.url)
                binder.bind(offer.priceMin)
                binder.bind(offer.priceMax)
                binder.bind(offer.currency)
                binder.bind(offer.status)
                binder.bind(offer.onSale)
            }
        }
        return eventID
    }

    /// What a fan following the show is told of a rewrite of ``eventColumns`` (`changed`,
    /// from the `before` values): a new status, or a new day, time or venue for a show
    /// still on. A time or venue given where none was known is news to no one.
    static func fansChange(_ changed: [Int], before: [DatabaseValue], status: EventStatus) -> EventChange? {
        let (statusColumn, dateColumn, timeColumn, venueColumn) = (2, 3, 4, 8)
        func was(_ column: Int) -> Bool { changed.contains(column) && before.indices.contains(column) && !before[column].isNull }
        if changed.contains(statusColumn) {
            switch status {
            case .cancelled: return .cancelled
            case .postponed: return .postponed
            case .rescheduled: return .rescheduled
            case .scheduled: return .reinstated
            }
        }
        if was(dateColumn) { return .newDate }
        if was(timeColumn) { return .newTime }
        if was(venueColumn) { return .newVenue }
        return nil
    }

    static let eventColumns = RebuiltColumns("event", [
        "title", "kind", "status", "local_date", "local_time", "timezone", "start_utc", "end_date", "venue_id",
        "popularity", "age_restriction", "url", "note",
    ])

    private func sameLineup(_ stored: [Act], _ lineup: [(artistID: Int64, billing: String, position: Int)]) -> Bool {
        stored.elementsEqual(lineup) { $0.id == $1.artistID && $0.billing == $1.billing && $0.position == $1.position }
    }

    private func sameOffers(_ eventID: Int64, _ offers: [(source: String, offer: EventSnapshot.Offer)]) throws -> Bool {
        let stored = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT source, url, price_min, price_max, currency, status, on_sale FROM offer WHERE event_id = ?
                ORDER BY position
                """),
            arguments: [eventID])
        return stored.elementsEqual(offers) { row, new in
            row[0] == new.source && row[1] == new.offer.url && row[2] == new.offer.priceMin
                && row[3] == new.offer.priceMax && row[4] == new.offer.currency && row[5] == new.offer.status
                && row[6] == new.offer.onSale
        }
    }
}

/// An event as rebuilt from its records, ready to write.
struct MergedEvent {
    var base: EventSnapshot
    var lineup: [(artistID: Int64, billing: String, position: Int)] = []
    var offers: [(source: String, offer: EventSnapshot.Offer)] = []
    /// A festival's acts' days and times, from the sets listed on their own.
    var slots: [Int64: (date: String, time: String?)] = [:]

    init(base: EventSnapshot) {
        self.base = base
    }
}

extension EventSnapshot {
    /// A festival listed as a whole, not one of its sets.
    var isWholeFestival: Bool {
        PageApplier.isWholeFestival(kind: kind, localDate: localDate, endDate: endDate, acts: lineup.count)
    }
}
