import Foundation
import Listings

/// Catalog reads every build needs, whatever changed.
struct FeedBuildReads: Sendable {
    /// Artists with band pages (events since ``FeedBuilder/recentDays`` ago).
    var artistNames: [(id: Int64, name: String)]
    /// Events with concert pages.
    var window: [Int64]
    var metroAreas: [MetroAreaOverview]
    /// Counts for `index.json`.
    var stats: CatalogStats

    static func read(for builder: FeedBuilder) throws -> FeedBuildReads {
        let (source, today, recentStart) = (builder.source, builder.today, builder.recentStart)
        return FeedBuildReads(
            artistNames: try source.artistNames(withEventsSince: recentStart), window: try source.eventIDs(since: recentStart),
            metroAreas: try source.metroAreas(near: nil, radiusKilometres: nil, today: today).filter { $0.upcomingEvents > 0 },
            stats: try source.stats(today: today))
    }
}

/// What a build renders: everything, or the documents an incremental build found changed.
struct FeedScope {
    /// Concert pages to render; nil: every event of the window.
    var events: [Int64]?
    /// The reads every build makes, when already made.
    var reads: FeedBuildReads?
    /// Band page slugs, when already made.
    var slugs: [Int64: String]?
    /// True when the last build's artist search index holds: the same artists under the
    /// same slugs, none of them changed.
    var keepsSearchIndex = false
    /// Which lists to render and which to splice, decided once the concert pages (and so
    /// the changed events' entries and list keys) are rendered; nil: render every list.
    var lists: ((RenderedEvents) throws -> FeedListPlan)?

    static var everything: FeedScope { FeedScope() }
}

/// The lists an incremental build renders from the catalog, and those it splices.
struct FeedListPlan {
    var metroAreas: Set<Int64> = []
    var venues: Set<Int64> = []
    var artists: Set<Int64> = []
    /// Lists whose events kept their places, with the ones that changed.
    var splices: [(owner: FeedListOwner, changed: Set<Int64>)] = []
    var splicer: FeedListSplicer?

    mutating func render(_ owner: FeedListOwner) {
        switch owner {
        case .metroArea(let id): metroAreas.insert(id)
        case .venue(let id): venues.insert(id)
        case .artist(let id): artists.insert(id)
        }
    }

    func renders(_ owner: FeedListOwner) -> Bool {
        switch owner {
        case .metroArea(let id): metroAreas.contains(id)
        case .venue(let id): venues.contains(id)
        case .artist(let id): artists.contains(id)
        }
    }
}

/// What the lists of a build held, for the next build's state. Written by the builder's
/// thread only.
final class FeedListLog {
    /// Lists rendered by this build, unless they go to ``spool``.
    var lists: [FeedListOwner: FeedListRecord] = [:]
    /// Where a full build writes its lists' records as they are rendered.
    let spool: StateSpool?
    /// Every owner that has pages in this build, rendered or not; an incremental build
    /// removes the pages of the others (a full build, which spools, needs none).
    private(set) var owners: Set<FeedListOwner> = []
    var slugs: [Int64: String] = [:]
    /// Lists spliced from the last build's files (``FeedListSplicer``).
    var splicedLists = 0
    /// Events with a concert page, when the build renders all of them.
    var eventPages: [Int64] = []
    init(spool: StateSpool? = nil) {
        self.spool = spool
    }

    func addOwners(_ owners: [FeedListOwner]) {
        if spool == nil { self.owners.formUnion(owners) }
    }

    func record(_ owner: FeedListOwner, _ record: FeedListRecord) throws {
        if let spool { try spool.append(owner, record) } else { lists[owner] = record }
    }

}

/// How a build went: full or incremental, and what it wrote.
public struct FeedBuildOutcome: Sendable {
    public var report: FeedBuildReport
    /// False when the last build's state could not be used (first build, a new day,
    /// `--full`, a tree changed by hand).
    public var incremental: Bool
    /// Lists brought up to date by swapping changed entries in the last build's files.
    public var splicedLists = 0
}

extension FeedBuilder {
    /// Builds the feeds into `writer`'s directory: only the documents whose inputs changed
    /// since the last build when its state allows (same day, trees as it left them),
    /// otherwise everything.
    public func write(
        to writer: FeedTreeWriter, full forcesFull: Bool = false,
        progress: (_ part: String, _ filesSoFar: Int) -> Void = { _, _ in }
    ) throws -> FeedBuildOutcome {
        let lock = try writer.lockForBuild()
        defer { lock.release() }
        // Read first: whatever is written after it is stamped with a later revision.
        let revision = try source.catalogRevision()
        // The day of the last build's state decides first, from its first bytes: a full
        // build (a new day, `--full`) loads none of it.
        if !forcesFull, writer.stateDay() == today.description, let state = writer.loadState(),
            state.entriesLength <= 2 * state.entriesTotal + (64 << 20)
        {
            let reads = try FeedBuildReads.read(for: self)
            let (report, log) = try writeIncrementally(
                to: writer, since: state, revision: revision, reads: reads, progress: progress)
            return FeedBuildOutcome(report: report, incremental: true, splicedLists: log.splicedLists)
        }
        try writer.prepareStateDirectory()
        writer.discardState()
        var staging = try writer.begin(spoolingIn: writer.stateDirectory.path)
        let store = try RenderedEvents(path: writer.entriesPath, continuing: nil)
        let log = FeedListLog(spool: try StateSpool(directory: writer.stateDirectory.path))
        // The build reads what it renders: what it no longer needs, it lets go.
        try render(into: &staging, scope: .everything, store: store, log: log, progress: progress)
        let (report, changed) = try staging.finish(keepingPrevious: true)
        try writer.saveState(FeedBuildState(
            today: today.description, revision: revision,
            liveInode: FeedTreeWriter.inode(of: writer.outputDirectory.path),
            spareInode: FeedTreeWriter.inode(of: writer.spareDirectory.path), files: FeedFileHashes(),
            changedInLastBuild: changed, entries: store.locations, entriesLength: store.flushed, eventPages: log.eventPages,
            lists: log.lists, slugs: log.slugs),
            spooledLists: log.spool, spooledFiles: staging.spool, allConcertPages: true)
        return FeedBuildOutcome(report: report, incremental: false)
    }

    private func writeIncrementally(
        to writer: FeedTreeWriter, since state: FeedBuildState, revision: Int64, reads: FeedBuildReads,
        progress: (_ part: String, _ filesSoFar: Int) -> Void
    ) throws -> (FeedBuildReport, FeedListLog) {
        progress("finding changes", 0)
        let changes = try source.changes(since: state.revision)
        let log = FeedListLog()
        let slugs = try bandPages(for: reads.artistNames).slugs
        let window = reads.window
        let inWindow = Set(window)
        let hadPage = Set(state.eventPages)
        let changedEvents = Set(changes.events)
        // Concert pages link band pages by slug: a renamed artist's shows are rendered again
        // (an artist new to band pages is on a changed show: the window is the same all day).
        var relinked = Set<Int64>()
        for (id, slug) in slugs where state.slugs[id].map({ $0 != slug }) ?? false {
            relinked.formUnion(state.lists[.artist(id)]?.events ?? [])
        }
        let pages = window.filter { changedEvents.contains($0) || !hadPage.contains($0) || relinked.contains($0) }
        let leaving = state.eventPages.filter { !inWindow.contains($0) }

        var owners = FeedListPlan(
            metroAreas: Set(changes.metroAreas), venues: Set(changes.venues), artists: Set(changes.artists))
        // A band page's path is its slug; band pages name their similar artists' slugs.
        var renamed = Set<Int64>()
        for (id, slug) in slugs where state.slugs[id] != slug { renamed.insert(id) }
        for id in state.slugs.keys where slugs[id] == nil { renamed.insert(id) }
        owners.artists.formUnion(renamed)
        // …and how many shows each has coming: a changed artist's count may have changed.
        let recounted = renamed.union(changes.artists)
        for (owner, record) in state.lists where record.similar.contains(where: recounted.contains) { owners.render(owner) }
        let changedVenues = Set(changes.venues)
        let live = writer.outputDirectory.path

        var staging = try writer.beginIncremental(state: state)
        let store = try RenderedEvents(path: writer.entriesPath, continuing: (state.entries, state.entriesLength))
        let plan = { [source] (store: RenderedEvents) throws -> FeedListPlan in
            var plan = owners
            // Events that joined, left or moved in a list, and those that kept their places.
            var moved = Set(leaving)
            var kept = Set<Int64>()
            for id in pages {
                guard let oldLocation = state.entries[id], let old = store.record(at: oldLocation), let new = store.record(id),
                    old.listKey == new.listKey
                else {
                    moved.insert(id)
                    continue
                }
                // A metro area's map shows venues' names and places, which neither pins nor
                // list entries carry: a changed venue redraws its map even when they are unchanged.
                if let venue = store.places[id], changedVenues.contains(venue.venueID), let metro = venue.metroAreaID {
                    plan.metroAreas.insert(metro)
                }
                guard old.bytes != new.bytes else { continue }
                kept.insert(id)
            }
            // Lists that hold a moved event now, and lists that held one (rendered), or
            // only changed events that kept their places (spliced).
            for owners in try source.eventOwners(ids: moved.sorted()) {
                if let venue = owners.venueID { plan.venues.insert(venue) }
                if let metro = owners.metroAreaID { plan.metroAreas.insert(metro) }
                plan.artists.formUnion(owners.artistIDs)
            }
            var splices: [FeedListOwner: Set<Int64>] = [:]
            for (owner, record) in state.lists {
                var changed = Set<Int64>()
                for id in record.events {
                    if moved.contains(id) {
                        plan.render(owner)
                        break
                    }
                    if kept.contains(id) { changed.insert(id) }
                }
                if !changed.isEmpty { splices[owner] = changed }
            }
            plan.splices = splices.filter { !plan.renders($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            plan.splicer = FeedListSplicer(previous: state, store: store, liveDirectory: live)
            return plan
        }
        try render(
            into: &staging,
            scope: FeedScope(
                events: pages, reads: reads, slugs: slugs, keepsSearchIndex: changes.artists.isEmpty && slugs == state.slugs,
                lists: plan),
            store: store, log: log, progress: progress)

        // Stale files: concert pages of events gone from the window, pages of lists that
        // are gone or shorter, band pages under an old slug.
        for id in leaving {
            for ext in ["json", "html", "ics"] { staging.remove("events/\(id).\(ext)") }
        }
        var lists = state.lists
        for (owner, record) in state.lists {
            let now = log.owners.contains(owner) ? log.lists[owner] : nil
            guard log.owners.contains(owner) == false || now != nil else { continue }
            for path in Self.paths(of: owner, pages: record.pages, slug: state.slugs[owner.id]) { staging.remove(path) }
            if now == nil { lists[owner] = nil }
        }
        for (owner, record) in log.lists { lists[owner] = record }

        progress("swapping in", staging.count)
        let files = staging.files
        let (report, changed) = try staging.finish()
        let next = FeedBuildState(
            today: today.description, revision: revision,
            liveInode: FeedTreeWriter.inode(of: writer.outputDirectory.path),
            spareInode: FeedTreeWriter.inode(of: writer.spareDirectory.path), files: files, changedInLastBuild: changed,
            entries: store.locations.filter { id, _ in inWindow.contains(id) }, entriesLength: store.flushed, eventPages: window,
            lists: lists, slugs: slugs)
        try writer.saveState(next)
        return (report, log)
    }

    /// The files of a list owner's pages: JSON and HTML pages, map and Atom feed.
    static func paths(of owner: FeedListOwner, pages: Int, slug: String?) -> [String] {
        let json = pagePaths(of: owner, pages: pages, slug: slug)
        guard !json.isEmpty else { return [] }
        var paths = json + json.map(SiteHTML.htmlPath)
        if case .metroArea(let id) = owner { paths.append("metros/\(id).geojson") }
        if let atom = atomPath(of: owner, slug: slug) { paths.append(atom) }
        return paths
    }

    /// The JSON pages of a list owner, in page order.
    static func pagePaths(of owner: FeedListOwner, pages: Int, slug: String?) -> [String] {
        let first: String
        switch owner {
        case .metroArea(let id):
            first = "metros/\(id).json"
        case .venue(let id):
            first = "venues/\(id).json"
        case .artist:
            guard let slug else { return [] }
            first = "artists/\(slug).json"
        }
        let stem = String(first.dropLast(5))
        return [first] + (max(pages, 1) > 1 ? (2...pages).map { "\(stem)/page-\($0).json" } : [])
    }

    /// A list owner's Atom feed; venues have none.
    static func atomPath(of owner: FeedListOwner, slug: String?) -> String? {
        switch owner {
        case .metroArea(let id): "metros/\(id).atom"
        case .venue: nil
        case .artist: slug.map { "artists/\($0).atom" }
        }
    }
}
