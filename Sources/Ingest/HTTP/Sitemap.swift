import CZlib
import Foundation

/// A sitemap file (sitemaps.org): a `<urlset>` of pages or a `<sitemapindex>` of other
/// sitemaps, each entry a `<loc>` with an optional `<lastmod>`; gzipped or not.
///
/// Bounded like any body: at most ``maximumEntries`` entries are kept (the protocol's own
/// limit per file) and a gzipped file inflates to at most ``maximumInflatedBytes``; past
/// either, what was read is kept and ``truncated`` says so.
struct Sitemap: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var location: String
        var lastModified: Date?
    }

    /// The protocol's limits for one file: 50,000 URLs, 50 MB uncompressed.
    static let maximumEntries = 50_000
    static let maximumInflatedBytes = 50 * 1024 * 1024

    var isIndex = false
    var entries: [Entry] = []
    /// Entries (or bytes) past the bounds were dropped.
    var truncated = false

    /// - Throws: ``IngestError`` naming `locator` and the line of malformed XML.
    init(_ data: Data, locator: String) throws(IngestError) {
        var body = data
        if data.starts(with: [0x1f, 0x8b]) {
            guard let inflated = Self.gunzip(data) else {
                throw IngestError(locator: locator, reason: .malformed("not valid gzip"))
            }
            body = inflated.data
            truncated = inflated.truncated
        }
        let handler = Handler()
        try SafeXMLReader(locator: locator).read(body, into: handler)
        guard let root = handler.root, root == "urlset" || root == "sitemapindex" else {
            throw IngestError(
                locator: locator, reason: .unexpectedShape("not a sitemap: expected <urlset> or <sitemapindex>"))
        }
        isIndex = root == "sitemapindex"
        entries = handler.entries
        truncated = truncated || handler.dropped
    }

    /// Inflated bytes, cut at `capacity` (then `truncated`); nil if corrupt. The buffer
    /// starts near the data's likely size and doubles as needed, so memory follows what
    /// the file really holds, never the bound.
    static func gunzip(_ data: Data, capacity: Int = maximumInflatedBytes) -> (data: Data, truncated: Bool)? {
        var size = min(capacity, max(64 * 1024, data.count * 8))
        while true {
            var output = Data(count: size)
            let written = output.withUnsafeMutableBytes { out in
                data.withUnsafeBytes { input in
                    encore_gunzip(
                        input.bindMemory(to: UInt8.self).baseAddress, input.count, out.bindMemory(to: UInt8.self).baseAddress,
                        size)
                }
            }
            switch written {
            case -2 where size < capacity: size = min(capacity, size * 2)
            case -2: return (output, true)
            case ..<0: return nil
            default: return (output.prefix(written), false)
            }
        }
    }

    /// `2026-12-04`, `2026-12-04T19:30:00+01:00`, `2026-12-04T18:30Z`. A date alone means
    /// sometime that day: its end, so a page changed that evening is not taken for older.
    static func lastModified(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.count == 10 {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate]
            return formatter.date(from: text).map { $0.addingTimeInterval(86_400) }
        }
        // Seconds are optional in W3C Datetime; ISO8601DateFormatter wants them.
        var full = text
        if let t = full.firstIndex(of: "T") {
            let zone = full[t...].firstIndex { $0 == "Z" || $0 == "+" || $0 == "-" } ?? full.endIndex
            if full[t..<zone].filter({ $0 == ":" }).count == 1 { full.insert(contentsOf: ":00", at: zone) }
        }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: full) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: full)
    }

    private final class Handler: XMLRecordHandler {
        var root: String?
        var entries: [Entry] = []
        var dropped = false

        func shouldCollect(_ element: XMLOpenElement, in path: XMLElementPath) throws(IngestError) -> Bool {
            let name = Self.localName(element.name)
            if path.depth == 0 { root = name }
            return path.depth == 1 && (name == "url" || name == "sitemap")
        }

        func didCollect(_ record: XMLFragment, in path: XMLElementPath) throws(IngestError) {
            guard entries.count < Sitemap.maximumEntries else {
                dropped = true
                return
            }
            let children = record.children
            guard
                let location = children.first(where: { Self.localName($0.name) == "loc" })?.text
                    .trimmingCharacters(in: .whitespacesAndNewlines), !location.isEmpty
            else { return }
            let modified = children.first { Self.localName($0.name) == "lastmod" }.flatMap { Sitemap.lastModified($0.text) }
            entries.append(Entry(location: location, lastModified: modified))
        }

        static func localName(_ name: String) -> String {
            name.split(separator: ":").last.map(String.init) ?? name
        }
    }
}
