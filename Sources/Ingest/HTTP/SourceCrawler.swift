import Foundation
import Listings

/// Crawls one configured source over HTTP with its API's own URL scheme and paging (the
/// ingester's ``CrawlScheme``), applying each page as it arrives: one transaction per
/// page, never a whole crawl in memory.
///
/// - **Unchanged pages** are asked for conditionally (`If-None-Match`,
///   `If-Modified-Since`) and, when served anyway, recognized by their content hash.
/// - **Resuming.** Each page remembers the run that fetched it. A run that resumes a
///   killed one (`resuming`) does not fetch again the pages the killed run finished.
/// - **Listing lifecycle.** When every page of a listing was crawled, the event records it
///   showed are reported to the store (``CrawlStateStore/completeListing(source:scope:eventSourceIDs:today:)``),
///   which unlists upcoming events that every source stopped listing.
///
/// A page source (`urls`: web pages, feeds) is crawled by ``PageCrawler`` instead.
public struct SourceCrawler: Sendable {
    public let source: SourcesConfiguration.Source
    public let apiKey: String?
    public let fetcher: HTTPFetcher
    public let ingestion: FileIngestion
    public let state: any CrawlStateStore
    /// Today where the operator is: the default window starts here, and past events are
    /// never unlisted.
    public var today: LocalDate
    /// The run doing the crawl, recorded with each page.
    public var runID: Int64?
    /// A killed run whose finished pages are not fetched again.
    public var resuming: Int64?
    /// robots.txt of the hosts page sources crawl, shared by the sources of one run.
    public var robots = RobotsCache()
    /// Hosts of a page source crawled at once: enough to keep `max_connections` busy while
    /// most hosts wait for their turn (a host at one request a second is idle nearly all
    /// the time), each costing only a waiting task; 1 crawls the hosts one after another.
    public var hostsAtOnce: Int

    public init(
        source: SourcesConfiguration.Source, apiKey: String?, fetcher: HTTPFetcher, ingestion: FileIngestion,
        state: any CrawlStateStore, today: LocalDate, runID: Int64? = nil, resuming: Int64? = nil
    ) {
        self.source = source
        self.apiKey = apiKey
        self.fetcher = fetcher
        var ingestion = ingestion
        ingestion.format = source.format
        ingestion.keptKinds = source.keep
        ingestion.sourceHint = source.placeHint
        self.ingestion = ingestion
        self.state = state
        self.today = today
        self.runID = runID
        self.resuming = resuming
        hostsAtOnce = fetcher.policy.maxConnections * 32
    }

    /// Formats whose API Encore can crawl.
    public static func crawlableFormats(in registry: IngesterRegistry = .standard) -> [String] {
        registry.ingesters.filter { $0.crawlScheme != nil }.map(\.format)
    }

    /// The source's date window: its `from`/`to`, else today to a year from now.
    public var window: DateWindow {
        let from = source.from.flatMap { DateExpression.resolve($0, today: today) } ?? today
        let to = source.to.flatMap { DateExpression.resolve($0, today: today, onOrAfter: from) } ?? from.adding(days: 365)
        return DateWindow(from: from, to: to) ?? DateWindow(from: from, to: from)!
    }

    public func crawl(into sink: any ListingSink, log: @escaping @Sendable (String) -> Void = { _ in }) async -> SourceRunSummary {
        if source.isPageSource { return await PageCrawler(crawler: self).crawl(into: sink, log: log) }
        let clock = ContinuousClock()
        let started = clock.now
        var notModified = 0
        var summary = await crawlAPI(into: sink, notModified: &notModified, log: log)
        // An API is one host: its report is the source's own counts.
        var report = HostRunReport(host: PageCrawler.origin(source.baseURL))
        report.requests = summary.requests
        report.notModified = notModified
        report.pagesApplied = summary.pagesFetched
        report.pagesFailed = summary.pagesFailed
        report.failures = Array(summary.errors.prefix(HostRunReport.keptFailures))
        report.seconds = HostCrawl.seconds(clock.now - started)
        summary.hosts = [report]
        return summary
    }

    private func crawlAPI(
        into sink: any ListingSink, notModified: inout Int, log: @escaping @Sendable (String) -> Void
    ) async -> SourceRunSummary {
        var summary = SourceRunSummary(name: source.name)
        guard let ingester = ingestion.registry.ingester(named: source.format), let scheme = ingester.crawlScheme else {
            summary.errors.append("\(source.format) is read from files only; it has no API to crawl")
            summary.pagesFailed += 1
            return summary
        }
        let pageSize = min(source.pageSize ?? scheme.defaultPageSize, scheme.maximumPageSize)
        let counter = LookupCounter()
        let (requests, errors) = await scheme.listings(for: source, window: window) { request in
            let url = keyed(scheme.url(for: request, page: 1, pageSize: pageSize, base: source.baseURL), scheme)
            switch await fetcher.fetch(url, requestsPerSecond: source.requestsPerSecond) {
            case .fetched(let data, _):
                await counter.add(1)
                return ingestion.ingestPage(data: fetcher.redacted(data), locator: fetcher.redacted(url.absoluteString), into: sink)
                    .page
            case .failed(let failure):
                if failure.attempts > 0 { await counter.add(1) }
                if failure.kind == .hostAbandoned { await counter.abandoned(failure.reason) }
                return nil
            case .notModified:
                await counter.add(1)
                return nil
            }
        }
        var crawl = CrawlProgress()
        summary.requests += await counter.count
        summary.pagesFailed += errors.count
        if let abandoned = await counter.abandonment {
            // The lookups failed because the host is down, not because it knows no such
            // name: one message says so.
            crawl.reportAbandoned(abandoned, source: source.name, summary: &summary, log: log)
        } else {
            summary.errors += errors
            for error in errors { log("error: \(source.name): \(error)") }
        }

        // Scopes in the order first met; narrower windows of one scope add to it.
        var order: [String] = []
        var scopes: [String: (complete: Bool, listsEvents: Bool, ids: Set<String>)] = [:]
        var queue = requests[...]
        while let request = queue.popFirst() {
            let result = await crawlListing(
                request, scheme: scheme, pageSize: pageSize, into: sink, summary: &summary, crawl: &crawl, log: log)
            notModified += result.notModified
            if scopes[request.scope] == nil {
                order.append(request.scope)
                scopes[request.scope] = (true, request.listsEvents, [])
            }
            scopes[request.scope]!.complete = scopes[request.scope]!.complete && result.complete
            scopes[request.scope]!.ids.formUnion(result.eventIDs)
            if let narrower = result.narrower { queue = narrower[...] + queue }
        }
        for scope in order {
            guard let entry = scopes[scope], entry.complete, entry.listsEvents else { continue }
            do {
                let outcome = try state.completeListing(
                    source: ingester.source.name, scope: scope,
                    eventSourceIDs: entry.ids, today: today)
                summary.eventsUnlisted += outcome.unlisted
            } catch {
                summary.errors.append("\(scope): could not record the listing: \(error)")
            }
        }
        return summary
    }

    /// What one crawl has said already.
    private struct CrawlProgress {
        var abandonedHostReported = false

        /// One message for a host given up: its remaining listings fail without another.
        mutating func reportAbandoned(
            _ reason: String, source: String, summary: inout SourceRunSummary, log: @Sendable (String) -> Void
        ) {
            guard !abandonedHostReported else { return }
            abandonedHostReported = true
            let message = "\(reason): its remaining listings count as failed"
            summary.errors.append(message)
            log("error: \(source): \(message)")
        }
    }

    private struct ListingResult {
        var complete = true
        var notModified = 0
        var eventIDs: Set<String> = []
        var narrower: [ListingRequest]?
    }

    private func keyed(_ url: URL, _ scheme: any CrawlScheme) -> URL {
        guard let apiKey, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        let key = URLQueryItem(name: scheme.keyParameter, value: apiKey.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed))
        components.percentEncodedQueryItems = [key] + (components.percentEncodedQueryItems ?? [])
        return components.url ?? url
    }

    private func crawlListing(
        _ request: ListingRequest, scheme: any CrawlScheme, pageSize: Int, into sink: any ListingSink,
        summary: inout SourceRunSummary, crawl: inout CrawlProgress, log: @Sendable (String) -> Void
    ) async -> ListingResult {
        var result = ListingResult()
        var page = 1
        var pages = 1
        while page <= pages {
            defer { page += 1 }
            let pageURL = keyed(scheme.url(for: request, page: page, pageSize: pageSize, base: source.baseURL), scheme)
            let key = fetcher.redacted(pageURL.absoluteString)
            let known = try? state.crawlState(for: key)
            if let resuming, let known, known.runID == resuming, let ids = known.eventIDs {
                // Finished by the run this one resumes.
                summary.pagesUnchanged += 1
                result.eventIDs.formUnion(ids)
                if page == 1, let total = known.totalPages { pages = total }
                var carried = known
                carried.runID = runID
                try? state.saveCrawlState(carried, for: key)
                continue
            }
            summary.requests += 1
            switch await fetcher.fetch(
                pageURL, requestsPerSecond: source.requestsPerSecond,
                validators: known.map { CacheValidators(etag: $0.etag, lastModified: $0.lastModified) })
            {
            case .notModified:
                summary.pagesUnchanged += 1
                result.notModified += 1
                if let ids = known?.eventIDs { result.eventIDs.formUnion(ids) } else { result.complete = false }
                if page == 1, let total = known?.totalPages { pages = total }
                if var carried = known {
                    carried.runID = runID
                    try? state.saveCrawlState(carried, for: key)
                }
            case .failed(let failure):
                summary.pagesFailed += 1
                result.complete = false
                if failure.attempts == 0 { summary.requests -= 1 }
                switch failure.kind {
                case .hostAbandoned:
                    crawl.reportAbandoned(failure.reason, source: source.name, summary: &summary, log: log)
                    return result
                case .waitTooLong:
                    // Its other pages would be asked of a server that said to wait: the
                    // listing waits for the next run.
                    let message = "\(failure); giving up on \(request.scope) for this run"
                    summary.errors.append(message)
                    log("error: \(source.name): \(message)")
                    return result
                default:
                    summary.errors.append(failure.description)
                    log("error: \(failure)")
                }
            // Without page 1 the number of pages is unknown; the listing is incomplete.
            case .fetched(let data, let validators):
                let (outcome, parsed) = ingestion.ingestPage(data: fetcher.redacted(data), locator: key, into: sink)
                switch outcome {
                case .success(let outcome):
                    summary.record(outcome)
                    for warning in outcome.warnings { log("warning: \(warning)") }
                    let ids = parsed?.events.map(\.sourceID) ?? []
                    result.eventIDs.formUnion(ids)
                    if page == 1, request.paged, let parsed {
                        if let narrower = scheme.narrower(request, firstPage: parsed, pageSize: pageSize) {
                            log("\(source.name): \(request.scope) holds more than the API pages through; splitting its dates")
                            result.narrower = narrower
                            return result
                        }
                        let count = scheme.pageCount(firstPage: parsed, pageSize: pageSize)
                        pages = count.pages
                        if !count.reachesEveryPage { result.complete = false }
                        if let limit = source.maxPages, pages > limit {
                            pages = limit
                            result.complete = false
                        }
                    }
                    try? state.saveCrawlState(
                        CrawlPageState(
                            etag: validators.etag, lastModified: validators.lastModified, totalPages: page == 1 ? pages : nil,
                            eventIDs: ids, runID: runID),
                        for: key)
                case .failure(let error):
                    summary.pagesFailed += 1
                    result.complete = false
                    summary.errors.append(fetcher.redacted(error.description))
                    log("error: \(fetcher.redacted(error.description))")
                }
            }
        }
        return result
    }
}

/// Counts lookups made from a `@Sendable` closure, and notes a host given up.
private actor LookupCounter {
    var count = 0
    var abandonment: String?
    func add(_ value: Int) { count += value }
    func abandoned(_ reason: String) { abandonment = abandonment ?? reason }
}
