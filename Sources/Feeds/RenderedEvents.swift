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
/// Entries go to an unlinked temporary file, mapped for reading once all are written:
/// memory stays flat however big the catalog.
///
/// Appending happens on one thread; after ``seal()`` the store is read-only and any
/// thread may read it (hence `@unchecked Sendable`).
final class RenderedEvents: @unchecked Sendable {
    struct Span: Equatable {
        var offset: Int
        var count: Int
    }

    private let descriptor: Int32
    private(set) var spans: [Int64: Span] = [:]
    private var pending: [UInt8] = []
    /// Bytes of entries in the file.
    private(set) var flushed = 0
    private var mapped: UnsafeRawBufferPointer?

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
    init(path: String, continuing previous: (spans: [Int64: Span], length: Int)?) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | (previous == nil ? O_TRUNC : 0), 0o644)
        guard descriptor >= 0 else { throw FeedWriteError(path: path, code: errno) }
        self.descriptor = descriptor
        if let previous {
            spans = previous.spans
            flushed = previous.length
        }
    }

    deinit {
        if let mapped { munmap(UnsafeMutableRawPointer(mutating: mapped.baseAddress), mapped.count) }
        close(descriptor)
    }

    /// An event as lists show it.
    static func render(_ event: EventDetail) -> [UInt8] {
        var json = FeedJSONWriter(capacity: 2048)
        event.write(to: &json)
        return json.bytes
    }

    func contains(_ id: Int64) -> Bool { spans[id] != nil }

    func append(_ id: Int64, _ entry: [UInt8]) throws {
        precondition(mapped == nil, "appending to sealed rendered events")
        spans[id] = Span(offset: flushed + pending.count, count: entry.count)
        pending.append(contentsOf: entry)
        if pending.count >= 1 << 20 { try flush() }
    }

    /// Ends appending and maps the entries for reading.
    func seal() throws {
        try flush()
        // A store continued from a file may be longer than what it holds now.
        if ftruncate(descriptor, off_t(flushed)) != 0 { throw FeedWriteError(path: "rendered events", code: errno) }
        guard flushed > 0, mapped == nil else { return }
        guard let address = mmap(nil, flushed, PROT_READ, MAP_PRIVATE, descriptor, 0),
            address != UnsafeMutableRawPointer(bitPattern: -1)
        else {
            throw FeedWriteError(path: "rendered events", code: errno)
        }
        mapped = UnsafeRawBufferPointer(start: address, count: flushed)
    }

    /// The bytes of an event's entry, valid while the store lives; nil before ``seal()``.
    func entry(_ id: Int64) -> UnsafeBufferPointer<UInt8>? {
        guard let mapped, let span = spans[id] else { return nil }
        return UnsafeRawBufferPointer(rebasing: mapped[span.offset..<span.offset + span.count])
            .assumingMemoryBound(to: UInt8.self)
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
    case rendered([Int64], store: RenderedEvents, extra: [Int64: [UInt8]])

    var count: Int {
        switch self {
        case .details(let events): events.count
        case .rendered(let ids, _, _): ids.count
        }
    }

    func write(to json: inout FeedJSONWriter) {
        switch self {
        case .details(let events):
            json.array(events) { json, event in event.write(to: &json) }
        case .rendered(let ids, let store, let extra):
            json.openArray()
            for id in ids {
                json.element()
                if let entry = store.entry(id) {
                    json.splice(entry)
                } else if let entry = extra[id] {
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
        try container.encode(events)
    }
}
