import Foundation
import Listings

extension HostCrawl {
    /// Adds the pages the host's sitemaps list (those `follow` takes, on this host) to the
    /// queue, with their `lastmod`. The sitemaps are those the configuration names, and with
    /// `sitemaps = true` those robots.txt lists, else `/sitemap.xml`; an index's sitemaps
    /// are read too. A sitemap that cannot be read or parsed fails like a page (and leaves
    /// the listing incomplete); one past the protocol's bounds is read up to them.
    func readSitemaps(
        rules: RobotsRules, into queue: inout Queue, _ outcome: inout Outcome, _ report: inout HostRunReport
    ) async {
        var files = sitemaps
        if source.readsSitemaps {
            files += rules.sitemaps.compactMap { URL(string: $0) }.filter { PageCrawler.origin($0) == origin }
        }
        let guessed = files.isEmpty
        if guessed, let fallback = URL(string: origin + "/sitemap.xml") { files.append(fallback) }
        var seen: Set<String> = []
        // Named in the configuration and in robots.txt: read once.
        var pending = files.filter { seen.insert($0.absoluteString).inserted }[...]
        var read = 0
        var listed = 0
        var notes: [String] = []
        func fail(_ message: String) {
            outcome.summary.pagesFailed += 1
            outcome.summary.errors.append(message)
            report.failed(message)
            outcome.complete = false
            notes.append(message)
            log("error: \(source.name): \(message)")
        }
        while let file = pending.popFirst() {
            guard read < Self.maximumSitemapFiles else {
                fail("\(file.absoluteString): more than \(Self.maximumSitemapFiles) sitemap files; the rest are not read")
                break
            }
            guard rules.allows(file) else {
                outcome.summary.disallowedByRobots.append(file.absoluteString)
                continue
            }
            guard budget.take() else {
                outcome.complete = false
                outcome.pagesLeft += pending.count + 1
                break
            }
            outcome.summary.requests += 1
            report.requests += 1
            let data: Data
            switch await fetch(file) {
            case .fetched(let body, _):
                data = body
            case .notModified:
                continue  // not asked conditionally; a server answering so anyway says nothing
            case .failed(let failure):
                if guessed, failure.status == 404 {
                    notes.append("none (/sitemap.xml: 404)")
                } else {
                    fail("sitemap \(failure.description)")
                }
                continue
            }
            read += 1
            let sitemap: Sitemap
            do {
                sitemap = try Sitemap(data, locator: file.absoluteString)
            } catch {
                fail("sitemap \(error.description)")
                continue
            }
            if sitemap.truncated {
                fail("\(file.absoluteString): more than the 50,000 URLs or 50 MB a sitemap may hold; the rest is not read")
            }
            for entry in sitemap.entries {
                guard let url = URL(string: entry.location), PageCrawler.origin(url) == origin else { continue }
                if sitemap.isIndex {
                    if seen.insert(url.absoluteString).inserted { pending.append(url) }
                    continue
                }
                // A page the configuration lists keeps its lastmod, whether `follow` takes it or not.
                guard source.follow == nil || pages.follows(url, from: url) || queue.contains(url) else { continue }
                guard queue.urls.count < Self.maximumSitemapURLs else {
                    fail("\(origin): more than \(Self.maximumSitemapURLs) URLs in its sitemaps; the rest are not read")
                    break
                }
                queue.add(url, lastModified: entry.lastModified)
                listed += 1
            }
        }
        let counts = "\(read) file\(read == 1 ? "" : "s"), \(listed) URL\(listed == 1 ? "" : "s")"
        report.sitemap = ([counts] + notes.prefix(3)).joined(separator: "; ")
    }
}
