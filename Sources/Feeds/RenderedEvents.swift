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
/// Each event's record (``Record``) goes to a file and is read back with `pread`; memory
/// holds where it is, 16 bytes an event. (Mapped, every page a list touched counted as
/// the build's own memory until released, and band pages touch the whole store.)
///
/// Appending happens on one thread; after ``seal()`` the store is read-only and any
/// thread may read it (hence `@unchecked Sendable`).
final class RenderedEvents: @unchecked Sendable {
    /// Where an event's record is in the file: offset and length packed in 64 bits
    /// (offsets under 1 TB, records under 16 MB). With its id that is 16 bytes an event;
    /// everything else about the event is in the record's header, read with its bytes.
    struct Location: Equatable, Sendable {
        let bits: UInt64

        init(offset: Int, length: Int) {
            bits = UInt64(offset) << 24 | UInt64(length)
        }

        init(bits: UInt64) { self.bits = bits }

        var offset: Int { Int(bits >> 24) }
        var length: Int { Int(bits & 0xFF_FFFF) }

        static let maximumLength = 1 << 24 - 1
    }

    /// An event's record: a header, then its list entry, its map pin (a GeoJSON event
    /// stub; empty when its venue has no coordinates), its `<li>` in HTML lists
    /// (``SiteHTML/entry(_:)``) and its Atom `<entry>` (``AtomFeed/entry(_:)``).
    struct Record {
        /// ``listKey(of:)`` of the event when it was rendered.
        let listKey: UInt64
        /// When the event's Atom entry was last updated (first seen, or changed since;
        /// seconds since the epoch; 0: unknown), which orders and filters Atom feeds.
        let firstSeen: Int64
        /// The event's venue-local day as `yyyymmdd`, which groups HTML lists by day.
        let day: Int
        let entry: ArraySlice<UInt8>
        let pin: ArraySlice<UInt8>
        let html: ArraySlice<UInt8>
        let atom: ArraySlice<UInt8>
        /// The whole record, header included.
        let bytes: [UInt8]

        /// listKey, firstSeen, day, then the four parts' lengths.
        static let headerSize = 8 + 8 + 4 + 4 * 4

        static func header(_ rendering: Rendering) -> [UInt8] {
            var header: [UInt8] = []
            header.reserveCapacity(headerSize)
            func append<Integer: FixedWidthInteger>(_ value: Integer) {
                withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) }
            }
            append(rendering.listKey)
            append(rendering.firstSeen)
            append(UInt32(truncatingIfNeeded: rendering.day))
            for part in [rendering.entry, rendering.pin, rendering.html, rendering.atom] { append(UInt32(part.count)) }
            return header
        }

        /// The record of a rendering, as the store would give it back.
        init(_ rendering: Rendering) {
            self.init(Self.header(rendering) + rendering.entry + rendering.pin + rendering.html + rendering.atom)!
        }

        /// The record in `bytes`; nil when they do not hold one whole.
        init?(_ bytes: [UInt8]) {
            guard bytes.count >= Self.headerSize else { return nil }
            func integer<Integer: FixedWidthInteger>(at offset: Int, as: Integer.Type) -> Integer {
                bytes.withUnsafeBytes { Integer(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Integer.self)) }
            }
            listKey = integer(at: 0, as: UInt64.self)
            firstSeen = integer(at: 8, as: Int64.self)
            day = Int(integer(at: 16, as: UInt32.self))
            var start = Self.headerSize
            var parts: [ArraySlice<UInt8>] = []
            for index in 0..<4 {
                let count = Int(integer(at: 20 + 4 * index, as: UInt32.self))
                guard count <= bytes.count - start else { return nil }
                parts.append(bytes[start..<start + count])
                start += count
            }
            guard start == bytes.count else { return nil }
            (entry, pin, html, atom) = (parts[0], parts[1], parts[2], parts[3])
            self.bytes = bytes
        }
    }

    private let descriptor: Int32
    /// This build's records and, in a store continued from the last build, that build's.
    private(set) var locations = EventTable<Location>()
    private var pending: [UInt8] = []
    /// Bytes of records in the file.
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

    /// A store kept between builds at `path`: continuing the records a previous build
    /// left (appending after them), or a new one.
    init(path: String, continuing previous: (locations: EventTable<Location>, length: Int)?) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | (previous == nil ? O_TRUNC : 0), 0o644)
        guard descriptor >= 0 else { throw FeedWriteError(path: path, code: errno) }
        self.descriptor = descriptor
        if let previous {
            locations = previous.locations
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
            AtomFeed.updated(event).secondsSinceEpoch,
        ]
        values += Set(event.lineup.map(\.artistID)).sorted()
        return values.withUnsafeBytes { FeedFileHash.of($0) }
    }

    func contains(_ id: Int64) -> Bool { locations[id] != nil }

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
            firstSeen = AtomFeed.updated(event).secondsSinceEpoch
            day = RenderedEvents.day(event.start.localDate)
        }

        init(entry: [UInt8], pin: [UInt8], listKey: UInt64, html: [UInt8], atom: [UInt8], firstSeen: Int64, day: Int) {
            (self.entry, self.pin, self.listKey, self.html, self.atom, self.firstSeen, self.day) =
                (entry, pin, listKey, html, atom, firstSeen, day)
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
        precondition(!sealed, "appending to sealed rendered events")
        if recordsPlaces { places[id] = rendering.place }
        let header = Record.header(rendering)
        let length = header.count + rendering.entry.count + rendering.pin.count + rendering.html.count + rendering.atom.count
        guard length <= Location.maximumLength else { throw OversizedRecord(event: id, bytes: length) }
        locations[id] = Location(offset: flushed + pending.count, length: length)
        pending.append(contentsOf: header)
        pending.append(contentsOf: rendering.entry)
        pending.append(contentsOf: rendering.pin)
        pending.append(contentsOf: rendering.html)
        pending.append(contentsOf: rendering.atom)
        if pending.count >= 1 << 20 { try flush() }
    }

    /// A record of bytes given as they are (tests).
    func append(
        _ id: Int64, _ entry: [UInt8], pin: [UInt8] = [], listKey: UInt64 = 0, html: [UInt8] = [], atom: [UInt8] = [],
        firstSeen: Int64 = 0, day: Int = 0
    ) throws {
        try append(id, Rendering(entry: entry, pin: pin, listKey: listKey, html: html, atom: atom, firstSeen: firstSeen, day: day))
    }

    /// Ends appending; records can be read from now on.
    func seal() throws {
        try flush()
        // A store continued from a file may be longer than what it holds now.
        if ftruncate(descriptor, off_t(flushed)) != 0 { throw FeedWriteError(path: "rendered events", code: errno) }
        sealed = true
    }

    /// This build's record of an event (or, in a continued store, the last build's);
    /// nil before ``seal()``.
    func record(_ id: Int64) -> Record? {
        locations[id].flatMap { record(at: $0) }
    }

    /// The record at a location, this build's or (in a continued store) the last build's.
    func record(at location: Location) -> Record? {
        bytes(location.offset, location.length).flatMap(Record.init)
    }

    /// The venue-local day (`yyyymmdd`) of an event's record, read from its header alone.
    func day(of id: Int64) -> Int? {
        header(of: id).map { Int($0.day) }
    }

    /// When an event's Atom entry was last updated (seconds since the epoch), read from
    /// its record's header alone.
    func updated(of id: Int64) -> Int64? {
        header(of: id).map(\.updated)
    }

    private func header(of id: Int64) -> (updated: Int64, day: UInt32)? {
        guard let location = locations[id], location.length >= Record.headerSize,
            let bytes = bytes(location.offset + 8, 12)
        else { return nil }
        return bytes.withUnsafeBytes {
            (Int64(littleEndian: $0.loadUnaligned(as: Int64.self)), UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        }
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

/// An event whose list entries, pin, HTML and Atom entries together pass 16 MB.
struct OversizedRecord: Error, CustomStringConvertible {
    let event: Int64
    let bytes: Int
    var description: String { "event \(event) renders \(bytes) bytes of list entries; at most 16 MB fit an entry record" }
}

/// The events of a list page: details rendered in place, or entries rendered once and
/// spliced (``RenderedEvents``). Both write the same bytes.
enum EventList: Sendable, Encodable {
    case details([EventDetail])
    /// Ids in list order; each is in `store` or in `extra` (rendered for this list alone).
    case rendered([Int64], store: RenderedEvents, extra: [Int64: RenderedEvents.Rendering])
    /// A page's records, read once for its JSON and its HTML (``loaded()``).
    case records([(id: Int64, record: RenderedEvents.Record)])

    var count: Int {
        switch self {
        case .details(let events): events.count
        case .rendered(let ids, _, _): ids.count
        case .records(let records): records.count
        }
    }

    /// The list with its records read: a page reads each once for all its renderings.
    func loaded() -> EventList {
        guard case .rendered(let ids, let store, let extra) = self else { return self }
        return .records(ids.compactMap { id in
            (store.record(id) ?? extra[id].map(RenderedEvents.Record.init)).map { (id, $0) }
        })
    }

    /// Each event's record in list order, read from the store as the list goes; none for
    /// a list of details.
    func forEachRecord(_ body: (Int64, RenderedEvents.Record) -> Void) {
        switch self {
        case .details: break
        case .rendered(let ids, let store, let extra):
            for id in ids {
                if let record = store.record(id) ?? extra[id].map(RenderedEvents.Record.init) { body(id, record) }
            }
        case .records(let records):
            for (id, record) in records { body(id, record) }
        }
    }

    func write(to json: inout FeedJSONWriter) {
        switch self {
        case .details(let events):
            json.array(events) { json, event in EventSummary(event).write(to: &json) }
        case .rendered, .records:
            json.openArray()
            forEachRecord { _, record in
                json.element()
                record.entry.withUnsafeBufferPointer { json.splice($0) }
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
