import Foundation

/// A site's robots.txt as RFC 9309 reads it, for one crawler.
///
/// The group for the crawler's product token (`Encore`, any case) when the file has one,
/// else the `*` group; within it the longest matching `Allow`/`Disallow` path wins, and
/// `Allow` wins a tie. `*` in a path matches any run of characters and a final `$` anchors
/// the end. `Crawl-delay` of the chosen group and the file's `Sitemap` lines (wherever they
/// stand) are kept too. Other lines (garbage, HTML) are passed over, so a file of nonsense
/// allows everything.
public struct RobotsRules: Sendable, Equatable {
    struct Rule: Sendable, Equatable {
        var allows: Bool
        var pattern: String
    }

    var rules: [Rule]
    /// Seconds the site asks for between requests (`Crawl-delay`), if it says.
    public var crawlDelay: Double?
    /// The sitemaps the file lists, as written.
    public var sitemaps: [String] = []

    /// Only this much of a file is read (RFC 9309 asks crawlers to read at least 500 KiB).
    public static let readLimit = 512 * 1024

    /// Everything allowed (no robots.txt: a 404).
    public static let allowAll = RobotsRules(rules: [])
    /// Nothing allowed (robots.txt answered 5xx or the host was unreachable).
    public static let disallowAll = RobotsRules(rules: [Rule(allows: false, pattern: "/")])

    init(rules: [Rule]) {
        self.rules = rules
    }

    /// - Parameter agent: the product token (`Encore`).
    public init(_ data: Data, agent: String) {
        let text = String(decoding: data.prefix(Self.readLimit), as: UTF8.self)
        let token = agent.lowercased()
        var groups: [(agents: [String], rules: [Rule], delay: Double?)] = []
        var lastWasAgent = false
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "user-agent":
                if !lastWasAgent || groups.isEmpty { groups.append(([], [], nil)) }
                let product = value.split(whereSeparator: { $0 == "/" || $0 == " " }).first.map { $0.lowercased() } ?? ""
                groups[groups.count - 1].agents.append(product)
                lastWasAgent = true
            case "allow", "disallow":
                lastWasAgent = false
                guard !groups.isEmpty, !value.isEmpty else { continue }
                groups[groups.count - 1].rules.append(Rule(allows: key == "allow", pattern: value))
            case "crawl-delay":
                lastWasAgent = false
                guard !groups.isEmpty, let seconds = Double(value), seconds.isFinite, seconds >= 0 else { continue }
                groups[groups.count - 1].delay = seconds
            case "sitemap":
                if !value.isEmpty { sitemaps.append(value) }
            default:
                continue
            }
        }
        let own = groups.filter { $0.agents.contains(token) }
        let chosen = own.isEmpty ? groups.filter { $0.agents.contains("*") } : own
        rules = chosen.flatMap(\.rules)
        crawlDelay = chosen.compactMap(\.delay).max()
    }

    /// Whether the crawler may fetch `url` (its path and query, as sent).
    public func allows(_ url: URL) -> Bool {
        var path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
        if path.isEmpty { path = "/" }
        if path == "/robots.txt" { return true }
        if let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery { path += "?" + query }
        var best: Rule?
        for rule in rules where Self.matches(rule.pattern, path) {
            guard let current = best else {
                best = rule
                continue
            }
            let (length, currentLength) = (rule.pattern.utf8.count, current.pattern.utf8.count)
            if length > currentLength || (length == currentLength && rule.allows && !current.allows) { best = rule }
        }
        return best?.allows ?? true
    }

    /// Whether `pattern` (with `*` and a final `$`) matches the start of `path`.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        var pattern = Substring(pattern)
        let anchored = pattern.hasSuffix("$")
        if anchored { pattern = pattern.dropLast() }
        return GlobPattern.matches(Array(pattern.utf8), Array(path.utf8), wholeText: anchored)
    }
}

/// The robots.txt rules of each host met in one run, so a host's file is fetched once a
/// run however many sources crawl it, even when they reach it at the same moment. Nil
/// rules: the file could not be read (5xx, unreachable), so nothing of that host is fetched.
public actor RobotsCache {
    private var known: [String: Task<RobotsFetch, Never>] = [:]
    private var owners: [String: String] = [:]

    public init() {}

    /// Names the source whose summary counts the request for `origin`'s robots.txt (and
    /// its failure), whichever source asks first: the first to list it in the
    /// configuration, so that a run's counts do not depend on which source got there first.
    public func assign(_ origin: String, to source: String) {
        if owners[origin] == nil { owners[origin] = source }
    }

    /// The origin's rules; `fetch` runs for the first asker only, and the others wait for
    /// its answer. `counts` tells the asker whether the request and any error are its own
    /// to count: it owns the origin, or no one does and its own `fetch` ran.
    func rules(for origin: String, asker: String, fetch: @escaping @Sendable () async -> RobotsFetch) async -> (
        robots: RobotsFetch, counts: Bool
    ) {
        let owned = owners[origin].map { $0 == asker }
        if let task = known[origin] { return (await task.value, owned ?? false) }
        let task = Task { await fetch() }
        known[origin] = task
        return (await task.value, owned ?? true)
    }
}

/// What asking a host for its robots.txt gave.
struct RobotsFetch: Sendable {
    /// Nil: unreadable (5xx, unreachable), so nothing of the host is fetched this run.
    var rules: RobotsRules?
    /// For the host report: "200, crawl-delay 2 s", "404: everything allowed", …
    var status: String
    var error: String?
}

/// `*` as any run of characters, everything else literal.
enum GlobPattern {
    /// Whether `pattern` matches `text` whole, or (`wholeText` false) a prefix of it.
    static func matches(_ pattern: [UInt8], _ text: [UInt8], wholeText: Bool) -> Bool {
        let star = UInt8(ascii: "*")
        var p = 0
        var t = 0
        var backtrack: (p: Int, t: Int)?
        while true {
            if p == pattern.count {
                if !wholeText || t == text.count { return true }
            } else if pattern[p] == star {
                backtrack = (p, t)
                p += 1
                continue
            } else if t < text.count, pattern[p] == text[t] {
                p += 1
                t += 1
                continue
            }
            guard let last = backtrack, last.t < text.count else { return false }
            backtrack = (last.p, last.t + 1)
            p = last.p + 1
            t = last.t + 1
        }
    }
}
