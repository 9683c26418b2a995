import Foundation

/// A city's scene of venue web sites, each a real server on a loopback address of its own
/// (127.0.0.2, 127.0.0.3, …), so that a crawl meets many hosts: a `robots.txt` (with a
/// `Crawl-delay` and a `Sitemap:` line when asked), a `sitemap.xml` with `lastmod`, a
/// calendar page linking to event pages that carry JSON-LD, `ETag`s and `304`s. Each
/// server logs when every request arrived, so a test or benchmark checks politeness
/// from the servers' side.
public final class VenueScene: Sendable {
    public struct Options: Sendable {
        /// Event pages per venue (the calendar links to them all).
        public var eventsPerVenue = 4
        /// `Crawl-delay` in each robots.txt, if any.
        public var crawlDelay: Double?
        /// Whether robots.txt names the sitemap (else the sitemap is still served).
        public var listsSitemap = true
        /// Whether the sitemap gives each page's `lastmod`.
        public var sitemapLastModified = true
        /// Seconds each answer of the venues in `slowVenues` takes.
        public var slowDelay = 0.0
        public var slowVenues: Set<Int> = []
        /// The first event's date; venue v's event e is v + e days later.
        public var firstDate = "2027-03-01"
        /// The first loopback address's last number; venue v listens on `firstAddress + v`.
        public var firstAddress = 2
        /// The addresses' third number: one scene each, so concurrent scenes never meet.
        public var subnet = 0

        public init() {}
    }

    public let options: Options
    public let servers: [LocalHTTPServer]

    /// - Parameter venues: how many sites; more than 250 spill into the next subnet.
    public init(venues: Int, options: Options = Options(), logsRequests: Bool = true) throws {
        self.options = options
        var servers: [LocalHTTPServer] = []
        for venue in 0..<venues {
            let number = options.firstAddress + venue
            let address = "127.0.\(options.subnet + number / 250).\(number % 250 + 1)"
            servers.append(try LocalHTTPServer(address: address, logsRequests: logsRequests) { request in
                Self.respond(to: request, venue: venue, options: options)
            })
        }
        self.servers = servers
    }

    public func stop() { servers.forEach { $0.stop() } }

    /// Each venue's calendar page, for `urls` or `urls_file`.
    public var calendarURLs: [URL] { servers.map { $0.baseURL.appendingPathComponent("calendar") } }

    public static let artists = [
        "Mavi Vapur", "Canyon Foxes", "Tide Parades", "Os Planetas Perdidos", "The Fountains", "Deniz Güneş",
        "Les Orages Dorés", "Otis Marsh", "Grace", "Ezra Irving", "Niccolò Galli", "Sacred Hounds",
    ]

    static func venueName(_ venue: Int) -> String { "Sala \(venue + 1)" }

    static func eventPage(venue: Int, event: Int, base: String, options: Options) -> String {
        let artist = artists[(venue * 7 + event) % artists.count]
        let day = date(options.firstDate, plus: venue % 200 + event)
        return """
            <!doctype html><html><head><title>\(artist)</title>
            <script type="application/ld+json">
            {"@context": "https://schema.org", "@type": "MusicEvent", "name": "\(artist) at \(venueName(venue))",
             "url": "\(base)/events/\(event)", "startDate": "\(day)T21:00:00+01:00",
             "location": {"@type": "MusicVenue", "name": "\(venueName(venue))", "url": "\(base)/",
               "address": {"@type": "PostalAddress", "streetAddress": "Calle \(venue + 1)", "addressLocality": "Bilbao",
                 "addressCountry": "ES"}},
             "performer": [{"@type": "MusicGroup", "name": "\(artist)"}]}
            </script></head><body><a href="/calendar">What's on</a></body></html>
            """
    }

    static func date(_ first: String, plus days: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let start = formatter.date(from: first) ?? Date(timeIntervalSince1970: 0)
        return formatter.string(from: start.addingTimeInterval(Double(days) * 86_400))
    }

    static func respond(to request: LocalHTTPServer.Request, venue: Int, options: Options) -> LocalHTTPServer.Response {
        let base = "http://" + (request.headers["host"] ?? "localhost")
        var type = "text/html"
        let body: String
        switch request.path {
        case "/robots.txt":
            type = "text/plain"
            body = "User-agent: *\nDisallow: /private/\n"
                + (options.crawlDelay.map { "Crawl-delay: \($0)\n" } ?? "")
                + (options.listsSitemap ? "Sitemap: \(base)/sitemap.xml\n" : "")
        case "/sitemap.xml":
            type = "application/xml"
            let paths = ["/calendar"] + (1...max(1, options.eventsPerVenue)).map { "/events/\($0)" }
            let entries = paths.map { path in
                "<url><loc>\(base)\(path)</loc>"
                    + (options.sitemapLastModified ? "<lastmod>2026-01-01T00:00:00Z</lastmod>" : "") + "</url>"
            }
            body = """
                <?xml version="1.0" encoding="UTF-8"?>
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                \(entries.joined(separator: "\n"))
                </urlset>
                """
        case "/calendar":
            let links = (1...max(1, options.eventsPerVenue)).map { "<a href=\"/events/\($0)\">Event \($0)</a>" }
            body = "<!doctype html><html><body><h1>\(venueName(venue))</h1>\n\(links.joined(separator: "\n"))\n</body></html>"
        default:
            guard request.path.hasPrefix("/events/"), let event = Int(request.path.dropFirst(8)),
                (1...options.eventsPerVenue).contains(event)
            else { return .init(status: 404) }
            body = eventPage(venue: venue, event: event, base: base, options: options)
        }
        let delay = options.slowVenues.contains(venue) ? options.slowDelay : 0
        // The same bytes, the same validator: a conditional request is answered 304.
        let etag = "\"\(String(UInt64(bitPattern: Int64(truncatingIfNeeded: stableHash(body))), radix: 16))\""
        if request.headers["if-none-match"] == etag { return .init(status: 304, headers: ["ETag": etag], delay: delay) }
        return .init(status: 200, headers: ["Content-Type": type, "ETag": etag], body: Data(body.utf8), delay: delay)
    }

    /// FNV-1a: the same on every run (Swift's `hashValue` is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// The shortest time between two requests any one server received (nil with fewer than
    /// two requests anywhere): what politeness looks like from the servers' side.
    public var shortestGap: Duration? {
        servers.compactMap { server -> Duration? in
            let times = server.requests.map(\.received).sorted()
            return zip(times, times.dropFirst()).map { $1 - $0 }.min()
        }.min()
    }

    public var requestCount: Int { servers.reduce(0) { $0 + $1.requests.count } }
}
