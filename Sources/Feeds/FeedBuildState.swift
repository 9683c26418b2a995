import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the last build left, kept beside the feeds (`.<name>.state/state`) so the next
/// build can render only what changed since.
///
/// It names the trees it describes by inode: if the live tree or the spare one is not
/// the directory the state was written for (moved, replaced, deleted by hand), the next
/// build is a full one.
struct FeedBuildState: Equatable {
    /// Bumped when the layout of the state or of any feed document changes: an older
    /// state then forces a full build. The page size is part of it, since the state's
    /// lists say which page each event is on.
    static let formatVersion: Int64 = 10_000 + Int64(FeedBuilder.pageSize) + 100 * SiteHTML.markupVersion

    /// The day the build was for: lists of upcoming events depend on it.
    var today: String
    /// The catalog revision the build read (``CatalogChanges`` are asked since it).
    var revision: Int64
    var liveInode: UInt64
    /// The tree before, kept to become the next build; 0 when there is none.
    var spareInode: UInt64
    /// Every file of the live tree (preserved entries aside), with a hash of its bytes
    /// where one is kept.
    var files: FeedFileHashes
    /// Paths the last build wrote or removed: the spare tree lacks those changes.
    var changedInLastBuild: [String]
    /// Where each event's record is in the store file (``RenderedEvents``).
    var entries: EventTable<RenderedEvents.Location>
    var entriesLength: Int
    /// Events with a concert page.
    var eventPages: [Int64]
    /// Each list page's owner with the events it listed (all pages, in order) and,
    /// for band pages, the similar artists shown.
    var lists: [FeedListOwner: FeedListRecord]
    /// Band page slugs by artist id.
    var slugs: [Int64: String]
}

/// A metro area, venue or artist: something with a paginated list of events.
enum FeedListOwner: Hashable, Comparable {
    case metroArea(Int64)
    case venue(Int64)
    case artist(Int64)

    var code: Int64 {
        switch self {
        case .metroArea: 1
        case .venue: 2
        case .artist: 3
        }
    }

    var id: Int64 {
        switch self {
        case .metroArea(let id), .venue(let id), .artist(let id): id
        }
    }

    init?(code: Int64, id: Int64) {
        switch code {
        case 1: self = .metroArea(id)
        case 2: self = .venue(id)
        case 3: self = .artist(id)
        default: return nil
        }
    }

    static func < (a: Self, b: Self) -> Bool { (a.code, a.id) < (b.code, b.id) }
}

struct FeedListRecord: Equatable {
    /// Upcoming events in list order, then (band pages) recent past ones, oldest first.
    var events: [Int64]
    var similar: [Int64] = []
    /// Files of the list (pages).
    var pages: Int
    /// How many of `events` are paginated upcoming ones; the rest are on the first page.
    var upcoming: Int

    init(events: [Int64], similar: [Int64] = [], pages: Int, upcoming: Int? = nil) {
        self.events = events
        self.similar = similar
        self.pages = pages
        self.upcoming = upcoming ?? events.count
    }
}

extension FeedBuildState {
    /// Bytes of the records the state points at (the store file may hold more).
    var entriesTotal: Int {
        var total = 0
        entries.forEach { total += $1.length }
        return total
    }
}

// MARK: - Storage

extension FeedBuildState {
    static let magic = Array("ENCORE-FEED-STATE\n".utf8)

    /// Writes the state to `path`, a megabyte at a time; `spooledLists` are lists besides
    /// ``lists``, `spooledFiles` files besides those in ``files``; with `allConcertPages`,
    /// every event of ``eventPages`` has its three concert page files too.
    func write(
        to path: String, spooledLists: StateSpool? = nil, spooledFiles: StateSpool? = nil, allConcertPages: Bool = false
    ) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw FeedWriteError(path: path, code: errno) }
        defer { close(descriptor) }
        var out = StateWriter(descriptor: descriptor, path: path)
        try encode(into: &out, spooledLists: spooledLists, spooledFiles: spooledFiles, allConcertPages: allConcertPages)
        try out.flush()
    }

    private func encode(
        into out: inout StateWriter, spooledLists: StateSpool?, spooledFiles: StateSpool?, allConcertPages: Bool
    ) throws {
        out.bytes = Self.magic
        out.int(Self.formatVersion)
        out.string(today)
        out.int(revision)
        out.int(Int64(bitPattern: liveInode))
        out.int(Int64(bitPattern: spareInode))
        let allKinds = Int64(1 << FeedFileHashes.eventExtensions.count - 1)
        out.int(Int64(files.events.count + (allConcertPages ? eventPages.count : 0)))
        try files.events.forEach { id, kinds in
            out.int(id)
            out.int(Int64(kinds))
            try out.flushIfFull()
        }
        if allConcertPages {
            for id in eventPages {
                out.int(id)
                out.int(allKinds)
                try out.flushIfFull()
            }
        }
        out.int(Int64(files.others.count + (spooledFiles?.count ?? 0)))
        for (path, hash) in files.others {
            out.string(path)
            out.int(Int64(bitPattern: hash))
            try out.flushIfFull()
        }
        try spooledFiles?.copy(into: &out)
        out.int(Int64(changedInLastBuild.count))
        for path in changedInLastBuild {
            out.string(path)
            try out.flushIfFull()
        }
        out.int(Int64(entries.count))
        try entries.forEach { id, location in
            out.int(id)
            out.int(Int64(bitPattern: location.bits))
            try out.flushIfFull()
        }
        out.int(Int64(entriesLength))
        // A chunk at a time: a million ids at once would grow the buffer by eight megabytes.
        out.int(Int64(eventPages.count))
        for start in stride(from: 0, to: eventPages.count, by: 1 << 16) {
            out.values(eventPages[start..<min(start + 1 << 16, eventPages.count)])
            try out.flushIfFull()
        }
        out.int(Int64(lists.count + (spooledLists?.count ?? 0)))
        for (owner, record) in lists {
            out.list(owner, record)
            try out.flushIfFull()
        }
        try spooledLists?.copy(into: &out)
        out.int(Int64(slugs.count))
        for (id, slug) in slugs {
            out.int(id)
            out.string(slug)
            try out.flushIfFull()
        }
    }

    /// The day of the state whose first bytes are `bytes`; nil when they do not start a
    /// state of this format.
    static func day(decoding bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.starts(with: Self.magic) else { return nil }
        var input = StateReader(bytes: bytes)
        input.position = Self.magic.count
        guard (try? input.int()) == Self.formatVersion else { return nil }
        return try? input.string()
    }

    /// The state in `bytes`; nil when it is not a state of this format (a full build follows).
    init?(decoding bytes: UnsafeRawBufferPointer) {
        var input = StateReader(bytes: bytes)
        guard bytes.starts(with: Self.magic) else { return nil }
        input.position = Self.magic.count
        do {
            guard try input.int() == Self.formatVersion else { return nil }
            today = try input.string()
            revision = try input.int()
            liveInode = UInt64(bitPattern: try input.int())
            spareInode = UInt64(bitPattern: try input.int())
            let eventFileCount = try input.count()
            files = FeedFileHashes(minimumCapacity: eventFileCount)
            for _ in 0..<eventFileCount {
                let id = try input.int()
                let kinds = try input.int()
                guard (1..<8).contains(kinds) else { return nil }
                files.setEvent(id, kinds: UInt8(kinds))
            }
            for _ in 0..<(try input.count()) {
                let path = try input.string()
                files.insert(path, hash: UInt64(bitPattern: try input.int()))
            }
            changedInLastBuild = try (0..<input.count()).map { _ in try input.string() }
            let entryCount = try input.count()
            entries = EventTable(minimumCapacity: entryCount)
            for _ in 0..<entryCount {
                let id = try input.int()
                entries[id] = RenderedEvents.Location(bits: UInt64(bitPattern: try input.int()))
            }
            entriesLength = Int(try input.int())
            eventPages = try input.ints()
            let listCount = try input.count()
            lists = Dictionary(minimumCapacity: listCount)
            for _ in 0..<listCount {
                guard let owner = FeedListOwner(code: try input.int(), id: try input.int()) else { return nil }
                lists[owner] = FeedListRecord(
                    events: try input.ints(), similar: try input.ints(), pages: Int(try input.int()),
                    upcoming: Int(try input.int()))
            }
            let slugCount = try input.count()
            slugs = Dictionary(minimumCapacity: slugCount)
            for _ in 0..<slugCount {
                let id = try input.int()
                slugs[id] = try input.string()
            }
            guard input.position == bytes.count else { return nil }
        } catch {
            return nil
        }
    }
}

/// Parts of a build's state written to an unlinked file as the build goes, and copied
/// into the state at the end, so a full build does not hold them: the list records
/// (every list's events, each event several times over) and the paths and hashes of the
/// files other than concert pages.
final class StateSpool {
    private var out: StateWriter
    private(set) var count = 0

    init(directory: String) throws {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
        template += Array("spool-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw FeedWriteError(path: directory, code: errno) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        out = StateWriter(descriptor: descriptor, path: directory + "/spool")
    }

    deinit { close(out.descriptor) }

    func append(_ owner: FeedListOwner, _ record: FeedListRecord) throws {
        out.list(owner, record)
        count += 1
        try out.flushIfFull()
    }

    func append(_ path: String, hash: UInt64) throws {
        out.string(path)
        out.int(Int64(bitPattern: hash))
        count += 1
        try out.flushIfFull()
    }

    /// Appends every record written so far to `state`.
    fileprivate func copy(into state: inout StateWriter) throws {
        try out.flush()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while true {
            let read = buffer.withUnsafeMutableBytes { pread(out.descriptor, $0.baseAddress!, $0.count, off_t(offset)) }
            guard read >= 0 else { throw FeedWriteError(path: out.path, code: errno) }
            guard read > 0 else { return }
            state.bytes.append(contentsOf: buffer[0..<read])
            offset += read
            try state.flushIfFull()
        }
    }
}

private struct StateWriter {
    let descriptor: Int32
    let path: String
    var bytes: [UInt8] = []

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
        bytes.reserveCapacity(1 << 21)
    }

    mutating func flushIfFull() throws {
        if bytes.count >= 1 << 20 { try flush() }
    }

    mutating func flush() throws {
        try bytes.withUnsafeBytes { try writeAll($0, to: descriptor, path: path) }
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func int(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A count, then the values: a byte at a time, writing the state took four times as long.
    mutating func ints(_ values: [Int64]) {
        int(Int64(values.count))
        self.values(values[...])
    }

    /// The values without their count.
    mutating func values(_ values: ArraySlice<Int64>) {
        if Int64(1).littleEndian == 1 {
            values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        } else {
            for value in values { int(value) }
        }
    }

    mutating func string(_ value: String) {
        int(Int64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    mutating func list(_ owner: FeedListOwner, _ record: FeedListRecord) {
        int(owner.code)
        int(owner.id)
        ints(record.events)
        ints(record.similar)
        int(Int64(record.pages))
        int(Int64(record.upcoming))
    }
}

private struct StateReader {
    struct Truncated: Error {}

    let bytes: UnsafeRawBufferPointer
    var position = 0

    mutating func int() throws -> Int64 {
        guard position + 8 <= bytes.count else { throw Truncated() }
        let value = bytes.loadUnaligned(fromByteOffset: position, as: Int64.self)
        position += 8
        return Int64(littleEndian: value)
    }

    /// A count, checked against what is left so a damaged file cannot ask for huge arrays.
    mutating func count() throws -> Int {
        let value = try int()
        guard value >= 0, value <= bytes.count - position else { throw Truncated() }
        return Int(value)
    }

    mutating func ints() throws -> [Int64] {
        let count = try count()
        guard count <= (bytes.count - position) / 8 else { throw Truncated() }
        let start = position
        position += count * 8
        return [Int64](unsafeUninitializedCapacity: count) { values, initialized in
            UnsafeMutableRawBufferPointer(values).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start..<start + count * 8]))
            for index in 0..<count { values[index] = Int64(littleEndian: values[index]) }
            initialized = count
        }
    }

    mutating func string() throws -> String {
        let length = try count()
        defer { position += length }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<position + length]), as: UTF8.self)
    }
}

/// A 64-bit hash of a file's bytes (xxHash64's construction): tells whether a document
/// changed without reading the file it would replace.
enum FeedFileHash {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    static func of(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { of(UnsafeRawBufferPointer($0)) }
    }

    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        func rotate(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }
        func round(_ acc: UInt64, _ input: UInt64) -> UInt64 { rotate(acc &+ input &* p2, 31) &* p1 }
        func merge(_ acc: UInt64, _ value: UInt64) -> UInt64 { (acc ^ round(0, value)) &* p1 &+ p4 }
        func word(_ at: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        let count = bytes.count
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            var v1 = p1 &+ p2, v2 = p2, v3: UInt64 = 0, v4 = 0 &- p1
            while offset + 32 <= count {
                v1 = round(v1, word(offset))
                v2 = round(v2, word(offset + 8))
                v3 = round(v3, word(offset + 16))
                v4 = round(v4, word(offset + 24))
                offset += 32
            }
            hash = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
            hash = merge(merge(merge(merge(hash, v1), v2), v3), v4)
        } else {
            hash = p5
        }
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash = rotate(hash ^ round(0, word(offset)), 27) &* p1 &+ p4
            offset += 8
        }
        while offset < count {
            hash = rotate(hash ^ (UInt64(bytes[offset]) &* p5), 11) &* p1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= p2
        hash ^= hash >> 29
        hash &*= p3
        hash ^= hash >> 32
        return hash
    }
}

/// The files of a tree, by path, with a hash of each one's bytes (``FeedFileHash``) where
/// it is kept.
///
/// Concert pages (JSON, HTML and `.ics`) are most of a tree's files: they are kept by event
/// id as a bit per kind, without hashes. With hashes (and, before that, as path strings)
/// they were most of what a full build of a million events held. A concert page is
/// rendered again only when its event changed, and is then compared with the file itself.
struct FeedFileHashes: Equatable, Sendable {
    /// The extensions of a concert page's files, in the order of their bits.
    static let eventExtensions = ["json", "html", "ics"]

    /// A bit per kind of concert page file present.
    private(set) var events = EventTable<UInt8>()
    private(set) var others: [String: UInt64] = [:]
    private(set) var count = 0

    init() {}

    init(minimumCapacity: Int) {
        events = EventTable(minimumCapacity: minimumCapacity)
    }

    func contains(_ path: String) -> Bool {
        if let (id, kind) = Self.eventFile(path) { return (events[id] ?? 0) & (1 << kind) != 0 }
        return others[path] != nil
    }

    /// The hash of the file's bytes; nil when it is absent or a concert page's.
    func hash(of path: String) -> UInt64? {
        Self.eventFile(path) == nil ? others[path] : nil
    }

    /// Adds a file, or replaces its hash.
    mutating func insert(_ path: String, hash: UInt64) {
        if let (id, kind) = Self.eventFile(path) {
            let kinds = events[id] ?? 0
            guard kinds & (1 << kind) == 0 else { return }
            events[id] = kinds | (1 << kind)
        } else {
            guard others.updateValue(hash, forKey: path) == nil else { return }
        }
        count += 1
    }

    /// Removes a file; false when it was not there.
    @discardableResult
    mutating func remove(_ path: String) -> Bool {
        if let (id, kind) = Self.eventFile(path) {
            guard let kinds = events[id], kinds & (1 << kind) != 0 else { return false }
            events[id] = kinds == 1 << kind ? nil : kinds & ~(1 << kind)
        } else {
            guard others.removeValue(forKey: path) != nil else { return false }
        }
        count -= 1
        return true
    }

    /// Marks an event's concert page files present (a bit per kind).
    mutating func setEvent(_ id: Int64, kinds: UInt8) {
        count += kinds.nonzeroBitCount - (events[id]?.nonzeroBitCount ?? 0)
        events[id] = kinds
    }

    /// The id and kind (the index of its extension in ``eventExtensions``) of a concert
    /// page's file, `events/{id}.json` as the builder writes it (so `events/007.json` is
    /// another file, kept by path).
    static func eventFile(_ path: String) -> (id: Int64, kind: Int)? {
        let utf8 = path.utf8
        guard utf8.count >= 12, path.hasPrefix("events/") else { return nil }
        let kind: Int
        if path.hasSuffix(".json") { kind = 0 } else if path.hasSuffix(".html") { kind = 1 } else if path.hasSuffix(".ics") {
            kind = 2
        } else {
            return nil
        }
        let digits = utf8.dropFirst(7).dropLast(kind == 2 ? 4 : 5)
        guard !digits.isEmpty, digits.count <= 18, digits.first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
        var id: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            id = id * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return (id, kind)
    }
}
