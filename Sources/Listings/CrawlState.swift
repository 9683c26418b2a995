/// What a crawl remembers about a page between runs: the server's validators for a
/// conditional request, and how many pages the listing had.
public struct CrawlPageState: Sendable, Hashable {
    public var etag: String?
    public var lastModified: String?
    public var totalPages: Int?
    /// The source ids of the events on the page, so an unchanged page still counts
    /// toward its listing's membership.
    public var eventIDs: [String]?
    /// The run that last fetched the page.
    public var runID: Int64?
    /// When the page was last fetched or found unchanged (set by the store when saved).
    public var checkedAt: UTCInstant?

    public init(
        etag: String? = nil, lastModified: String? = nil, totalPages: Int? = nil, eventIDs: [String]? = nil,
        runID: Int64? = nil
    ) {
        self.etag = etag
        self.lastModified = lastModified
        self.totalPages = totalPages
        self.eventIDs = eventIDs
        self.runID = runID
    }
}

/// What completing a crawl of one listing changed in the listing lifecycle.
public struct ListingLifecycleOutcome: Sendable, Hashable {
    /// Upcoming events no source lists any more (hidden from lists and feeds).
    public var unlisted = 0
    /// Unlisted events a source lists again.
    public var relisted = 0

    public init(unlisted: Int = 0, relisted: Int = 0) {
        self.unlisted = unlisted
        self.relisted = relisted
    }
}

/// Where crawl state is kept (the catalog implements it). Keys are URLs without secrets.
public protocol CrawlStateStore: Sendable {
    func crawlState(for key: String) throws -> CrawlPageState?
    func saveCrawlState(_ state: CrawlPageState, for key: String) throws
    /// Records that every page of one listing (`scope`, e.g. `metro_areas/24426/calendar`)
    /// was crawled and which event records it showed; an upcoming event missing from every
    /// listing of every source that listed it, two complete crawls in a row, is unlisted.
    func completeListing(source: String, scope: String, eventSourceIDs: Set<String>, today: LocalDate) throws
        -> ListingLifecycleOutcome
}

/// One source's part of a run: `encore runs` shows these.
public struct SourceRunSummary: Sendable, Hashable, Codable {
    public var name: String
    public var requests = 0
    public var pagesFetched = 0
    public var pagesUnchanged = 0
    public var pagesFailed = 0
    public var eventsNew = 0
    public var eventsMerged = 0
    public var eventsUpdated = 0
    public var eventsUnchanged = 0
    /// New or changed listings that say the event is cancelled.
    public var eventsCancelled = 0
    /// Upcoming events that no source lists any more, as of this run.
    public var eventsUnlisted = 0
    /// Records left out on purpose (Ticketmaster's sports), by reason.
    public var skipped: [String: Int] = [:]
    public var errors: [String] = []
    /// URLs of a page source that robots.txt disallows: never requested.
    public var disallowedByRobots: [String] = []
    /// What each host this source asked did (`encore runs --hosts`), in the order first met.
    public var hosts: [HostRunReport] = []

    public init(name: String) {
        self.name = name
    }

    enum CodingKeys: String, CodingKey {
        case name, requests, errors, skipped, hosts
        case disallowedByRobots = "disallowed_by_robots"
        case pagesFetched = "pages_fetched", pagesUnchanged = "pages_unchanged", pagesFailed = "pages_failed"
        case eventsNew = "events_new", eventsMerged = "events_merged", eventsUpdated = "events_updated"
        case eventsUnchanged = "events_unchanged", eventsCancelled = "events_cancelled", eventsUnlisted = "events_unlisted"
    }

    /// Older runs were recorded before some counters existed: missing ones read as 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func count(_ key: CodingKeys) throws -> Int { try container.decodeIfPresent(Int.self, forKey: key) ?? 0 }
        name = try container.decode(String.self, forKey: .name)
        requests = try count(.requests)
        pagesFetched = try count(.pagesFetched)
        pagesUnchanged = try count(.pagesUnchanged)
        pagesFailed = try count(.pagesFailed)
        eventsNew = try count(.eventsNew)
        eventsMerged = try count(.eventsMerged)
        eventsUpdated = try count(.eventsUpdated)
        eventsUnchanged = try count(.eventsUnchanged)
        eventsCancelled = try count(.eventsCancelled)
        eventsUnlisted = try count(.eventsUnlisted)
        skipped = try container.decodeIfPresent([String: Int].self, forKey: .skipped) ?? [:]
        errors = try container.decodeIfPresent([String].self, forKey: .errors) ?? []
        disallowedByRobots = try container.decodeIfPresent([String].self, forKey: .disallowedByRobots) ?? []
        hosts = try container.decodeIfPresent([HostRunReport].self, forKey: .hosts) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        for (key, value) in [
            (CodingKeys.requests, requests), (.pagesFetched, pagesFetched), (.pagesUnchanged, pagesUnchanged),
            (.pagesFailed, pagesFailed), (.eventsNew, eventsNew), (.eventsMerged, eventsMerged), (.eventsUpdated, eventsUpdated),
            (.eventsUnchanged, eventsUnchanged), (.eventsCancelled, eventsCancelled), (.eventsUnlisted, eventsUnlisted),
        ] { try container.encode(value, forKey: key) }
        try container.encode(skipped, forKey: .skipped)
        try container.encode(errors, forKey: .errors)
        try container.encode(disallowedByRobots, forKey: .disallowedByRobots)
        // Runs without a host report read as before.
        if !hosts.isEmpty { try container.encode(hosts, forKey: .hosts) }
    }

    /// Adds another part of the same source's run (one host's crawl) to this one.
    public mutating func add(_ other: SourceRunSummary) {
        requests += other.requests
        pagesFetched += other.pagesFetched
        pagesUnchanged += other.pagesUnchanged
        pagesFailed += other.pagesFailed
        eventsNew += other.eventsNew
        eventsMerged += other.eventsMerged
        eventsUpdated += other.eventsUpdated
        eventsUnchanged += other.eventsUnchanged
        eventsCancelled += other.eventsCancelled
        eventsUnlisted += other.eventsUnlisted
        other.skipped.forEach { skipped[$0.key, default: 0] += $0.value }
        errors += other.errors
        disallowedByRobots += other.disallowedByRobots
        hosts += other.hosts
    }

    /// Adds one applied page's counts.
    public mutating func record(_ outcome: PageOutcome) {
        if outcome.skippedAsUnchanged { pagesUnchanged += 1 } else { pagesFetched += 1 }
        eventsNew += outcome.eventsNew
        eventsMerged += outcome.eventsMerged
        eventsUpdated += outcome.eventsUpdated
        eventsUnchanged += outcome.eventsUnchanged
        eventsCancelled += outcome.eventsCancelled
        outcome.recordsSkipped.forEach { skipped[$0.key, default: 0] += $0.value }
    }
}

/// One host's part of a source's run, so an operator sees which sites broke their pages.
public struct HostRunReport: Sendable, Hashable, Codable {
    /// `https://venue.example` (scheme, host and port).
    public var host: String
    public var requests = 0
    /// Requests answered `304 Not Modified`.
    public var notModified = 0
    public var pagesApplied = 0
    /// Pages not asked for: their sitemap `lastmod` is older than their last fetch, or a
    /// killed run this one resumes had fetched them.
    public var pagesSkipped = 0
    public var pagesFailed = 0
    /// Why pages failed (the first few; `pagesFailed` counts them all).
    public var failures: [String] = []
    /// From the host's first request to its last answer.
    public var seconds = 0.0
    /// "200 (crawl-delay 2 s)", "404: everything allowed", "HTTP 503: nothing fetched".
    public var robots: String?
    /// "2 files, 140 URLs, 120 unchanged since the last fetch", or why none was read.
    public var sitemap: String?

    public static let keptFailures = 10

    public init(host: String) {
        self.host = host
    }

    public mutating func failed(_ reason: String) {
        pagesFailed += 1
        if failures.count < Self.keptFailures { failures.append(reason) }
    }

    enum CodingKeys: String, CodingKey {
        case host, requests, failures, seconds, robots, sitemap
        case notModified = "not_modified", pagesApplied = "pages_applied", pagesSkipped = "pages_skipped"
        case pagesFailed = "pages_failed"
    }
}

/// A recorded run of `encore refresh`.
public struct RunRecord: Sendable, Hashable, Codable {
    public var id: Int64
    public var startedAt: String
    public var endedAt: String?
    /// "running", "killed" (SIGTERM, SIGINT, or a process gone without a word), "ok",
    /// "failed" (some pages failed).
    public var status: String
    public var sources: [SourceRunSummary]

    public init(id: Int64, startedAt: String, endedAt: String?, status: String, sources: [SourceRunSummary]) {
        self.id = id
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.status = status
        self.sources = sources
    }

    enum CodingKeys: String, CodingKey {
        case id, status, sources
        case startedAt = "started_at", endedAt = "ended_at"
    }
}
