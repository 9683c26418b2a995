import Foundation
import Geo
import Listings

/// Builds the static JSON feeds from a catalog: a pipeline of small steps, each adding
/// one kind of file to the tree (Publish's steps over one context).
///
/// Layout (every file has a JSON Schema in `feeds/schema/`):
/// - `index.json`: generated-at, catalog counts, the metro feeds with counts and paths;
/// - `metros/{id}.json` (then `metros/{id}/page-N.json`): a metro area's upcoming events,
///   chronological, 100 per page with stable `next` links; `metros/{id}.geojson`;
/// - `artists/{slug}.json`: band page (upcoming, recent past, similar artists);
/// - `venues/{id}.json`: venue page; `events/{id}.json`: concert page with directions;
/// - `users/{name}/plans.json`, `plans.ics`, `feed.json`;
/// - `search/artists.json`: name → slug, for clients that search without a server.
///
/// Nothing but `index.json`'s `generated_at` depends on the clock, so the same catalog
/// gives byte-identical files.
public struct FeedBuilder {
    public let source: any FeedSource
    public let today: LocalDate
    /// Written to `index.json` only.
    public let generatedAt: UTCInstant

    /// Events per metro feed page.
    public static let pageSize = 100
    /// How far back band pages list past events, and event pages are kept.
    public static let recentDays = 90
    /// How far ahead feeds reach.
    public static let horizonDays = 365

    public init(source: any FeedSource, today: LocalDate, generatedAt: UTCInstant) {
        self.source = source
        self.today = today
        self.generatedAt = generatedAt
    }

    /// Renders every feed.
    /// - Parameter progress: called before each part (`metro areas`, `band pages`, ...)
    ///   with the number of files rendered so far, for a progress line.
    public func build(progress: (_ part: String, _ filesSoFar: Int) -> Void = { _, _ in }) throws -> FeedTree {
        var tree = FeedTree()
        try build(into: &tree, progress: progress)
        return tree
    }

    /// Renders every feed into `tree`, file by file (a ``FeedTreeWriter/Staging`` writes
    /// each as it comes, so memory stays flat however big the catalog).
    public func build(
        into tree: inout some FeedSink, progress: (_ part: String, _ filesSoFar: Int) -> Void = { _, _ in }
    ) throws {
        let slugs = try artistSlugs()
        progress("metro areas", tree.count)
        try addMetros(to: &tree)
        progress("band pages", tree.count)
        try addArtists(to: &tree, slugs: slugs)
        progress("venue pages", tree.count)
        try addVenues(to: &tree)
        progress("concert pages", tree.count)
        try addEvents(to: &tree)
        progress("fans' lists", tree.count)
        try addUsers(to: &tree)
        progress("search index", tree.count)
        try addSearch(to: &tree, slugs: slugs)
        try addIndex(to: &tree)
    }

    private var window: DateWindow { DateWindow(from: today, to: today.adding(days: Self.horizonDays))! }
    private var recentStart: LocalDate { today.adding(days: -Self.recentDays) }

    private func artistSlugs() throws -> [Int64: String] {
        Slug.unique(try source.artistNames(withEventsSince: recentStart).map { (key: $0.id, name: $0.name) })
    }

    // MARK: - Steps

    private func addIndex(to tree: inout some FeedSink) throws {
        let metros = try source.metroAreas(near: nil, radiusKilometres: nil, today: today)
            .filter { $0.upcomingEvents > 0 }
            .sorted { ($0.metroArea.name, $0.metroArea.id) < ($1.metroArea.name, $1.metroArea.id) }
        let index = FeedIndex(
            generatedAt: generatedAt.description, today: today.description, counts: try source.stats(today: today),
            metros: metros.map {
                FeedIndex.Metro(
                    id: $0.metroArea.id, name: $0.metroArea.name, country: $0.metroArea.country,
                    upcomingEvents: $0.upcomingEvents, path: "metros/\($0.metroArea.id).json",
                    geojson: "metros/\($0.metroArea.id).geojson")
            })
        try tree.add("index.json", FeedJSON.encode(index))
    }

    private func addMetros(to tree: inout some FeedSink) throws {
        let metros = try source.metroAreas(near: nil, radiusKilometres: nil, today: today).filter { $0.upcomingEvents > 0 }
        for metro in metros.sorted(by: { $0.metroArea.id < $1.metroArea.id }) {
            let id = metro.metroArea.id
            let events = try source.events(inMetroAreas: [id], window: window)
            let pages = max(1, (events.count + Self.pageSize - 1) / Self.pageSize)
            func path(_ page: Int) -> String { page == 1 ? "metros/\(id).json" : "metros/\(id)/page-\(page).json" }
            let documents = (1...pages).map { page in
                MetroFeed(
                    metroArea: metro.metroArea, latitude: metro.latitude, longitude: metro.longitude,
                    totalEvents: events.count, page: page, pages: pages,
                    next: page < pages ? path(page + 1) : nil, previous: page > 1 ? path(page - 1) : nil,
                    events: Array(events.dropFirst((page - 1) * Self.pageSize).prefix(Self.pageSize)))
            }
            for (page, data) in zip(1..., try FeedJSON.encodeAll(documents)) {
                try tree.add(path(page), data)
            }
            try tree.add("metros/\(id).geojson", FeedJSON.encode(GeoJSON.venues(of: events)))
        }
    }

    private func addArtists(to tree: inout some FeedSink, slugs: [Int64: String]) throws {
        var batch: [(path: String, document: ArtistFeed)] = []
        for (id, slug) in slugs.sorted(by: { $0.key < $1.key }) {
            guard let upcoming = try source.artistPage(artistID: id, past: false, today: today),
                let past = try source.artistPage(artistID: id, past: true, today: today)
            else { continue }
            let recent = past.events.filter { $0.start.localDate >= recentStart }.reversed()
            batch.append(("artists/\(slug).json", ArtistFeed(
                artist: upcoming.artist, slug: slug, upcoming: upcoming.events, recentPast: Array(recent),
                similar: upcoming.similar.map { ArtistFeed.Similar(id: $0.id, name: $0.name, slug: slugs[$0.id]) })))
            if batch.count == Self.encodingBatch { try add(&batch, to: &tree) }
        }
        try add(&batch, to: &tree)
    }

    private func addVenues(to tree: inout some FeedSink) throws {
        var batch: [(path: String, document: VenuePage)] = []
        for id in try source.venueIDs(withEventsSince: today) {
            guard let page = try source.venuePage(id: id, today: today) else { continue }
            batch.append(("venues/\(id).json", page))
            if batch.count == Self.encodingBatch { try add(&batch, to: &tree) }
        }
        try add(&batch, to: &tree)
    }

    private func addEvents(to tree: inout some FeedSink) throws {
        let ids = try source.eventIDs(since: recentStart)
        for start in stride(from: 0, to: ids.count, by: 500) {
            var batch = try source.events(ids: Array(ids[start..<min(start + 500, ids.count)])).map { event in
                (path: "events/\(event.id).json", document: EventFeed(event: event))
            }
            try add(&batch, to: &tree)
        }
    }

    /// Documents are rendered in batches on every core, then added in order.
    static let encodingBatch = 200

    private func add<Document: Encodable & Sendable>(
        _ batch: inout [(path: String, document: Document)], to tree: inout some FeedSink
    ) throws {
        for (entry, data) in zip(batch, try FeedJSON.encodeAll(batch.map(\.document))) {
            try tree.add(entry.path, data)
        }
        batch.removeAll(keepingCapacity: true)
    }

    private func addUsers(to tree: inout some FeedSink) throws {
        for user in try source.fans() {
            let plans = try source.plans(user: user, past: false, today: today)
            try tree.add("users/\(user)/plans.json", FeedJSON.encode(UserPlansFeed(user: user, plans: plans)))
            let stamp = UTCInstant(date: today, time: LocalTime(hour: 0, minute: 0)!, utcOffsetSeconds: 0)
            let calendar = ICalendar.calendar(name: "\(user)'s concerts", events: plans.map(\.event), stamp: stamp)
            try tree.add("users/\(user)/plans.ics", Data(calendar.utf8))
            // A fan without a home (or tracked city) has no feed yet; skip rather than fail.
            if let entries = try? source.feed(user: user, window: window, markSeen: false) {
                try tree.add("users/\(user)/feed.json", FeedJSON.encode(UserFeed(user: user, entries: entries)))
            }
        }
    }

    private func addSearch(to tree: inout some FeedSink, slugs: [Int64: String]) throws {
        let names = try source.artistNames(withEventsSince: recentStart)
        let entries = names.compactMap { artist in
            slugs[artist.id].map { SearchEntry(name: artist.name, key: NameFolding.fold(artist.name), slug: $0) }
        }.sorted { ($0.key, $0.slug) < ($1.key, $1.slug) }
        try tree.add("search/artists.json", FeedJSON.encode(entries))
    }
}

/// Feed JSON: pretty-printed (people open these in browsers), keys sorted, so equal
/// values are equal bytes.
enum FeedJSON {
    static func encode(_ value: some Encodable) throws -> Data {
        if let document = value as? any FeedJSONWritable {
            var json = FeedJSONWriter()
            document.write(to: &json)
            return json.finish()
        }
        return try encodeWithFoundation(value)
    }

    /// What ``FeedJSONWriter`` must match byte for byte; also writes the small documents.
    static func encodeWithFoundation(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }

    /// Encodes the documents on every core; the results keep the documents' order.
    static func encodeAll<Document: Encodable & Sendable>(_ documents: [Document]) throws -> [Data] {
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, documents.count)
        guard workers > 1 else { return try documents.map(encode) }
        let slots = UnsafeMutableBufferPointer<Result<Data, any Error>?>.allocate(capacity: documents.count)
        slots.initialize(repeating: nil)
        defer {
            _ = slots.deinitialize()
            slots.deallocate()
        }
        // Each worker writes only its own indices (interleaved, so big and small
        // documents spread evenly), and every write finishes before concurrentPerform returns.
        nonisolated(unsafe) let shared = slots
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: documents.count, by: workers) {
                shared[index] = Result { try encode(documents[index]) }
            }
        }
        return try slots.map { try $0!.get() }
    }
}
