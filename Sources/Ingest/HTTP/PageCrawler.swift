import Foundation
import Listings

/// Crawls a page source (`urls`): venue pages read for their JSON-LD, or iCalendar feeds,
/// fetched as they are served, with links that match `follow` fetched too.
///
/// - **Politeness.** Each host's robots.txt is fetched once a run (``RobotsCache``) and obeyed
///   (``RobotsRules``): a disallowed URL is never requested, and is listed in the run's
///   summary. A robots.txt that answers 404 (or another 4xx) allows everything; one that
///   answers 5xx, or a host that cannot be reached, means nothing is fetched from that
///   host this run. Every request says who is asking: `Encore/<version> (+<contact>)`.
/// - **Following** is breadth first, each URL once, same host only, up to `max_pages`
///   requests a run: a link loop ends there.
/// - **Unchanged pages** are asked for conditionally; a page that answers 304 still counts
///   its events and its links (both remembered from the run that fetched it).
/// - **Listing lifecycle.** A crawl in which every page was fetched (no failure, no
///   `max_pages` cap, no host skipped) is a complete crawl of the source's one listing.
struct PageCrawler {
    /// The version in the User-Agent.
    static let version = "1"

    let crawler: SourceCrawler

    var source: SourcesConfiguration.Source { crawler.source }

    /// `Encore/1 (+ops@example.org)`.
    var userAgent: String { "Encore/\(Self.version) (+\(source.contact ?? ""))" }

    /// The scope under which the listing lifecycle records the crawl: the whole source.
    var scope: String { "pages:" + source.name }

    func crawl(into sink: any ListingSink, log: @Sendable (String) -> Void) async -> SourceRunSummary {
        var summary = SourceRunSummary(name: source.name)
        guard let ingester = crawler.ingestion.registry.ingester(named: source.format) else {
            summary.errors.append("unknown format \(source.format)")
            summary.pagesFailed += 1
            return summary
        }
        var ingestion = crawler.ingestion
        ingestion.window = crawler.window
        let headers = [
            "User-Agent": userAgent,
            "Accept": "text/html, application/xhtml+xml, text/calendar, application/ld+json;q=0.9, */*;q=0.1",
        ]
        let fetcher = crawler.fetcher
        let state = crawler.state
        let limit = source.maxPages ?? SourcesConfiguration.defaultMaxPages

        var queue: [URL] = []
        var queued: Set<String> = []
        func enqueue(_ url: URL) {
            guard let normalized = Self.withoutFragment(url), queued.insert(normalized.absoluteString).inserted else { return }
            queue.append(normalized)
        }
        source.urls.forEach(enqueue)

        var complete = true
        var eventIDs: Set<String> = []
        var requested = 0
        var next = 0
        while next < queue.count {
            let url = queue[next]
            next += 1
            let origin = Self.origin(url)
            var hostRules = await crawler.robots.rules(for: origin)
            if hostRules == nil {
                let fetched = await robots(for: url, headers: headers, summary: &summary, log: log)
                await crawler.robots.remember(fetched, for: origin)
                hostRules = .some(fetched)
            }
            guard let rules = hostRules ?? nil else {
                complete = false  // the host is down: nothing of it this run
                continue
            }
            guard rules.allows(url) else {
                summary.disallowedByRobots.append(url.absoluteString)
                continue
            }
            guard requested < limit else {
                complete = false
                log("\(source.name): max_pages (\(limit)) reached; \(queue.count - next + 1) pages left for later runs")
                break
            }
            requested += 1
            summary.requests += 1
            let key = url.absoluteString
            let known = try? state.crawlState(for: key)
            var links: [URL] = []
            switch await fetcher.fetch(
                url, requestsPerSecond: source.requestsPerSecond,
                validators: known.map { CacheValidators(etag: $0.etag, lastModified: $0.lastModified) }, headers: headers)
            {
            case .notModified:
                summary.pagesUnchanged += 1
                if let ids = known?.eventIDs { eventIDs.formUnion(ids) } else { complete = false }
                if var carried = known {
                    carried.runID = crawler.runID
                    try? state.saveCrawlState(carried, for: key)
                }
                links = ((try? state.crawlState(for: Self.linksKey(key)))??.eventIDs ?? []).compactMap(URL.init(string:))
                    .filter { follows($0, from: url) }
            case .failed(let failure):
                summary.pagesFailed += 1
                summary.errors.append(failure.description)
                complete = false
                log("error: \(failure)")
            case .fetched(let data, let validators):
                let (outcome, parsed) = ingestion.ingestPage(data: crawler.fetcher.redacted(data), locator: key, into: sink)
                switch outcome {
                case .success(let outcome):
                    summary.record(outcome)
                    let ids = parsed?.events.map(\.sourceID) ?? []
                    eventIDs.formUnion(ids)
                    try? state.saveCrawlState(
                        CrawlPageState(
                            etag: validators.etag, lastModified: validators.lastModified, eventIDs: ids, runID: crawler.runID),
                        for: key)
                case .failure(let error):
                    summary.pagesFailed += 1
                    summary.errors.append(error.description)
                    complete = false
                    log("error: \(error)")
                }
                if source.follow != nil {
                    links = PageLinks.links(in: data, base: url).filter { follows($0, from: url) }
                    // Kept so that a later 304 still leads to the pages this one links to.
                    try? state.saveCrawlState(CrawlPageState(eventIDs: links.map(\.absoluteString)), for: Self.linksKey(key))
                }
            }
            links.forEach(enqueue)
        }
        if complete {
            do {
                let outcome = try state.completeListing(source: ingester.source.name, scope: scope, eventSourceIDs: eventIDs, today: crawler.today)
                summary.eventsUnlisted += outcome.unlisted
            } catch {
                summary.errors.append("\(scope): could not record the listing: \(error)")
            }
        }
        return summary
    }

    /// Whether a link found on `page` is to be fetched: `follow` matches it, on the page's host.
    func follows(_ link: URL, from page: URL) -> Bool {
        guard let pattern = source.follow, let scheme = link.scheme?.lowercased(), scheme == "http" || scheme == "https",
            Self.origin(link) == Self.origin(page), let target = Self.withoutFragment(link)
        else { return false }
        return GlobPattern.matches(Array(pattern.utf8), Array(target.absoluteString.utf8), wholeText: true)
    }

    /// The host's rules, or nil when robots.txt could not be read (5xx, unreachable): then
    /// nothing of that host is fetched this run.
    private func robots(
        for url: URL, headers: [String: String], summary: inout SourceRunSummary, log: @Sendable (String) -> Void
    ) async -> RobotsRules? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        components.path = "/robots.txt"
        components.query = nil
        components.fragment = nil
        guard let robotsURL = components.url else { return nil }
        summary.requests += 1
        switch await crawler.fetcher.fetch(robotsURL, requestsPerSecond: source.requestsPerSecond, headers: headers) {
        case .fetched(let data, _):
            return RobotsRules(data, agent: "Encore")
        case .notModified:
            return .allowAll
        case .failed(let failure):
            if let status = failure.status, (400..<500).contains(status) { return .allowAll }
            let message = "\(failure.description): robots.txt unavailable, so nothing is fetched from \(url.host ?? "") this run"
            summary.pagesFailed += 1
            summary.errors.append(message)
            log("error: \(source.name): \(message)")
            return nil
        }
    }

    static func linksKey(_ key: String) -> String { "links of " + key }

    /// Scheme, host and port: what robots.txt and "same host" are about.
    static func origin(_ url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? "")" + (url.port.map { ":\($0)" } ?? "")
    }

    static func withoutFragment(_ url: URL) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        components.fragment = nil
        if components.path.isEmpty { components.path = "/" }
        return components.url
    }
}
