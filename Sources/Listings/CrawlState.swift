/// What a crawl remembers about a page between runs: the server's validators for a
/// conditional request, and how many pages the listing had.
public struct CrawlPageState: Sendable, Hashable {
    public var etag: String?
    public var lastModified: String?
    public var totalPages: Int?

    public init(etag: String? = nil, lastModified: String? = nil, totalPages: Int? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.totalPages = totalPages
    }
}

/// Where crawl state is kept (the catalog implements it). Keys are URLs without secrets.
public protocol CrawlStateStore: Sendable {
    func crawlState(for key: String) throws -> CrawlPageState?
    func saveCrawlState(_ state: CrawlPageState, for key: String) throws
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
    public var errors: [String] = []

    public init(name: String) {
        self.name = name
    }

    enum CodingKeys: String, CodingKey {
        case name, requests, errors
        case pagesFetched = "pages_fetched", pagesUnchanged = "pages_unchanged", pagesFailed = "pages_failed"
        case eventsNew = "events_new", eventsMerged = "events_merged", eventsUpdated = "events_updated"
        case eventsUnchanged = "events_unchanged"
    }
}

/// A recorded run of `encore refresh`.
public struct RunRecord: Sendable, Hashable, Codable {
    public var id: Int64
    public var startedAt: String
    public var endedAt: String?
    /// "running" (or killed), "ok", "failed" (some pages failed).
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
