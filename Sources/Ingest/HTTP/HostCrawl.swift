import Foundation
import Listings

/// One host of a page source, crawled on its own: its robots.txt, its sitemaps, then its
/// pages breadth first. Everything it counts is its own (no state shared with the other
/// hosts but the source's `max_pages` budget), and it reports what it did as a
/// ``HostRunReport``.
struct HostCrawl: Sendable {
    struct Outcome: Sendable {
        var summary: SourceRunSummary
        var complete = true
        var eventIDs: Set<String> = []
        /// Pages left unasked because `max_pages` was spent.
        var pagesLeft = 0
    }

    /// The longest `Crawl-delay` obeyed: a site asking for an hour between requests would
    /// keep the nightly run from ending.
    static let maximumCrawlDelay = 60.0
    /// Sitemap files read per host (an index and the sitemaps it lists).
    static let maximumSitemapFiles = 50
    /// URLs a host's sitemaps may add to its queue.
    static let maximumSitemapURLs = Sitemap.maximumEntries

    let pages: PageCrawler
    let ingestion: FileIngestion
    let origin: String
    let seeds: [URL]
    let sitemaps: [URL]
    let budget: PageBudget
    let sink: any ListingSink
    let log: @Sendable (String) -> Void

    var crawler: SourceCrawler { pages.crawler }
    var source: SourcesConfiguration.Source { pages.source }
    var fetcher: HTTPFetcher { crawler.fetcher }
    private var state: any CrawlStateStore { crawler.state }

    /// The host's pages still to ask for, each once, with what its sitemaps said of them.
    struct Queue {
        var urls: [URL] = []
        var queued: Set<String> = []
        var next = 0
        var lastModified: [String: Date] = [:]

        mutating func add(_ url: URL, lastModified: Date? = nil) {
            guard let normalized = PageCrawler.withoutFragment(url) else { return }
            if let lastModified { self.lastModified[normalized.absoluteString] = lastModified }
            guard queued.insert(normalized.absoluteString).inserted else { return }
            urls.append(normalized)
        }

        func contains(_ url: URL) -> Bool {
            PageCrawler.withoutFragment(url).map { queued.contains($0.absoluteString) } ?? false
        }

        mutating func pop() -> URL? {
            guard next < urls.count else { return nil }
            defer { next += 1 }
            return urls[next]
        }

        var remaining: Int { urls.count - next }
    }

    func fetch(_ url: URL, validators: CacheValidators? = nil) async -> FetchResult {
        await fetcher.fetch(
            url, requestsPerSecond: source.requestsPerSecond, validators: validators, headers: pages.headers,
            perHost: source.connectionsPerHost)
    }

    func run() async -> Outcome {
        var outcome = Outcome(summary: SourceRunSummary(name: source.name))
        var report = HostRunReport(host: origin)
        let clock = ContinuousClock()
        let started = clock.now
        guard let rules = await robots(&outcome, &report) else {
            outcome.complete = false  // the host is down: nothing of it this run
            report.seconds = Self.seconds(clock.now - started)
            outcome.summary.hosts = [report]
            return outcome
        }
        var queue = Queue()
        seeds.forEach { queue.add($0) }
        if source.readsSitemaps || !sitemaps.isEmpty {
            await readSitemaps(rules: rules, into: &queue, &outcome, &report)
        }
        while let url = queue.pop() {
            guard rules.allows(url) else {
                outcome.summary.disallowedByRobots.append(url.absoluteString)
                continue
            }
            let key = url.absoluteString
            let known = try? state.crawlState(for: key)
            if let known, let ids = known.eventIDs, isFinished(known, lastModified: queue.lastModified[key]) {
                // Not asked: a killed run this one resumes fetched it, or the sitemap says
                // it has not changed since its last fetch.
                outcome.summary.pagesUnchanged += 1
                report.pagesSkipped += 1
                outcome.eventIDs.formUnion(ids)
                if let resuming = crawler.resuming, known.runID == resuming {
                    var carried = known
                    carried.runID = crawler.runID
                    try? state.saveCrawlState(carried, for: key)
                }
                storedLinks(of: key, page: url).forEach { queue.add($0) }
                continue
            }
            guard budget.take() else {
                outcome.complete = false
                outcome.pagesLeft = queue.remaining + 1
                break
            }
            outcome.summary.requests += 1
            report.requests += 1
            var links: [URL] = []
            switch await fetch(url, validators: known.map { CacheValidators(etag: $0.etag, lastModified: $0.lastModified) }) {
            case .notModified:
                outcome.summary.pagesUnchanged += 1
                report.notModified += 1
                if let ids = known?.eventIDs { outcome.eventIDs.formUnion(ids) } else { outcome.complete = false }
                if var carried = known {
                    carried.runID = crawler.runID
                    try? state.saveCrawlState(carried, for: key)
                }
                links = storedLinks(of: key, page: url)
            case .failed(let failure):
                if failure.attempts == 0 {
                    outcome.summary.requests -= 1
                    report.requests -= 1
                }
                outcome.summary.pagesFailed += 1
                outcome.summary.errors.append(failure.description)
                report.failed(failure.reason + (failure.status.map { " (HTTP \($0))" } ?? "") + ": " + key)
                outcome.complete = false
                log("error: \(failure)")
                if failure.kind == .hostAbandoned {
                    // The host is down: its other pages fail without being asked.
                    outcome.summary.pagesFailed += queue.remaining
                    report.pagesFailed += queue.remaining
                    return finish(outcome, report, started, clock)
                }
            case .fetched(let data, let validators):
                let (result, parsed) = ingestion.ingestPage(data: fetcher.redacted(data), locator: key, into: sink)
                switch result {
                case .success(let applied):
                    outcome.summary.record(applied)
                    if !applied.skippedAsUnchanged { report.pagesApplied += 1 }
                    let ids = parsed?.events.map(\.sourceID) ?? []
                    outcome.eventIDs.formUnion(ids)
                    try? state.saveCrawlState(
                        CrawlPageState(
                            etag: validators.etag, lastModified: validators.lastModified, eventIDs: ids, runID: crawler.runID),
                        for: key)
                case .failure(let error):
                    outcome.summary.pagesFailed += 1
                    outcome.summary.errors.append(error.description)
                    report.failed(error.description)
                    outcome.complete = false
                    log("error: \(error)")
                }
                if source.follow != nil {
                    links = PageLinks.links(in: data, base: url).filter { pages.follows($0, from: url) }
                    // Kept so that a later 304 still leads to the pages this one links to.
                    try? state.saveCrawlState(CrawlPageState(eventIDs: links.map(\.absoluteString)), for: PageCrawler.linksKey(key))
                }
            }
            links.forEach { queue.add($0) }
        }
        return finish(outcome, report, started, clock)
    }

    private func finish(
        _ outcome: Outcome, _ report: HostRunReport, _ started: ContinuousClock.Instant, _ clock: ContinuousClock
    ) -> Outcome {
        var outcome = outcome
        var report = report
        report.seconds = Self.seconds(clock.now - started)
        outcome.summary.hosts = [report]
        return outcome
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whether a page need not be asked for: the run this one resumes finished it, or its
    /// sitemap `lastmod` is older than its last fetch.
    private func isFinished(_ known: CrawlPageState, lastModified: Date?) -> Bool {
        if let resuming = crawler.resuming, known.runID == resuming { return true }
        guard let lastModified, let checked = known.checkedAt else { return false }
        return lastModified < Date(timeIntervalSince1970: Double(checked.secondsSinceEpoch))
    }

    /// The links a page had when last fetched, that `follow` still takes.
    private func storedLinks(of key: String, page: URL) -> [URL] {
        ((try? state.crawlState(for: PageCrawler.linksKey(key)))??.eventIDs ?? []).compactMap(URL.init(string:))
            .filter { pages.follows($0, from: page) }
    }

    /// The host's rules, or nil when robots.txt could not be read (5xx, unreachable): then
    /// nothing of that host is fetched this run. Fetched once a run for every source.
    private func robots(_ outcome: inout Outcome, _ report: inout HostRunReport) async -> RobotsRules? {
        guard var components = URLComponents(string: origin) else { return nil }
        components.path = "/robots.txt"
        guard let robotsURL = components.url else { return nil }
        let (robots, counts) = await crawler.robots.rules(for: origin, asker: source.name) { [self] in
            await fetchRobots(robotsURL)
        }
        report.robots = robots.status
        if counts {
            outcome.summary.requests += 1
            report.requests += 1
            if let error = robots.error {
                outcome.summary.pagesFailed += 1
                outcome.summary.errors.append(error)
                report.failed(error)
                log("error: \(source.name): \(error)")
            }
        }
        return robots.rules
    }

    private func fetchRobots(_ url: URL) async -> RobotsFetch {
        let host = url.host ?? ""
        switch await fetch(url) {
        case .fetched(let data, _):
            let rules = RobotsRules(data, agent: "Encore")
            var status = "200"
            if let delay = rules.crawlDelay {
                let obeyed = min(delay, Self.maximumCrawlDelay)
                await fetcher.limiter.setCrawlDelay(obeyed, host: host)
                status += obeyed < delay
                    ? " (crawl-delay \(Self.number(delay)) s; \(Self.number(obeyed)) s obeyed)" : " (crawl-delay \(Self.number(delay)) s)"
            }
            return RobotsFetch(rules: rules, status: status)
        case .notModified:
            return RobotsFetch(rules: .allowAll, status: "304: everything allowed")
        case .failed(let failure):
            if let status = failure.status, (400..<500).contains(status) {
                return RobotsFetch(rules: .allowAll, status: "\(status): everything allowed")
            }
            let message = "\(failure.description): robots.txt unavailable, so nothing is fetched from \(host) this run"
            return RobotsFetch(
                rules: nil, status: (failure.status.map { "HTTP \($0)" } ?? "unreachable") + ": nothing fetched", error: message)
        }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
