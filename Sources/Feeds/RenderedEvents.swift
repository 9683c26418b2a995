import Foundation
import Listings

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every event's list entry, rendered once per build.
///
/// An event is listed on its metro page, its venue page and the band page of every act
/// on its bill (a festival on dozens of them); loading and rendering it for each list was
/// most of a build. Feed JSON is compact, so an entry is the same bytes in any list.
/// Entries go to a file and are read back with `pread`: memory stays flat however big the
/// catalog. (Mapped, every page a list touched counted as the build's own memory until
/// released, and band pages touch the whole store.)
///
/// Appending happens on one thread; after ``seal()`` the store is read-only and any
/// thread may read it (hence `@unchecked Sendable`).
final class RenderedEvents: @unchecked Sendable {
    /// Where an event's bytes are: its list entry, its map pin, its entry in HTML lists,
    /// its entry in Atom feeds, one after the other.
    struct Span: Equatable {
        var offset: Int
        var count: Int
        /// The event's pin on its metro area's map (a GeoJSON event stub), right after
        /// the entry; 0 when its venue has no coordinates and so no pin.
        var pinCount: Int = 0
        /// ``listKey(of:)`` of the event when it was rendered.
        var listKey: UInt64 = 0
        /// The event's `<li>` in HTML lists (``SiteHTML/entry(_:)``), after the pin.
        var htmlCount: Int = 0
        /// The event's Atom `<entry>` (``AtomFeed/entry(_:)``), after the HTML.
        var atomCount: Int = 0
        /// When the event was first seen (seconds since the epoch; 0: unknown), which
        /// orders and filters Atom feeds.
        var firstSeen: Int64 = 0
        /// The event's venue-local day as `yyyymmdd`, which groups HTML lists by day.
        var day: Int = 0

        /// Bytes from the entry to the end of the Atom entry.
        var total: Int { count + pinCount + htmlCount + atomCount }
    }

    private let descriptor: Int32
    private(set) var spans = EventTable<Span>()
    private var pending: [UInt8] = []
    /// Bytes of entries in the file.
    private(set) var flushed = 0
    private var sealed = false

    init(directory: String = NSTemporaryDirectory()) throws {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
        template += Array("encore-events-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw FeedWriteError(path: directory, code: errno) }
        // Nobody else needs the file: unlinked now, it disappears with the process.
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    /// A store kept between builds at `path`: continuing the entries a previous build
    /// left (appending after them), or a new one.
    init(path: String, continuing previous: (spans: EventTable<Span>, length: Int)?) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | (previous == nil ? O_TRUNC : 0), 0o644)
        guard descriptor >= 0 else { throw FeedWriteError(path: path, code: errno) }
        self.descriptor = descriptor
        if let previous {
            spans = previous.spans
            flushed = previous.length
            recordsPlaces = true
        }
    }

    deinit {
        close(descriptor)
    }

    /// An event as lists show it.
    static func render(_ event: EventDetail) -> [UInt8] {
        var json = FeedJSONWriter(capacity: 512)
        EventSummary(event).write(to: &json)
        return json.bytes
    }

    /// An event as its metro area's map shows it; empty when it is not on the map.
    static func pin(_ event: EventDetail) -> [UInt8] {
        guard event.venue?.latitude != nil, event.venue?.longitude != nil else { return [] }
        var json = FeedJSONWriter(capacity: 256)
        GeoJSON.EventStub(EventPin(id: event.id, title: event.title, start: event.start, status: event.status, venue: nil))
            .write(to: &json)
        return json.bytes
    }

    /// What decides which lists show an event and where: its dates and time (the order
    /// of every list, and the window's edges), its venue, metro area and acts (who lists
    /// it), whether it is listed, whether it has a map pin and when it was first seen. An event whose key is
    /// unchanged keeps its place in every list, so a list can swap its entry's bytes.
    static func listKey(of event: EventDetail) -> UInt64 {
        // Numbers, not text: the full build computes this for every event.
        func day(_ date: LocalDate?) -> Int64 { date.map { Int64($0.year * 10_000 + $0.month * 100 + $0.day) } ?? -1 }
        let pinned = event.venue?.latitude != nil && event.venue?.longitude != nil
        var values: [Int64] = [
            day(event.start.localDate), Int64(event.start.localTime?.secondsSinceMidnight ?? -1), day(event.endDate),
            event.venue?.id ?? 0, event.metroArea?.id ?? 0, event.unlistedSince == nil ? 0 : 1, pinned ? 1 : 0,
            // Atom feeds choose and order their entries by it.
            event.firstSeen?.secondsSinceEpoch ?? 0,
        ]
        values += Set(event.lineup.map(\.artistID)).sorted()
        return values.withUnsafeBytes { FeedFileHash.of($0) }
    }

    func contains(_ id: Int64) -> Bool { spans[id] != nil }

    /// What a build keeps of an event besides its concert page.
    struct Rendering: Sendable {
        var entry: [UInt8]
        var pin: [UInt8]
        var listKey: UInt64
        var place: Place?
        var html: [UInt8]
        var atom: [UInt8]
        var firstSeen: Int64
        var day: Int

        init(_ event: EventDetail) {
            entry = RenderedEvents.render(event)
            pin = RenderedEvents.pin(event)
            listKey = RenderedEvents.listKey(of: event)
            place = event.venue.map { Place(venueID: $0.id, metroAreaID: event.metroArea?.id) }
            html = Array(SiteHTML.entry(event).utf8)
            atom = Array(AtomFeed.entry(event).utf8)
            firstSeen = event.firstSeen?.secondsSinceEpoch ?? 0
            day = RenderedEvents.day(event.start.localDate)
        }
    }

    struct Place: Sendable {
        var venueID: Int64
        var metroAreaID: Int64?
    }

    /// Venues and metro areas of the events appended by this build, when it continues
    /// the last one's entries (an incremental build's plan reads them; a full build needs none).
    private(set) var places: [Int64: Place] = [:]
    private var recordsPlaces = false

    func append(_ id: Int64, _ rendering: Rendering) throws {
        if recordsPlaces { places[id] = rendering.place }
        try append(
            id, rendering.entry, pin: rendering.pin, listKey: rendering.listKey, html: rendering.html, atom: rendering.atom,
            firstSeen: rendering.firstSeen, day: rendering.day)
    }

    func append(
        _ id: Int64, _ entry: [UInt8], pin: [UInt8] = [], listKey: UInt64 = 0, html: [UInt8] = [], atom: [UInt8] = [],
        firstSeen: Int64 = 0, day: Int = 0
    ) throws {
        precondition(!sealed, "appending to sealed rendered events")
        spans[id] = Span(
            offset: flushed + pending.count, count: entry.count, pinCount: pin.count, listKey: listKey,
            htmlCount: html.count, atomCount: atom.count, firstSeen: firstSeen, day: day)
        pending.append(contentsOf: entry)
        pending.append(contentsOf: pin)
        pending.append(contentsOf: html)
        pending.append(contentsOf: atom)
        if pending.count >= 1 << 20 { try flush() }
    }

    /// Ends appending; entries can be read from now on.
    func seal() throws {
        try flush()
        // A store continued from a file may be longer than what it holds now.
        if ftruncate(descriptor, off_t(flushed)) != 0 { throw FeedWriteError(path: "rendered events", code: errno) }
        sealed = true
    }

    /// The bytes of an event's entry; nil before ``seal()``.
    func entry(_ id: Int64) -> [UInt8]? {
        spans[id].flatMap { entry(at: $0) }
    }

    /// The entry at a span, this build's or (in a continued store) the last build's.
    func entry(at span: Span) -> [UInt8]? {
        bytes(span.offset, span.count)
    }

    /// The map pin at a span; empty when the event has none.
    func pin(at span: Span) -> [UInt8]? {
        bytes(span.offset + span.count, span.pinCount)
    }

    /// The HTML list entry at a span.
    func html(at span: Span) -> [UInt8]? {
        bytes(span.offset + span.count + span.pinCount, span.htmlCount)
    }

    /// The Atom entry at a span.
    func atom(at span: Span) -> [UInt8]? {
        bytes(span.offset + span.count + span.pinCount + span.htmlCount, span.atomCount)
    }

    /// Whether two spans hold the same entry, pin, HTML and Atom entries.
    func bytes(at a: Span, equal b: Span) -> Bool {
        guard a.count == b.count, a.pinCount == b.pinCount, a.htmlCount == b.htmlCount, a.atomCount == b.atomCount,
            let first = bytes(a.offset, a.total), let second = bytes(b.offset, b.total)
        else { return false }
        return first == second
    }

    /// `yyyymmdd` of a day.
    static func day(_ date: LocalDate) -> Int { date.year * 10_000 + date.month * 100 + date.day }

    private func bytes(_ offset: Int, _ count: Int) -> [UInt8]? {
        guard sealed, offset >= 0, count >= 0, offset + count <= flushed else { return nil }
        var complete = true
        // Uninitialized: the bytes are about to be read over.
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let read = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                guard read > 0 else { break }
                done += read
            }
            complete = done == count
            initialized = done
        }
        return complete ? bytes : nil
    }

    private func flush() throws {
        try pending.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = pwrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset, off_t(flushed + offset))
                guard count > 0 else { throw FeedWriteError(path: "rendered events", code: errno) }
                offset += count
            }
        }
        flushed += pending.count
        pending.removeAll(keepingCapacity: true)
    }
}

/// The events of a list page: details rendered in place, or entries rendered once and
/// spliced (``RenderedEvents``). Both write the same bytes.
enum EventList: Sendable, Encodable {
    case details([EventDetail])
    /// Ids in list order; each is in `store` or in `extra` (rendered for this list alone).
    case rendered([Int64], store: RenderedEvents, extra: [Int64: RenderedEvents.Rendering])

    var count: Int {
        switch self {
        case .details(let events): events.count
        case .rendered(let ids, _, _): ids.count
        }
    }

    func write(to json: inout FeedJSONWriter) {
        switch self {
        case .details(let events):
            json.array(events) { json, event in EventSummary(event).write(to: &json) }
        case .rendered(let ids, let store, let extra):
            json.openArray()
            for id in ids {
                json.element()
                if let entry = store.entry(id) {
                    entry.withUnsafeBufferPointer { json.splice($0) }
                } else if let entry = extra[id]?.entry {
                    entry.withUnsafeBufferPointer { json.splice($0) }
                }
            }
            json.closeArray()
        }
    }

    func encode(to encoder: any Encoder) throws {
        guard case .details(let events) = self else {
            throw EncodingError.invalidValue(
                self, .init(codingPath: encoder.codingPath, debugDescription: "rendered entries are written by FeedJSONWriter"))
        }
        var container = encoder.singleValueContainer()
        try container.encode(events.map(EventSummary.init))
    }
}
