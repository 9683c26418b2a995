import Foundation
import Listings
import Synchronization

/// Crawls a page source (`urls`, `urls_file`, sitemaps): venue pages read for their
/// JSON-LD, or iCalendar feeds, fetched as they are served, with links that match `follow`
/// fetched too.
///
/// - **Hosts at once.** Each host is crawled by a task of its own (``HostCrawl``), many at
///   a time, so a slow or stalled host holds up only itself; the fetcher keeps each host
///   to its pace and the whole run to `max_connections` requests in flight.
/// - **Politeness.** Each host's robots.txt is fetched once a run (``RobotsCache``) and obeyed
///   (``RobotsRules``, `Crawl-delay` included): a disallowed URL is never requested, and is
///   listed in the run's summary. A robots.txt that answers 404 (or another 4xx) allows
///   everything; one that answers 5xx, or a host that cannot be reached, means nothing is
///   fetched from that host this run. Every request says who is asking:
///   `Encore/<version> (+<contact>)`.
/// - **Following** is breadth first within a host, each URL once, same host only, up to
///   `max_pages` requests a run for the whole source: a link loop ends there.
/// - **Unchanged pages** are asked for conditionally; a page that answers 304 still counts
///   its events and its links (both remembered from the run that fetched it). A page whose
///   sitemap `lastmod` is older than its last fetch is not asked for at all.
/// - **Listing lifecycle.** A crawl in which every page was fetched (no failure, no
///   `max_pages` cap, no host skipped) is a complete crawl of the source's one listing.
/// - **The catalog** does not depend on the order pages arrive in (ids aside), so pages
///   are applied as each host's arrive, one transaction each, through the catalog's one
///   writer: the same catalog as crawling the hosts one after another.
public struct PageCrawler: Sendable {
    /// The version in the User-Agent.
    static let version = "1"

    let crawler: SourceCrawler

    var source: SourcesConfiguration.Source { crawler.source }

    /// `Encore/1 (+ops@example.org)`.
    var userAgent: String { "Encore/\(Self.version) (+\(source.contact ?? ""))" }

    /// The scope under which the listing lifecycle records the crawl: the whole source.
    var scope: String { "pages:" + source.name }

    var headers: [String: String] {
        [
            "User-Agent": userAgent,
            "Accept": "text/html, application/xhtml+xml, text/calendar, application/ld+json;q=0.9, */*;q=0.1",
        ]
    }

    func crawl(into sink: any ListingSink, log: @escaping @Sendable (String) -> Void) async -> SourceRunSummary {
        var summary = SourceRunSummary(name: source.name)
        guard let ingester = crawler.ingestion.registry.ingester(named: source.format) else {
            summary.errors.append("unknown format \(source.format)")
            summary.pagesFailed += 1
            return summary
        }
        // Lines of urls_file that are no URL: their venues are not crawled, so the listing
        // is incomplete and nothing is unlisted for it.
        var complete = source.urlListProblems.isEmpty
        for problem in source.urlListProblems {
            summary.errors.append(problem.description)
            summary.pagesFailed += 1
            log("error: \(source.name): \(problem)")
        }
        var ingestion = crawler.ingestion
        ingestion.window = crawler.window
        let budget = PageBudget(limit: source.maxPages ?? SourcesConfiguration.defaultMaxPages)
        let hosts = Self.hosts(of: source)
        var parts = [SourceRunSummary?](repeating: nil, count: hosts.count)
        var eventIDs: Set<String> = []
        var pagesLeft = 0
        await withTaskGroup(of: (Int, HostCrawl.Outcome).self) { group in
            var next = 0
            func startNext() {
                guard next < hosts.count else { return }
                let index = next
                let host = HostCrawl(
                    pages: self, ingestion: ingestion, origin: hosts[index].origin, seeds: hosts[index].seeds,
                    sitemaps: hosts[index].sitemaps, budget: budget, sink: sink, log: log)
                group.addTask { (index, await host.run()) }
                next += 1
            }
            for _ in 0..<min(hosts.count, crawler.hostsAtOnce) { startNext() }
            for await (index, outcome) in group {
                parts[index] = outcome.summary
                eventIDs.formUnion(outcome.eventIDs)
                complete = complete && outcome.complete
                pagesLeft += outcome.pagesLeft
                startNext()
            }
        }
        // Hosts in the order the configuration names them, whichever finished first.
        for part in parts { if let part { summary.add(part) } }
        if pagesLeft > 0 {
            log("\(source.name): max_pages (\(budget.limit)) reached; \(pagesLeft) pages left for later runs")
        }
        if complete {
            do {
                let outcome = try crawler.state.completeListing(
                    source: ingester.source.name, scope: scope, eventSourceIDs: eventIDs, today: crawler.today)
                summary.eventsUnlisted += outcome.unlisted
            } catch {
                summary.errors.append("\(scope): could not record the listing: \(error)")
            }
        }
        return summary
    }

    /// The source's hosts in the order first named, each with its pages and sitemaps.
    public static func hosts(of source: SourcesConfiguration.Source) -> [(origin: String, seeds: [URL], sitemaps: [URL])] {
        var order: [String] = []
        var seeds: [String: [URL]] = [:]
        var sitemaps: [String: [URL]] = [:]
        for url in source.urls {
            let origin = origin(url)
            if seeds[origin] == nil, sitemaps[origin] == nil { order.append(origin) }
            seeds[origin, default: []].append(url)
        }
        for url in source.sitemapURLs {
            let origin = origin(url)
            if seeds[origin] == nil, sitemaps[origin] == nil { order.append(origin) }
            sitemaps[origin, default: []].append(url)
        }
        return order.map { ($0, seeds[$0] ?? [], sitemaps[$0] ?? []) }
    }

    /// Whether a link found on `page` is to be fetched: `follow` matches it, on the page's host.
    func follows(_ link: URL, from page: URL) -> Bool {
        guard let pattern = source.follow, let scheme = link.scheme?.lowercased(), scheme == "http" || scheme == "https",
            Self.origin(link) == Self.origin(page), let target = Self.withoutFragment(link)
        else { return false }
        return GlobPattern.matches(Array(pattern.utf8), Array(target.absoluteString.utf8), wholeText: true)
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

/// A page source's `max_pages`: requests a run, shared by its hosts.
final class PageBudget: Sendable {
    let limit: Int
    private let used: Mutex<Int>

    init(limit: Int) {
        self.limit = limit
        used = Mutex(0)
    }

    /// Takes one request; false when the budget is spent.
    func take() -> Bool {
        used.withLock { used in
            guard used < limit else { return false }
            used += 1
            return true
        }
    }
}
