import Foundation

/// The formats the sample world can be written in, by their `--formats` names.
public enum SampleFormat: String, CaseIterable, Sendable, Hashable {
    case songkickJSON = "songkick-json"
    case songkickXML = "songkick-xml"
    case bandsintown
    case ticketmaster
    case lastfmXML = "lastfm-xml"
    case lastfmJSON = "lastfm-json"
    case jsonld
    case seatgeek

    /// The directory under the output directory the format's files go to (replaced on each write).
    public var directoryName: String {
        switch self {
        case .songkickJSON: "songkick-json"
        case .songkickXML: "songkick-xml"
        case .bandsintown: "bandsintown"
        case .ticketmaster: "ticketmaster"
        case .lastfmXML: "lastfm-xml"
        case .lastfmJSON: "lastfm-json"
        case .jsonld: "jsonld"
        case .seatgeek: "seatgeek"
        }
    }
}

extension SampleWorld {
    /// Writes the world in every format of `formats` under `directory`, each in its own
    /// folder, and `labels.tsv` when a format other than Songkick's is among them.
    /// The result adds up every file written, labels included.
    public func write(formats: Set<SampleFormat>, to directory: URL) throws -> WriteSummary {
        var total = WriteSummary()
        let sources = Self.needsLabels(formats) ? SourceWorld(world: self) : nil
        for format in SampleFormat.allCases where formats.contains(format) {
            total = total + (try write(format, to: directory, sources: sources))
        }
        if let sources, Self.needsLabels(formats) {
            total = total + (try LabelWriter(sources: sources).write(formats: formats, to: directory))
        }
        return total
    }

    /// Writes the world in one format under `directory/<format directory>`.
    public func write(_ format: SampleFormat, to directory: URL) throws -> WriteSummary {
        try write(format, to: directory, sources: nil)
    }

    /// Writes `directory/labels.tsv` for the records `formats` write: one row per source
    /// record (`source`, `source_event_id`, `concert_key`) after a header row with those
    /// names. Every record of one concert has the same `concert_key`.
    public func writeLabels(for formats: Set<SampleFormat>, to directory: URL) throws -> WriteSummary {
        try LabelWriter(sources: SourceWorld(world: self)).write(formats: formats, to: directory)
    }

    /// Labels are only worth writing when a second source is involved; with Songkick
    /// alone (the default) the output directory holds exactly the Songkick files.
    static func needsLabels(_ formats: Set<SampleFormat>) -> Bool {
        formats.contains { $0.sampleSource != .songkick }
    }

    private func write(_ format: SampleFormat, to directory: URL, sources: SourceWorld?) throws -> WriteSummary {
        switch format {
        case .songkickJSON: return try SongkickJSONWriter(world: self).write(to: directory)
        case .songkickXML: return try SongkickXMLWriter(world: self).write(to: directory)
        default: break
        }
        let sources = sources ?? SourceWorld(world: self)
        switch format {
        case .bandsintown: return try BandsintownWriter(sources: sources).write(to: directory)
        case .ticketmaster: return try TicketmasterWriter(sources: sources).write(to: directory)
        case .lastfmXML: return try LastFMWriter(sources: sources, encoding: .xml).write(to: directory)
        case .lastfmJSON: return try LastFMWriter(sources: sources, encoding: .json).write(to: directory)
        case .seatgeek: return try SeatGeekWriter(sources: sources).write(to: directory)
        default: return try JSONLDWriter(sources: sources).write(to: directory)
        }
    }
}

extension WriteSummary {
    public static func + (lhs: WriteSummary, rhs: WriteSummary) -> WriteSummary {
        WriteSummary(files: lhs.files + rhs.files, events: lhs.events + rhs.events, bytes: lhs.bytes + rhs.bytes)
    }
}

/// Writes `labels.tsv`: which source records are the same concert.
struct LabelWriter {
    let sources: SourceWorld

    func write(formats: Set<SampleFormat>, to directory: URL) throws -> WriteSummary {
        let listed = SampleSource.allCases.filter { source in formats.contains { $0.sampleSource == source } }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("labels.tsv")
        var output = SampleFileOutput()
        var tsv = JSONBuffer(capacity: 1 << 20)
        // With realistic variations, a fourth column names each record's variation classes.
        let classified = sources.realistic
        tsv.raw(classified ? "source\tsource_event_id\tconcert_key\tvariations\n" : "source\tsource_event_id\tconcert_key\n")
        let file = try output.create(url)
        var rows = 0
        for listing in sources.listings() {
            for source in listed where listing.sources.contains(source) {
                let records: [(id: String, classes: [String], key: String?)] = switch source {
                case .bandsintown where classified: sources.bandsintownRecords(listing).map { ($0.id, $0.classes, nil) }
                case .ticketmaster: sources.ticketmasterRecords(listing).map { ($0.id, $0.classes, $0.key) }
                default: [(sources.recordID(listing, in: source), sources.classes(of: listing), nil)]
                }
                for (id, classes, key) in records {
                    tsv.plain(source.name)
                    tsv.raw("\t")
                    tsv.plain(id)
                    tsv.raw("\t")
                    tsv.plain(key ?? listing.key)
                    if classified {
                        tsv.raw("\t")
                        tsv.plain(classes.isEmpty ? "plain" : classes.joined(separator: ","))
                    }
                    tsv.raw("\n")
                    rows += 1
                }
            }
            if tsv.count > 1 << 20 - 4096 {
                try output.write(tsv, to: file)
                tsv.removeAll()
            }
        }
        try output.write(tsv, to: file)
        try file.close()
        output.summary.events = rows
        return output.summary
    }
}

/// Plain open/write/close file output that counts what it wrote (see `SongkickJSONWriter.Output`
/// for why not `Data.write(to:)`).
struct SampleFileOutput {
    var summary = WriteSummary()

    /// Replaces `root` with an empty directory (so stale files of a bigger run never linger).
    static func replaceDirectory(_ root: URL, creating subdirectory: String? = nil) throws -> URL {
        let files = FileManager.default
        if files.fileExists(atPath: root.path) {
            try files.removeItem(at: root)
        }
        let target = subdirectory.map { root.appendingPathComponent($0, isDirectory: true) } ?? root
        try files.createDirectory(at: target, withIntermediateDirectories: true)
        return target
    }

    mutating func save(_ buffer: JSONBuffer, to url: URL) throws {
        let file = try create(url)
        try write(buffer, to: file)
        try file.close()
    }

    /// Opens a new file for writing; counts it.
    mutating func create(_ url: URL) throws -> FileHandle {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        summary.files += 1
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Appends to a file, creating it if needed (without counting it).
    mutating func append(_ bytes: [UInt8], to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try file.write(contentsOf: bytes)
        try file.close()
        summary.bytes += bytes.count
    }

    mutating func write(_ buffer: JSONBuffer, to file: FileHandle) throws {
        guard buffer.count > 0 else { return }
        try file.write(contentsOf: buffer.bytes)
        summary.bytes += buffer.count
    }
}

/// Files assembled record by record in an order other than their own — an artist's
/// events arrive scattered through the date-ordered stream — in bounded memory: bytes
/// wait in per-file buffers and are appended to the files whenever the buffers together
/// pass `limit`.
struct AppendingFiles {
    private var pending: [Int: [UInt8]] = [:]
    private var pendingBytes = 0
    private let limit: Int
    private let url: (Int) -> URL

    init(limit: Int = 8 << 20, url: @escaping (Int) -> URL) {
        self.limit = limit
        self.url = url
    }

    mutating func append(_ key: Int, _ buffer: JSONBuffer, output: inout SampleFileOutput) throws {
        pending[key, default: []].append(contentsOf: buffer.bytes)
        pendingBytes += buffer.count
        if pendingBytes >= limit { try flush(output: &output) }
    }

    mutating func flush(output: inout SampleFileOutput) throws {
        for key in pending.keys.sorted() {
            try output.append(pending[key]!, to: url(key))
        }
        pending.removeAll(keepingCapacity: true)
        pendingBytes = 0
    }
}

extension SourceWorld {
    /// The id a source gives an event's record (what its ingester records as the source id).
    func recordID(_ listing: SourcedEvent, in source: SampleSource) -> String {
        let id = listing.event.id
        switch source {
        case .songkick:
            return String(id)
        case .ticketmaster:
            return ticketmasterID(id)
        case .bandsintown:
            if let lookalike = listing.lookalike { return String(2_000_000_000 + lookalike.rawValue * 100_000_000 + id) }
            return String(1_000_000_000 + permuted(id, salt: 0xB17))
        case .lastfm:
            return String(1_000_000 + permuted(id, salt: 0x1A57))
        case .jsonld:
            return jsonldURL(listing.event) + "#event"
        case .seatgeek:
            return String(5_000_000 + permuted(id, salt: 0x5EA7))
        }
    }

    /// Discovery API ids look like `vvG1YZfILuXDvK` or `G5diZfg1p1-L8`: a prefix, then
    /// (here) five digits that are unique per key and five that are not.
    func ticketmasterID(_ key: Int) -> String {
        let prefixes = ["vvG1", "G5di", "vv17", "Z7r9", "1AvZ"]
        var rng = details(key, .ticketmaster)
        let tail = rng.int(below: 916_132_832)
        return prefixes[rng.int(below: prefixes.count)] + Self.base62(permuted(key, salt: 0x7E), count: 5)
            + Self.base62(tail, count: 5)
    }

    /// The event's page on its venue's site (or on a listings site for venues without one).
    func jsonldURL(_ event: SampleEvent) -> String {
        let number = String(permuted(event.id, salt: 0x15D))
        guard let venue = event.venueIndex else { return "https://listings.example/events/\(number)" }
        if let website = world.venues[venue].website {
            return (website.hasSuffix("/") ? website : website + "/") + "events/" + number
        }
        return "https://listings.example/venues/\(world.venues[venue].id)/events/\(number)"
    }
}

extension JSONBuffer {
    /// `YYYY-MM-DD`.
    mutating func isoDate(_ date: SampleDate) {
        let (year, month, day) = date.civil
        padded(year, width: 4)
        raw("-")
        padded(month, width: 2)
        raw("-")
        padded(day, width: 2)
    }

    /// `HH:MM:SS` for minutes after midnight.
    mutating func clock(_ minutes: Int) {
        padded(minutes / 60, width: 2)
        raw(":")
        padded(minutes % 60, width: 2)
        raw(":00")
    }

    /// `+01:00` (with the colon, as ISO 8601 and schema.org write it).
    mutating func isoOffset(_ seconds: Int) {
        raw(seconds < 0 ? "-" : "+")
        padded(abs(seconds) / 3600, width: 2)
        raw(":")
        padded(abs(seconds) % 3600 / 60, width: 2)
    }

    /// The UTC instant of a local time as `2026-12-05T19:00:00Z`.
    mutating func utcInstant(_ date: SampleDate, minutes: Int, offsetSeconds: Int) {
        let total = date.daysSince1970 * 1440 + minutes - offsetSeconds / 60
        let day = total >= 0 ? total / 1440 : (total - 1439) / 1440
        isoDate(SampleDate(daysSince1970: day))
        raw("T")
        clock(total - day * 1440)
        raw("Z")
    }

    /// A coordinate in degrees as a JSON string (`"51.5432"`), as Bandsintown and Ticketmaster send them.
    mutating func quotedDegrees(_ value: Double) {
        raw("\"")
        degrees(value)
        raw("\"")
    }
}

extension SampleDate {
    /// 0 for Sunday … 6 for Saturday (1970-01-01 was a Thursday).
    var weekday: Int {
        ((daysSince1970 % 7) + 11) % 7
    }

    static let weekdayAbbreviations = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
}
