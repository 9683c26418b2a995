import Foundation
import Synchronization

/// Serves a world written by `encore-sample --formats` the way the real APIs serve their
/// listings, so `encore refresh --config` can crawl it over real HTTP on 127.0.0.1:
///
/// - Songkick: `/songkick/metro_areas/{id}/calendar.json` (or `.xml`) with `apikey` and
///   `page` (the world's pages; `per_page` must be the world's page size);
/// - Last.fm: `/lastfm/2.0/?method=geo.getEvents&location=NAME&page=N&api_key=...`,
///   XML, or JSON with `format=json` (NAME as in the world's file names, e.g. `london`);
/// - SeatGeek: `/seatgeek/2/events?client_id=...&lat=LAT&lon=LON&page=N` around a metro
///   area's centre (`per_page` must be the world's page size; the window and `range` are
///   not checked: each search is its metro area's).
/// - venues' own web sites: `/venues/` links to every venue page of the JSON-LD share
///   (`/venues/{slug}.html`), `/feeds/gig-guide.ics` is the iCalendar feed of all of
///   them, and `/robots.txt` keeps crawlers out of `/private/`.
///
/// Like the real services it answers a wrong key with 403, and sends an `ETag` and a
/// `Last-Modified` with every page, answering `If-None-Match` or `If-Modified-Since`
/// with 304 when the page has not changed.
public final class SampleAPIServer: Sendable {
    public let server: LocalHTTPServer
    /// The Songkick metro area ids the world has calendars for, ascending.
    public let songkickMetroAreas: [String]
    /// The Last.fm `geo.getEvents` locations the world has pages for, sorted.
    public let lastFMLocations: [String]
    /// Events per Songkick page in the world (the `per_page` a crawler must ask for).
    public let songkickPageSize: Int
    /// The `LAT,LNG` centres the world has SeatGeek searches around, sorted.
    public let seatGeekPlaces: [String]
    /// Events per SeatGeek page in the world (the `per_page` a crawler must ask for).
    public let seatGeekPageSize: Int
    /// The venue pages of the world's JSON-LD share (`{slug}.html`), sorted.
    public let venuePages: [String]

    public var baseURL: URL { server.baseURL }

    /// - Parameters:
    ///   - corpus: the `--out` directory of `encore-sample --formats`.
    ///   - apiKey: the key every request must carry.
    public init(corpus: URL, apiKey: String, port: UInt16 = 0) throws {
        let corpus = corpus.standardizedFileURL
        songkickMetroAreas = Self.firstPages(in: corpus.appendingPathComponent("songkick-json/metro-areas"), suffix: "-calendar-p1.json")
            .sorted { (Int($0) ?? 0, $0) < (Int($1) ?? 0, $1) }
        lastFMLocations = Self.firstPages(in: corpus.appendingPathComponent("lastfm-json/geo"), suffix: "-p1.json").sorted()
        songkickPageSize = Self.perPage(ofFirstCalendarIn: corpus.appendingPathComponent("songkick-json/metro-areas")) ?? 50
        seatGeekPlaces = Self.firstPages(in: corpus.appendingPathComponent("seatgeek/places"), suffix: "-p1.json").sorted()
        seatGeekPageSize = seatGeekPlaces.first.flatMap { place in
            let first = corpus.appendingPathComponent("seatgeek/places/\(place)-p1.json")
            let root = (try? Data(contentsOf: first)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            return (root?["meta"] as? [String: Any])?["per_page"] as? Int
        } ?? 50
        let slugs = Self.firstPages(in: corpus.appendingPathComponent("jsonld/venues"), suffix: ".html").sorted()
        venuePages = slugs.map { $0 + ".html" }
        let index = Self.venueIndex(slugs)
        let feed = slugs.isEmpty ? Data() : VenueFeedWriter.feed(of: slugs.compactMap {
            FileManager.default.contents(atPath: corpus.appendingPathComponent("jsonld/venues/\($0).html").path)
        })
        let validators = PageValidators()
        server = try LocalHTTPServer(port: port, logsRequests: false) { request in
            Self.answer(request, corpus: corpus, apiKey: apiKey, validators: validators, made: ["venues": index, "feeds": feed])
        }
    }

    public func stop() { server.stop() }

    /// An `encore.toml` crawling everything served, with the keys read from
    /// `SONGKICK_API_KEY`, `LASTFM_API_KEY` and `SEATGEEK_API_KEY`.
    public func sourcesConfiguration() -> String {
        func table(_ name: String, _ format: String, path: String, scopes: [String], pageSize: Int? = nil) -> String {
            guard !scopes.isEmpty else { return "" }
            let list = "[" + scopes.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
            return """
                [[source]]
                name = "\(name)"
                format = "\(format)"
                base_url = "\(baseURL.absoluteString)\(path)"
                api_key_env = "\(name.uppercased())_API_KEY"
                metro_areas = \(list)
                requests_per_second = 1000

                """ + (pageSize.map { "page_size = \($0)\n" } ?? "") + "\n"
        }
        var pages = ""
        if !venuePages.isEmpty {
            pages = """
                [[source]]
                name = "venues"
                format = "jsonld"
                urls = ["\(baseURL.absoluteString)/venues/"]
                follow = "\(baseURL.absoluteString)/*.html"
                max_pages = \(venuePages.count + 1)
                requests_per_second = 1000
                contact = "operator@encore.invalid"

                [[source]]
                name = "gig-guide"
                format = "ical"
                urls = ["\(baseURL.absoluteString)/feeds/gig-guide.ics"]
                requests_per_second = 1000
                contact = "operator@encore.invalid"

                """
        }
        return table("songkick", "songkick-json", path: "/songkick", scopes: songkickMetroAreas, pageSize: songkickPageSize)
            + table("lastfm", "lastfm-json", path: "/lastfm/2.0/", scopes: lastFMLocations)
            + table("seatgeek", "seatgeek", path: "/seatgeek/2", scopes: seatGeekPlaces, pageSize: seatGeekPageSize)
            + pages
    }

    /// A venues page linking to each venue's page, and to one place crawlers may not go.
    private static func venueIndex(_ slugs: [String]) -> Data {
        let links = slugs.map { "<li><a href=\"/venues/\($0).html\">\($0)</a></li>" }.joined(separator: "\n")
        return Data("""
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><title>Venues</title></head>
            <body>
            <ul>
            \(links)
            </ul>
            <p><a href="/private/guest-list.html">Guest list</a></p>
            </body>
            </html>

            """.utf8)
    }

    private static let robots = Data("User-agent: *\nDisallow: /private/\n".utf8)

    private static func perPage(ofFirstCalendarIn directory: URL) -> Int? {
        guard let name = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted().first,
            let data = try? Data(contentsOf: directory.appendingPathComponent(name)),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let page = root["resultsPage"] as? [String: Any]
        else { return nil }
        return page["perPage"] as? Int
    }

    private static func firstPages(in directory: URL, suffix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }
    }

    private static func answer(
        _ request: LocalHTTPServer.Request, corpus: URL, apiKey: String, validators: PageValidators, made: [String: Data]
    ) -> LocalHTTPServer.Response {
        let parts = request.path.split(separator: "/").map(String.init)
        let page = Int(request.query["page"] ?? "1") ?? 0
        guard page >= 1 else { return .init(status: 400) }
        let file: String
        switch parts.first {
        case "songkick":
            guard request.query["apikey"] == apiKey else { return .init(status: 403) }
            guard parts.count == 4, parts[1] == "metro_areas", isPlain(parts[2]),
                let format = ["calendar.json": "json", "calendar.xml": "xml"][parts[3]]
            else { return .init(status: 404) }
            file = "songkick-\(format)/metro-areas/\(parts[2])-calendar-p\(page).\(format)"
        case "lastfm":
            guard request.query["api_key"] == apiKey else { return .init(status: 403) }
            guard request.query["method"]?.lowercased() == "geo.getevents",
                let location = request.query["location"]?.lowercased(), isPlain(location)
            else { return .init(status: 400) }
            let format = request.query["format"] == "json" ? "json" : "xml"
            file = "lastfm-\(format)/geo/\(location)-p\(page).\(format)"
        case "seatgeek":
            guard request.query["client_id"] == apiKey else {
                let refusal = #"{"errors":[{"code":40307,"message":"Client is required"}],"status":403}"#
                return .init(status: 403, body: Data(refusal.utf8))
            }
            guard parts.count == 3, parts[1] == "2", parts[2] == "events", let lat = request.query["lat"],
                let lon = request.query["lon"], [lat, lon].allSatisfy(isDegrees)
            else { return .init(status: 400) }
            file = "seatgeek/places/\(lat),\(lon)-p\(page).json"
        case "robots.txt":
            return .init(status: 200, headers: ["Content-Type": "text/plain"], body: robots)
        case "venues" where parts.count == 1, "feeds" where parts == ["feeds", "gig-guide.ics"]:
            guard let body = made[parts[0]], !body.isEmpty else { return .init(status: 404) }
            let etag = "\"" + String(fnv1a(body), radix: 16) + "\""
            if request.headers["if-none-match"] == etag { return .init(status: 304, headers: ["ETag": etag]) }
            let type = parts[0] == "feeds" ? "text/calendar" : "text/html"
            return .init(status: 200, headers: ["ETag": etag, "Content-Type": type], body: body)
        case "venues":
            guard parts.count == 2, parts[1].hasSuffix(".html"), isPlain(String(parts[1].dropLast(5))) else {
                return .init(status: 404)
            }
            file = "jsonld/venues/\(parts[1])"
        default:
            return .init(status: 404)
        }
        let path = corpus.appendingPathComponent(file).path
        // Like a real API's cache, a page that has not changed is answered 304 without
        // being read again: hashing every page on every request was most of an
        // unchanged refresh's time on a two-core machine, server and crawler side by side.
        guard let version = PageValidators.Version(of: path) else { return .init(status: 404) }
        func notModified(_ etag: String, _ lastModified: String) -> Bool {
            request.headers["if-none-match"] == etag || request.headers["if-modified-since"] == lastModified
        }
        if let known = validators[path], known.version == version, notModified(known.etag, known.lastModified) {
            return .init(status: 304, headers: ["ETag": known.etag, "Last-Modified": known.lastModified])
        }
        guard let body = FileManager.default.contents(atPath: path) else { return .init(status: 404) }
        let etag = "\"" + String(fnv1a(body), radix: 16) + "\""
        let lastModified = httpDate(version.modified)
        validators[path] = (version, etag, lastModified)
        if notModified(etag, lastModified) {
            return .init(status: 304, headers: ["ETag": etag, "Last-Modified": lastModified])
        }
        let type = file.hasSuffix(".json") ? "application/json" : file.hasSuffix(".html") ? "text/html" : "application/xml"
        return .init(status: 200, headers: ["ETag": etag, "Last-Modified": lastModified, "Content-Type": type], body: body)
    }

    /// `-87.6298`: a number, nothing that could climb out of the corpus.
    private static func isDegrees(_ text: String) -> Bool {
        Double(text) != nil && text.utf8.allSatisfy { (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    /// Names that cannot climb out of the corpus.
    private static func isPlain(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "-")
        }
    }

    private static func fnv1a(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return hash
        }
    }

    /// An RFC 9110 IMF-fixdate, as `Last-Modified` carries.
    static func httpDate(_ date: Date) -> String {
        httpDateFormatter.string(from: date)
    }

    // Made once, not per request.
    private static let httpDateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()
}

/// Each served page's validators, with the file version they were made for: a file
/// rewritten (a test changing a page) has another inode, size or modification time.
final class PageValidators: Sendable {
    struct Version: Equatable, Sendable {
        let inode: UInt64
        let size: Int64
        let seconds: Int
        let nanoseconds: Int

        init?(of path: String) {
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            #if canImport(Darwin)
            let modified = status.st_mtimespec
            #else
            let modified = status.st_mtim
            #endif
            seconds = Int(modified.tv_sec)
            nanoseconds = Int(modified.tv_nsec)
        }

        var modified: Date {
            Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
        }
    }

    private let known = Mutex<[String: (version: Version, etag: String, lastModified: String)]>([:])

    subscript(path: String) -> (version: Version, etag: String, lastModified: String)? {
        get { known.withLock { $0[path] } }
        set { known.withLock { $0[path] = newValue } }
    }
}
