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
/// - `artists/{slug}.json` (then `artists/{slug}/page-N.json`): band page (upcoming, 100
///   per page, recent past, similar artists); a band merged into another keeps its
///   address as a page saying where it went (``addMovedArtists(to:)``);
/// - `venues/{id}.json` (then `venues/{id}/page-N.json`): venue page, 100 upcoming events
///   per page; `events/{id}.json`: concert page with directions;
/// - `users/{name}/plans.json`, `plans.ics`, `feed.json`;
/// - `search/artists.json`: name → slug, for clients that search without a server.
///
/// Beside each JSON document is its page for people (``SiteHTML``): `index.html`,
/// `metros/{id}.html`, `artists/{slug}.html`, `venues/{id}.html` (further pages as
/// `…/page-N.html`), `events/{id}.html` with `events/{id}.ics`, `users/{name}/plans.html`
/// and `feed.html`; with `site.css` and `site.js`. Atom feeds of what is new (``AtomFeed``):
/// `metros/{id}.atom`, `artists/{slug}.atom`, `users/{name}/feed.atom`.
///
/// Nothing but `index.json`'s `generated_at` depends on the clock, so the same catalog
/// gives byte-identical files.
public struct FeedBuilder: Sendable {
    public let source: any FeedSource
    public let today: LocalDate
    /// Written to `index.json` only.
    public let generatedAt: UTCInstant
    /// Whether fans' plans and feeds (`users/{name}/…`) are written: their addresses are
    /// guessable and the site has no accounts, so only when the operator asks.
    public let publishFans: Bool
    /// The site's public address (`https://concerts.example/`), for `sitemap.xml`, which
    /// wants whole URLs: no sitemap without it.
    public let siteURL: String?

    /// Events per page of a metro feed, band page or venue page. Small enough for a phone's
    /// first screen, and for a changed show to rewrite little: a list's pages are rewritten
    /// whole, so an incremental build writes about a page per list a changed show is in.
    public static let pageSize = 25
    /// How far back band pages list past events, and event pages are kept.
    public static let recentDays = 90
    /// How far ahead feeds reach.
    public static let horizonDays = 365

    public init(
        source: any FeedSource, today: LocalDate, generatedAt: UTCInstant, publishFans: Bool = false, siteURL: String? = nil
    ) {
        self.siteURL = siteURL
        self.source = source
        self.today = today
        self.generatedAt = generatedAt
        self.publishFans = publishFans
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
        try render(into: &tree, scope: .everything, store: try RenderedEvents(), log: FeedListLog(), progress: progress)
    }

    /// Renders the documents `scope` names into `tree`; returns what the lists held.
    /// - Parameter store: event list entries; those of the concert pages rendered are
    ///   appended, and lists splice theirs from it.
    func render(
        into tree: inout some FeedSink, scope: FeedScope, store rendered: RenderedEvents, log: FeedListLog,
        progress: (_ part: String, _ filesSoFar: Int) -> Void
    ) throws {
        var reads = try scope.reads ?? FeedBuildReads.read(for: self)
        let credits = FeaturedCredits(among: reads.artistNames)
        let slugs = try scope.slugs ?? credits.bandPages(source.artistAddresses(for: reads.artistNames))
        let metros = reads.metroAreas
        func part(_ name: String) {
            Self.releaseFreedMemory()
            progress(name, tree.count)
        }
        // The search indexes first: the biggest single files, written while the build
        // holds least.
        progress("search index", tree.count)
        if !scope.keepsSearchIndex { try addSearch(reads.artistNames, to: &tree, slugs: slugs) }
        // Slugged and indexed: the names are not held through the build.
        reads.artistNames = []
        try addVenueSearch(to: &tree)
        try addIndex(metros, counts: reads.stats, to: &tree)
        try addSiteAssets(to: &tree)
        try addMovedArtists(to: &tree)
        // Then concert pages: rendering them also renders every event's list entry,
        // which the metro, band and venue pages then splice.
        part("concert pages")
        if let events = scope.events {
            try addEvents(events, into: &tree, rendered: rendered, slugs: slugs, credits: credits)
        } else {
            try addEvents(reads.window, into: &tree, rendered: rendered, slugs: slugs, credits: credits)
            // Every event of the window has its page in the store now, in id order: the
            // state lists them from there rather than the build holding their ids twice.
            reads.window = []
            log.eventPages = rendered.locations.ids
        }
        var plan = try scope.lists?(rendered)
        if plan != nil {
            part("spliced lists")
            try splice(&plan!, into: &tree, log: log)
        }
        // Lists are read a batch at a time as they are rendered, never all at once:
        // what a build holds does not grow with the catalog.
        part("metro areas")
        try addMetros(metros, into: &tree, rendered: rendered, only: plan?.metroAreas, log: log)
        part("band pages")
        try addArtists(into: &tree, slugs: slugs, rendered: rendered, only: plan?.artists, log: log)
        part("venue pages")
        try addVenues(into: &tree, rendered: rendered, only: plan?.venues, log: log)
        part("fans' lists")
        if publishFans { try addUsers(to: &tree) }
        part("site indexes")
        try tree.add("near.js", NearIndex.script(metros: metros, today: today))
        try addSitemap(rendered: rendered, slugs: slugs, metros: metros, to: &tree)
        try addAboutPage(sources: Array(reads.stats.sources.keys), to: &tree)
        try addMyConcertsPage(to: &tree)
        log.slugs = slugs
    }

    /// Gives what the last part freed back to the system. Parts render big documents a
    /// batch at a time on several threads; glibc kept what they freed in its arenas, where
    /// it counted toward the build's resident memory.
    static func releaseFreedMemory() {
        #if canImport(Glibc)
        // Swift's Glibc module does not export malloc.h.
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }

    var window: DateWindow { DateWindow(from: today, to: today.adding(days: Self.horizonDays))! }
    var recentStart: LocalDate { today.adding(days: -Self.recentDays) }


    // MARK: - Steps

    private func addIndex(_ metros: [MetroAreaOverview], counts: CatalogStats, to tree: inout some FeedSink) throws {
        let metros = metros.sorted { ($0.metroArea.name, $0.metroArea.id) < ($1.metroArea.name, $1.metroArea.id) }
        let index = FeedIndex(
            generatedAt: generatedAt.description, today: today.description, counts: counts,
            metros: metros.map {
                FeedIndex.Metro(
                    id: $0.metroArea.id, name: $0.metroArea.name, country: $0.metroArea.country,
                    upcomingEvents: $0.upcomingEvents, path: "metros/\($0.metroArea.id).json",
                    geojson: "metros/\($0.metroArea.id).geojson", latitude: $0.latitude, longitude: $0.longitude)
            })
        try tree.add("index.json", FeedJSON.encode(index))
        try tree.add("index.html", index.html(metroAreas: metros))
    }

    /// The site's style sheet, script and icon, as written by hand (``SiteAssets``).
    private func addSiteAssets(to tree: inout some FeedSink) throws {
        for asset in SiteAssets.all {
            guard !asset.data.isEmpty else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Site/" + asset.name]) }
            try tree.add(asset.name, asset.data)
        }
    }

    /// Concert pages of `ids`, each event's list entry appended to `rendered`, which is
    /// sealed for reading once all are in.
    private func addEvents(
        _ ids: [Int64], into tree: inout some FeedSink, rendered: RenderedEvents, slugs: [Int64: String],
        credits: FeaturedCredits = .none
    ) throws {
        let listed = window
        let source = source
        let batches = stride(from: 0, to: ids.count, by: 500).map { ids[$0..<min($0 + 500, ids.count)] }
        try Self.forEach(batches, reading: { try source.events(ids: Array($0)) }) { _, events in
            let outputs = try FeedJSON.mapOnEveryCore(events) { event in
                let feed = EventFeed(event: event)
                return (
                    page: try FeedJSON.encode(feed), html: feed.html(slugs: slugs, listedWindow: listed, credits: credits), calendar: feed.calendar(),
                    rendering: RenderedEvents.Rendering(event))
            }
            try tree.add(contentsOf: zip(events, outputs).flatMap { event, output in
                [
                    (path: "events/\(event.id).json", data: output.page), (path: "events/\(event.id).html", data: output.html),
                    (path: "events/\(event.id).ics", data: output.calendar),
                ]
            })
            for (event, output) in zip(events, outputs) { try rendered.append(event.id, output.rendering) }
        }
        try rendered.seal()
    }

    /// The plan's lists spliced on every core, a batch at a time; a list that cannot be
    /// spliced joins those rendered from the catalog.
    private func splice(_ plan: inout FeedListPlan, into tree: inout some FeedSink, log: FeedListLog) throws {
        guard let splicer = plan.splicer else { return }
        // Small batches: a metro area's pages and map are megabytes.
        let batchSize = 32
        for start in stride(from: 0, to: plan.splices.count, by: batchSize) {
            let batch = Array(plan.splices[start..<min(start + batchSize, plan.splices.count)])
            let spliced = try FeedJSON.mapOnEveryCore(batch) { splicer.splice($0.owner, changed: $0.changed) }
            var files: [(path: String, data: Data)] = []
            for (list, result) in zip(batch, spliced) {
                if let result {
                    files += result
                    log.splicedLists += 1
                    // A spliced metro area's shows changed in place (a title, a status):
                    // its near-me index is written again, from the catalog.
                    if case .metroArea(let id) = list.owner {
                        let pins = try source.eventPins(ids: source.eventIDs(inMetroAreas: [id], window: window))
                        files.append((path: "metros/\(id).near.js", data: NearIndex.script(metro: id, pins: pins)))
                    }
                } else {
                    plan.render(list.owner)
                }
            }
            try tree.add(contentsOf: files)
        }
    }

    /// A list of events by id, spliced from `rendered`; an event without a concert page
    /// (none today: every list shows events since ``recentDays`` ago) is rendered here.
    private func eventList(_ ids: [Int64], rendered: RenderedEvents) throws -> EventList {
        let missing = ids.filter { !rendered.contains($0) }
        guard !missing.isEmpty else { return .rendered(ids, store: rendered, extra: [:]) }
        var extra: [Int64: RenderedEvents.Rendering] = [:]
        for event in try source.events(ids: missing) { extra[event.id] = RenderedEvents.Rendering(event) }
        return .rendered(ids.filter { rendered.contains($0) || extra[$0] != nil }, store: rendered, extra: extra)
    }

    private func addMetros(
        _ metros: [MetroAreaOverview], into tree: inout some FeedSink, rendered: RenderedEvents, only: Set<Int64>?,
        log: FeedListLog
    ) throws {
        log.addOwners(metros.map { .metroArea($0.metroArea.id) })
        for metro in metros.sorted(by: { $0.metroArea.id < $1.metroArea.id }) where only?.contains(metro.metroArea.id) ?? true {
            let id = metro.metroArea.id
            let ids = try source.eventIDs(inMetroAreas: [id], window: window)
            let pages = FeedPaging.pages(of: ids.count, size: Self.pageSize, firstPath: "metros/\(id).json")
            try log.record(.metroArea(id), FeedListRecord(events: ids, pages: pages.count))
            // The Atom feed reads every record of the area: on another thread, beside the pages.
            let (builder, list, since, name) = (self, try eventList(ids, rendered: rendered), announcedSince, metro.metroArea.name)
            let atom = Background {
                builder.atomFeed(
                    of: list, since: since, id: "metro/\(id)", title: "Just announced in \(name)", path: "metros/\(id).atom",
                    page: "metros/\(id).html")
            }
            let pins = try source.eventPins(ids: ids)
            let map = GeoJSON.venues(of: pins)
            try tree.add("metros/\(id).near.js", NearIndex.script(metro: id, pins: pins))
            var previousDay = RenderedEvents.day(today)
            let days = ids.map { id in
                previousDay = rendered.day(of: id) ?? previousDay
                return previousDay
            }
            let calendar = MetroCalendar(today: today, days: days, pageSize: Self.pageSize)
            try tree.add("metros/\(id).geojson", FeedJSON.encode(map))
            // A big city has hundreds of pages: they are rendered a batch at a time.
            for start in stride(from: 0, to: pages.count, by: Self.encodingBatch) {
                let batch = try pages[start..<min(start + Self.encodingBatch, pages.count)].map { page in
                    (path: page.path, document: MetroFeed(
                        metroArea: metro.metroArea, latitude: metro.latitude, longitude: metro.longitude,
                        events: try eventList(Array(ids[page.range]), rendered: rendered), paging: page.paging,
                        calendar: calendar))
                }
                let rendered = try FeedJSON.mapOnEveryCore(batch) { page in
                    let document = page.document.loaded()
                    return (
                        json: try FeedJSON.encode(document),
                        html: document.html(path: SiteHTML.htmlPath(page.path), map: document.paging.page == 1 ? map : nil))
                }
                try tree.add(contentsOf: zip(batch, rendered).flatMap { page, rendered in
                    [(path: page.path, data: rendered.json), (path: SiteHTML.htmlPath(page.path), data: rendered.html)]
                })
            }
            try tree.add("metros/\(id).atom", try atom.value())
        }
    }

    private func addArtists(
        into tree: inout some FeedSink, slugs: [Int64: String], rendered: RenderedEvents, only: Set<Int64>?, log: FeedListLog
    ) throws {
        log.addOwners(slugs.keys.map { .artist($0) })
        let artists = slugs.keys.filter { only?.contains($0) ?? true }.sorted()
        // Fewer bands than documents a batch: each band brings its pages, Atom feed and
        // outline, and a batch is held until written.
        let bands = Self.encodingBatch / 4
        let (source, today, pastSince) = (source, today, recentStart)
        let batches = stride(from: 0, to: artists.count, by: bands).map { Array(artists[$0..<min($0 + bands, artists.count)]) }
        try Self.forEach(batches, reading: { try source.artistPageOutlines(ids: $0, today: today, pastSince: pastSince) }) { _, outlines in
            var batch: [(path: String, document: ArtistFeed)] = []
            var feeds: [(artist: ArtistSummary, slug: String, upcoming: EventList)] = []
            for outline in outlines {
                guard let slug = slugs[outline.artist.id] else { continue }
                let similar = outline.similar.map {
                    ArtistFeed.Similar(id: $0.id, name: $0.name, slug: slugs[$0.id], upcoming: outline.similarUpcoming[$0.id] ?? 0)
                }
                let pages = FeedPaging.pages(of: outline.upcoming.count, size: Self.pageSize, firstPath: "artists/\(slug).json")
                feeds.append((outline.artist, slug, try eventList(outline.upcoming, rendered: rendered)))
                try log.record(.artist(outline.artist.id), FeedListRecord(
                    events: outline.upcoming + outline.past, similar: outline.similar.map(\.id), pages: pages.count,
                    upcoming: outline.upcoming.count))
                for page in pages {
                    batch.append((page.path, ArtistFeed(
                        artist: outline.artist, slug: slug,
                        upcoming: try eventList(Array(outline.upcoming[page.range]), rendered: rendered),
                        recentPast: try eventList(page.paging.page == 1 ? outline.past.reversed() : [], rendered: rendered),
                        similar: similar, paging: page.paging)))
                }
            }
            try add(&batch, into: &tree)
            let atoms = try FeedJSON.mapOnEveryCore(feeds) { feed in
                atomFeed(
                    of: feed.upcoming, limit: AtomFeed.artistLimit, id: "artist/\(feed.artist.id)",
                    title: "New shows of \(feed.artist.name)", path: "artists/\(feed.slug).atom", page: "artists/\(feed.slug).html")
            }
            try tree.add(contentsOf: zip(feeds, atoms).map { (path: "artists/\($0.slug).atom", data: $1) })
        }
    }

    /// Atom entries are chosen by when their events were first seen: metro areas' feeds
    /// keep those of the last ``AtomFeed/announcedDays`` days.
    var announcedSince: Int64 {
        UTCInstant(date: today.adding(days: -AtomFeed.announcedDays), time: LocalTime(hour: 0, minute: 0)!, utcOffsetSeconds: 0)
            .secondsSinceEpoch
    }

    /// A feed of a list's events, newest first; an empty one is dated the build's day.
    func atomFeed(
        of list: EventList, since: Int64 = .min, limit: Int = AtomFeed.limit, id: String, title: String, path: String, page: String
    ) -> Data {
        let (entries, newest) = AtomFeed.entries(of: list, since: since, limit: limit)
        let day = UTCInstant(date: today, time: LocalTime(hour: 0, minute: 0)!, utcOffsetSeconds: 0)
        return AtomFeed.feed(
            id: id, title: title, path: path, page: page, updated: newest.map { UTCInstant(secondsSinceEpoch: $0) } ?? day,
            entries: entries)
    }

    private func addVenues(
        into tree: inout some FeedSink, rendered: RenderedEvents, only: Set<Int64>?, log: FeedListLog
    ) throws {
        var batch: [(path: String, document: VenueFeed)] = []
        // Every venue with a page, rendered or not.
        let ids = try source.venueIDs(withEventsSince: today)
        log.addOwners(ids.map { .venue($0) })
        let wanted = ids.filter { only?.contains($0) ?? true }
        let (source, today) = (source, today)
        let groups = stride(from: 0, to: wanted.count, by: 100).map { Array(wanted[$0..<min($0 + 100, wanted.count)]) }
        try Self.forEach(groups, reading: { group in try group.map { try source.venuePageOutline(id: $0, today: today) } }) {
            group, listings in
            // A venue gone since has no page.
            for (id, listing) in zip(group, listings) {
                guard let listing, !SiteHTML.isPlaceholder(listing.venue.name) else { continue }
                let pages = FeedPaging.pages(of: listing.eventIDs.count, size: Self.pageSize, firstPath: "venues/\(id).json")
                try log.record(.venue(id), FeedListRecord(events: listing.eventIDs, pages: pages.count))
                for page in pages {
                    batch.append((page.path, VenueFeed(
                        venue: listing.venue, metroArea: listing.metroArea, sources: listing.sources,
                        events: try eventList(Array(listing.eventIDs[page.range]), rendered: rendered), paging: page.paging)))
                }
            }
            try add(&batch, into: &tree)
        }
    }

    /// Documents are rendered in batches on every core, then added in order.
    static let encodingBatch = 200

    private func add<Document: SiteDocument>(
        _ batch: inout [(path: String, document: Document)], into tree: inout some FeedSink
    ) throws {
        let documents = batch
        let rendered = try FeedJSON.mapOnEveryCore(documents) { document in
            let loaded = document.document.loaded()
            return (json: try FeedJSON.encode(loaded), html: loaded.html(path: SiteHTML.htmlPath(document.path)))
        }
        try tree.add(contentsOf: zip(documents, rendered).flatMap { document, rendered in
            [(path: document.path, data: rendered.json), (path: SiteHTML.htmlPath(document.path), data: rendered.html)]
        })
        batch.removeAll(keepingCapacity: true)
    }

    /// Recommendations a fan's Atom feed announces, best first.
    static let recommendationsAnnounced = 10
    /// How far ahead a fan's Atom feed announces on-sale times.
    static let onSaleDaysAnnounced = 14

    private func addUsers(to tree: inout some FeedSink) throws {
        for user in try source.fans() {
            let plans = try source.plans(user: user, past: false, today: today)
            let plansFeed = UserPlansFeed(user: user, plans: plans)
            try tree.add("users/\(user)/plans.json", FeedJSON.encode(plansFeed))
            try tree.add("users/\(user)/plans.html", plansFeed.html())
            let stamp = UTCInstant(date: today, time: LocalTime(hour: 0, minute: 0)!, utcOffsetSeconds: 0)
            let calendar = ICalendar.calendar(name: "\(user)'s concerts", events: plans.map(\.event), stamp: stamp)
            try tree.add("users/\(user)/plans.ics", Data(calendar.utf8))
            // A fan without a home (or tracked city) has no feed yet; skip rather than fail.
            let entries = try? source.feed(user: user, window: window, markSeen: false)
            if let entries {
                let feed = UserFeed(user: user, entries: entries)
                try tree.add("users/\(user)/feed.json", FeedJSON.encode(feed))
                try tree.add("users/\(user)/feed.html", feed.html())
            }
            // New shows near the fan, and the fan's plans that were called off or moved.
            let changedPlans = plans.map(\.event).filter { $0.status != .scheduled || $0.unlistedSince != nil }
            var seen = Set<Int64>()
            let events = ((entries ?? []).map(\.event) + changedPlans).filter { seen.insert($0.id).inserted }
            // Announced once each: shows recommended to the fan, tickets going on sale.
            let midnight = UTCInstant(date: today, time: LocalTime(hour: 0, minute: 0)!, utcOffsetSeconds: 0)
            let recommendations = entries == nil ? [] : (try? source.discover(
                user: user, center: nil, radiusKilometres: nil, window: window, today: today, limit: Self.recommendationsAnnounced)) ?? []
            let sales = (try? source.onSales(user: user, now: midnight, days: Self.onSaleDaysAnnounced, today: today)) ?? []
            let (atomEntries, newest) = AtomFeed.userEntries(
                events: events, recommendations: recommendations, sales: sales, user: user)
            try tree.add(
                "users/\(user)/feed.atom",
                AtomFeed.feed(
                    id: "user/\(user)", title: "Concerts for \(user)", path: "users/\(user)/feed.atom",
                    page: "users/\(user)/\(entries == nil ? "plans" : "feed").html", updated: newest ?? midnight, entries: atomEntries))
        }
    }

    private func addSearch(_ names: [(id: Int64, name: String)], to tree: inout some FeedSink, slugs: [Int64: String]) throws {
        let entries = names.compactMap { artist in
            slugs[artist.id].map { SearchEntry(name: artist.name, key: NameFolding.fold(artist.name), slug: $0) }
        }.sorted { ($0.key, $0.slug) < ($1.key, $1.slug) }
        try tree.add("search/artists.json", FeedJSON.encode(ArtistSearchIndex(entries: entries)))
    }
}

extension FeedBuilder {
    /// `search/venues.json`: every venue with a page, for the home page's search. Written
    /// by every build (one query): unchanged bytes leave the file as it was.
    func addVenueSearch(to tree: inout some FeedSink) throws {
        let entries = try source.venueNames(withEventsSince: today).filter { !SiteHTML.isPlaceholder($0.name) }.map {
            VenueSearchEntry(name: $0.name, key: NameFolding.fold($0.name), id: $0.id, city: $0.city)
        }.sorted { ($0.key, $0.id) < ($1.key, $1.id) }
        try tree.add("search/venues.json", FeedJSON.encode(VenueSearchIndex(entries: entries)))
    }
}

/// Feed JSON: compact, keys sorted, so equal values are equal bytes. Browsers' JSON
/// viewers and `jq .` indent it for reading; indented, the tree would be much larger.
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
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }

    /// `transform` applied to each item on every core (rendering, writing files); the
    /// results keep the items' order.
    static func mapOnEveryCore<Item: Sendable, Output>(_ items: [Item], _ transform: @Sendable (Item) throws -> Output) throws
        -> [Output]
    {
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, items.count)
        guard workers > 1 else { return try items.map(transform) }
        let slots = UnsafeMutableBufferPointer<Result<Output, any Error>?>.allocate(capacity: items.count)
        slots.initialize(repeating: nil)
        defer {
            _ = slots.deinitialize()
            slots.deallocate()
        }
        // Each worker writes only its own indices (interleaved, so big and small
        // items spread evenly), and every write finishes before concurrentPerform returns.
        nonisolated(unsafe) let shared = slots
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: items.count, by: workers) {
                shared[index] = Result { try transform(items[index]) }
            }
        }
        return try slots.map { try $0!.get() }
    }
}

extension FeedBuilder {
    /// `body` with each batch and what `read` gave for it, in order; the next batch is read
    /// (from the catalog) on another thread while `body` renders this one, so reading,
    /// one thread's work, does not leave the other cores idle.
    static func forEach<Batch: Sendable, Value: Sendable>(
        _ batches: [Batch], reading read: @escaping @Sendable (Batch) throws -> Value, _ body: (Batch, Value) throws -> Void
    ) throws {
        var next = batches.first.map { batch in Background { try read(batch) } }
        // A batch that fails leaves nothing reading the catalog behind it.
        defer { _ = try? next?.value() }
        for index in batches.indices {
            let value = try next!.value()
            next = index + 1 < batches.count ? Background { [batch = batches[index + 1]] in try read(batch) } : nil
            try body(batches[index], value)
        }
    }
}

/// A value worked out on another thread while the caller goes on.
final class Background<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written once, before `done` is signalled; read only after waiting for it.
    private var result: Result<Value, any Error>?

    init(_ work: @escaping @Sendable () throws -> Value) {
        DispatchQueue.global().async {
            self.result = Result(catching: work)
            self.done.signal()
        }
    }

    /// Waits for the value.
    func value() throws -> Value {
        done.wait()
        done.signal()
        return try result!.get()
    }
}
