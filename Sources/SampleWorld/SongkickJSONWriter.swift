import Foundation

/// Writes a ``SampleWorld`` as a directory of Songkick API v3 JSON responses, as if each
/// had been recorded from the real API:
///
/// - `songkick-json/metro-areas/{metro id}-calendar-p{page}.json` — every metro area's
///   calendar, paged, events by date then id (the bulk of the output);
/// - `artist-search-{query}.json`, `location-search-{query}.json` — two searches each;
/// - `event-{id}.json` — event details (a festival and a concert with support acts);
/// - `similar-artists-{artist id}.json` — for the most popular artist.
///
/// Calendars are streamed: one page is in memory at a time, so the size of the world is
/// bounded by disk, not memory. The lookups are written afterwards, from what the
/// calendar pass noted on the way (last show per artist, the events worth detailing).
public struct SongkickJSONWriter: Sendable {
    public let world: SampleWorld

    public init(world: SampleWorld) {
        self.world = world
    }

    /// Replaces `directory/songkick-json` (so stale pages of a bigger run never linger)
    /// and writes every response into it.
    public func write(to directory: URL) throws -> WriteSummary {
        let root = directory.appendingPathComponent("songkick-json", isDirectory: true)
        let calendars = root.appendingPathComponent("metro-areas", isDirectory: true)
        let files = FileManager.default
        if files.fileExists(atPath: root.path) {
            try files.removeItem(at: root)
        }
        try files.createDirectory(at: calendars, withIntermediateDirectories: true)
        let encoder = SongkickEventEncoder(world: world)
        var output = Output()
        var notes = CalendarNotes(artistCount: world.artists.count)
        for metroIndex in world.metroAreas.indices {
            try writeCalendar(metroIndex, into: calendars, encoder: encoder, notes: &notes, output: &output)
        }
        try writeLookups(into: root, encoder: encoder, notes: notes, output: &output)
        return output.summary
    }

    /// Writes files and counts what has been written.
    struct Output {
        var summary = WriteSummary()

        /// Plain open/write/close: `Data.write(to:)` fsyncs every file, which makes twenty
        /// thousand calendar pages take several times longer for no benefit to a fixture.
        mutating func save(_ json: JSONBuffer, to url: URL) throws {
            let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try file.write(contentsOf: json.bytes)
            try file.close()
            summary.files += 1
            summary.bytes += json.count
        }
    }

    /// Facts the lookup responses need, gathered while the calendars stream past.
    struct CalendarNotes {
        /// Last day each artist plays (days since 1970), for `onTourUntil`; `Int.min` if none.
        var lastShow: [Int]
        var festival: SampleEvent?
        var concertWithSupport: SampleEvent?

        init(artistCount: Int) {
            lastShow = Array(repeating: Int.min, count: artistCount)
        }

        mutating func note(_ event: SampleEvent) {
            guard event.status != .cancelled else { return }
            let last = (event.endDate ?? event.startDate).daysSince1970
            for performance in event.performances where lastShow[performance.artistIndex] < last {
                lastShow[performance.artistIndex] = last
            }
            guard event.status == .ok else { return }
            if event.kind == .festival {
                if festival == nil { festival = event }
            } else if concertWithSupport == nil, event.performances.count > 1, event.startMinutes != nil {
                concertWithSupport = event
            }
        }
    }

    private func writeCalendar(
        _ metroIndex: Int, into directory: URL, encoder: SongkickEventEncoder,
        notes: inout CalendarNotes, output: inout Output
    ) throws {
        let metroID = world.metroAreas[metroIndex].id
        let total = world.eventCount(inMetroAreaAt: metroIndex)
        let perPage = world.configuration.eventsPerPage
        var json = JSONBuffer(capacity: perPage * 2_500)
        var page = 1
        var onPage = 0
        func finishPage() throws {
            json.raw("]},\"perPage\":")
            json.int(perPage)
            json.raw(",\"page\":")
            json.int(page)
            json.raw(",\"totalEntries\":")
            json.int(total)
            json.raw("}}")
            try output.save(json, to: directory.appendingPathComponent("\(metroID)-calendar-p\(page).json"))
            json.removeAll()
            page += 1
            onPage = 0
        }
        guard total > 0 else {
            // What Songkick returns for an empty calendar: no "event" key at all.
            json.raw("{\"resultsPage\":{\"status\":\"ok\",\"results\":{},\"perPage\":")
            json.int(perPage)
            json.raw(",\"page\":1,\"totalEntries\":0}}")
            try output.save(json, to: directory.appendingPathComponent("\(metroID)-calendar-p1.json"))
            return
        }
        for event in world.events(inMetroAreaAt: metroIndex) {
            if onPage == 0 {
                json.raw("{\"resultsPage\":{\"status\":\"ok\",\"results\":{\"event\":[")
            } else {
                json.raw(",")
            }
            encoder.appendEvent(event, to: &json)
            notes.note(event)
            output.summary.events += 1
            onPage += 1
            if onPage == perPage { try finishPage() }
        }
        if onPage > 0 { try finishPage() }
    }
}
