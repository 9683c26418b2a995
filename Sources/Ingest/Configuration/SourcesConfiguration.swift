import Foundation
import Geo
import Listings

/// `encore.toml`: the sources a scheduled `encore refresh` crawls.
///
/// ```toml
/// [[source]]
/// name = "songkick"                      # unique label, used in logs and the run log
/// format = "songkick-json"               # an ingester name
/// base_url = "https://api.songkick.com/api/3.0"
/// api_key_env = "SONGKICK_API_KEY"       # the key is read from this variable
/// metro_areas = ["24426"]                # source ids; place names ("Bilbao") resolve too
/// artists = ["Radiohead"]                # tracked artists of every local user are added
/// venues = []
/// requests_per_second = 5
/// page_size = 50                         # optional
/// max_pages = 20                         # optional
/// from = "today"                         # optional window: YYYY-MM-DD, today, tomorrow, +Nd, a weekday
/// to = "+180d"
///
/// [[source]]
/// name = "venues"
/// format = "jsonld"                      # or "ical": a page source, no API key
/// urls = ["https://venue.example/calendar"]
/// follow = "https://venue.example/events/*"   # optional: links to fetch too
/// max_pages = 200                        # optional, per run (default 100)
/// contact = "ops@example.org"            # required: sent in the User-Agent
/// keep = ["sports"]                      # optional: kinds of non-concerts to keep
/// country = "GB"                         # optional, any source: where its events are when
/// place = "Bristol, GB"                  #   an address leaves it open (ISO code; a place;
/// time_zone = "Europe/London"            #   an IANA zone)
/// ```
///
/// A page source may also list its pages in a file (`urls_file`, one URL a line) and read
/// its hosts' sitemaps (`sitemaps = true`, or `sitemap = URL`); the root table may cap the
/// requests in flight across every host (`max_connections`, default 16).
///
/// `keep` names kinds of listings that sources read from titles (iCalendar, JSON-LD)
/// would skip as no concerts (``NonConcertKind``: sports, anniversaries, readings, passes,
/// meet-and-greets, markets, workshops, films, theatre, comedy, exhibitions, games,
/// online, doors, tba, soundchecks, other); any source may set it.
public struct SourcesConfiguration: Sendable, Equatable {
    public struct Source: Sendable, Equatable {
        public var name: String
        public var format: String
        public var baseURL: URL
        /// The environment variable holding the API key (never the key itself).
        public var apiKeyEnvironmentVariable: String?
        public var metroAreas: [String]
        public var artists: [String]
        public var venues: [String]
        public var requestsPerSecond: Double
        public var pageSize: Int?
        public var maxPages: Int?
        public var from: String?
        public var to: String?
        /// Where the `[[source]]` table starts, for messages.
        public var line: Int
        /// A page source's pages (web pages or feeds fetched as they are); empty for an API.
        public var urls: [URL] = []
        /// Links on fetched pages that match this pattern (`*`: any run of characters) are
        /// fetched too.
        public var follow: String?
        /// Who runs this Encore (an e-mail address or URL), for the User-Agent of page sources.
        public var contact: String?
        /// Kinds of non-concerts this source's listings keep (`keep`).
        public var keep: Set<NonConcertKind> = []
        /// For similar-artist sources: how many followed artists a run asks about
        /// (`similar_artists_per_run`), taking turns from day to day.
        public var similarArtistsPerRun = SourcesConfiguration.defaultSimilarArtistsPerRun

        /// Whether the source lists similar artists only (ListenBrainz, Last.fm getSimilar).
        public var listsSimilarArtists: Bool { format == "listenbrainz-similar" || format == "lastfm-similar" }

        /// Where the source's events are when their addresses leave it open (`country`,
        /// `place`, `time_zone`).
        public var placeHint = PlaceEvidence()

        /// Read each host's sitemaps (robots.txt's `Sitemap:` lines, else `/sitemap.xml`).
        public var readsSitemaps = false
        /// Sitemaps named in the configuration (`sitemap`), read whatever robots.txt lists.
        public var sitemapURLs: [URL] = []
        /// Requests to one host in flight at once (`connections_per_host`, default 1).
        public var connectionsPerHost = 1
        /// Lines of `urls_file` that are no URL: skipped, each reported by file and line.
        public var urlListProblems: [ConfigurationError] = []

        /// Whether this source fetches pages (`urls`) rather than an API.
        public var isPageSource: Bool { !urls.isEmpty || !sitemapURLs.isEmpty }
    }

    /// Requests in flight at once across every host (`max_connections`).
    public var maxConnections = 16

    /// Pages a page source fetches per run unless `max_pages` says otherwise.
    public static let defaultMaxPages = 100
    /// Followed artists a similar-artist source is asked about per run by default.
    public static let defaultSimilarArtistsPerRun = 50

    public var sources: [Source]

    /// Parses and validates a configuration.
    /// - Parameter registry: the ingesters `format` may name; each one's crawl scheme
    ///   says what a source of its format may ask for (page size, what it lists).
    /// - Throws: ``ConfigurationError`` naming the line of the first mistake.
    /// - Parameter file: the configuration's path; `urls_file` is read relative to its folder.
    public init(parsing text: String, file: String? = nil, registry: IngesterRegistry = .standard) throws(ConfigurationError) {
        do {
            let document = try TOMLDocument(parsing: text)
            let folder = file.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
                ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            try self.init(document: document, registry: registry, folder: folder)
        } catch var error {
            error.file = error.file ?? file
            throw error
        }
    }

    init(document: TOMLDocument, registry: IngesterRegistry, folder: URL) throws(ConfigurationError) {
        let formats = registry.formats
        let known: Set<String> = [
            "name", "format", "base_url", "api_key_env", "metro_areas", "artists", "venues", "requests_per_second",
            "page_size", "max_pages", "from", "to", "urls", "follow", "contact", "keep", "country", "place", "time_zone",
            "urls_file", "sitemaps", "sitemap", "connections_per_host", "similar_artists_per_run",
        ]
        let rootReader = TableReader(table: document.root)
        if let limit = try rootReader.integer("max_connections") {
            guard (1...1024).contains(limit) else {
                throw ConfigurationError(line: document.root.entries["max_connections"]!.line, message: "max_connections must be 1...1024")
            }
            maxConnections = limit
        }
        if let (key, entry) = document.root.entries.filter({ $0.key != "max_connections" }).min(by: { $0.value.line < $1.value.line }) {
            throw ConfigurationError(line: entry.line, message: "\"\(key)\" must be inside a [[source]] table")
        }
        if let (name, table) = document.tables.min(by: { $0.value.line < $1.value.line }) {
            throw ConfigurationError(line: table.line, message: "unknown table [\(name)]; sources are [[source]] tables")
        }
        if let (name, tables) = document.arrays.first(where: { $0.key != "source" }) {
            throw ConfigurationError(line: tables[0].line, message: "unknown table [[\(name)]]; did you mean [[source]]?")
        }
        var sources: [Source] = []
        var names: [String: Int] = [:]
        for table in document.arrays["source"] ?? [] {
            if let (key, entry) = table.entries.filter({ !known.contains($0.key) }).min(by: { $0.value.line < $1.value.line }) {
                throw ConfigurationError(
                    line: entry.line, message: "unknown key \"\(key)\"; known keys: \(known.sorted().joined(separator: ", "))")
            }
            let reader = TableReader(table: table)
            let name = try reader.string("name")
            if let first = names[name] {
                throw ConfigurationError(line: table.entries["name"]!.line, message: "source name \"\(name)\" is already used on line \(first)")
            }
            names[name] = table.entries["name"]!.line
            let format = try reader.string("format")
            guard let ingester = registry.ingester(named: format) else {
                throw ConfigurationError(
                    line: table.entries["format"]!.line,
                    message: "unknown format \"\(format)\"; known formats: \(formats.joined(separator: ", "))")
            }
            let keep = try Self.keptKinds(table, reader: reader)
            let placeHint = try Self.placeHint(table, reader: reader)
            if PageSourceKeys.marks.contains(where: { table.entries[$0] != nil }) {
                let pageFormats = registry.ingesters.filter(\.readsWebPages).map(\.format)
                var source = try Self.pageSource(
                    table, reader: reader, name: name, format: format, pageFormats: pageFormats, folder: folder)
                source.keep = keep
                source.placeHint = placeHint
                sources.append(source)
                continue
            }
            let crawlScheme = ingester.crawlScheme
            let baseText = try reader.string("base_url")
            guard let baseURL = URL(string: baseText), let scheme = baseURL.scheme?.lowercased(),
                scheme == "http" || scheme == "https", baseURL.host != nil
            else {
                throw ConfigurationError(line: table.entries["base_url"]!.line, message: "base_url must be an http(s) URL; got \"\(baseText)\"")
            }
            let keyVariable = try reader.optionalString("api_key_env")
            if let keyVariable, keyVariable.isEmpty || keyVariable.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_") }) {
                throw ConfigurationError(
                    line: table.entries["api_key_env"]!.line,
                    message: "api_key_env names an environment variable (letters, digits, _), not the key itself")
            }
            let rate = try reader.number("requests_per_second") ?? 1
            guard rate > 0, rate <= 1000 else {
                throw ConfigurationError(line: table.entries["requests_per_second"]!.line, message: "requests_per_second must be between 0 and 1000")
            }
            let pageSize = try reader.integer("page_size")
            if let pageSize {
                let limit = crawlScheme?.maximumPageSize ?? 1000
                guard (1...limit).contains(pageSize) else {
                    throw ConfigurationError(line: table.entries["page_size"]!.line, message: "page_size for \(format) must be 1...\(limit)")
                }
            }
            let maxPages = try reader.integer("max_pages")
            if let maxPages, maxPages < 1 {
                throw ConfigurationError(line: table.entries["max_pages"]!.line, message: "max_pages must be at least 1")
            }
            for key in ["from", "to"] {
                if let text = try reader.optionalString(key),
                    DateExpression.resolve(text, today: LocalDate(year: 2000, month: 1, day: 1)!) == nil
                {
                    throw ConfigurationError(
                        line: table.entries[key]!.line, message: "\(key) must be YYYY-MM-DD, today, tomorrow, +Nd (like +30d) or a weekday (like fri); got \"\(text)\"")
                }
            }
            for (key, reason) in (crawlScheme?.unsupportedKeys ?? [:]).sorted(by: { $0.key < $1.key })
            where !(try reader.strings(key)).isEmpty {
                throw ConfigurationError(line: table.entries[key]!.line, message: reason)
            }
            var source = Source(
                name: name, format: format, baseURL: baseURL, apiKeyEnvironmentVariable: keyVariable,
                metroAreas: try reader.strings("metro_areas"), artists: try reader.strings("artists"),
                venues: try reader.strings("venues"), requestsPerSecond: rate, pageSize: pageSize, maxPages: maxPages,
                from: try reader.optionalString("from"), to: try reader.optionalString("to"), line: table.line)
            source.keep = keep
            source.placeHint = placeHint
            if let cap = try reader.integer("similar_artists_per_run") {
                guard source.listsSimilarArtists else {
                    throw ConfigurationError(
                        line: table.entries["similar_artists_per_run"]!.line,
                        message: "similar_artists_per_run goes with the similar-artist formats (listenbrainz-similar, lastfm-similar)")
                }
                guard cap >= 0 else {
                    throw ConfigurationError(line: table.entries["similar_artists_per_run"]!.line, message: "similar_artists_per_run must be 0 or more")
                }
                source.similarArtistsPerRun = cap
            }
            sources.append(source)
        }
        guard !sources.isEmpty else {
            throw ConfigurationError(line: 1, message: "no [[source]] tables: nothing to crawl")
        }
        self.sources = sources
    }

    /// `keep = ["sports", "films"]`: kinds of non-concerts a source keeps.
    private static func keptKinds(_ table: TOMLDocument.Table, reader: TableReader) throws(ConfigurationError) -> Set<NonConcertKind> {
        var kinds: Set<NonConcertKind> = []
        for name in try reader.strings("keep") {
            guard let kind = NonConcertKind(rawValue: name.lowercased().trimmingCharacters(in: .whitespaces)) else {
                throw ConfigurationError(
                    line: table.entries["keep"]?.line ?? table.line,
                    message: "keep names kinds of non-concerts; \"\(name)\" is none. Kinds: "
                        + NonConcertKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            kinds.insert(kind)
        }
        return kinds
    }

    /// `country`, `place` and `time_zone`: checked here, so a typo fails the configuration
    /// rather than placing every event wrongly.
    private static func placeHint(_ table: TOMLDocument.Table, reader: TableReader) throws(ConfigurationError) -> PlaceEvidence {
        var hint = PlaceEvidence()
        if let text = try reader.optionalString("country") {
            guard let code = CountryNames.code(for: text) else {
                throw ConfigurationError(
                    line: table.entries["country"]!.line, message: "country must be an ISO 3166 code or a country's name, like \"GB\"; got \"\(text)\"")
            }
            hint.configuredCountry = code
        }
        hint.configuredPlace = try reader.optionalString("place")?.trimmingCharacters(in: .whitespaces)
        if let text = try reader.optionalString("time_zone") {
            guard TimeZone(identifier: text) != nil else {
                throw ConfigurationError(
                    line: table.entries["time_zone"]!.line, message: "time_zone must be an IANA zone, like \"Europe/London\"; got \"\(text)\"")
            }
            hint.configuredZone = text
        }
        return hint
    }

    /// A `[[source]]` with `urls`: pages fetched as they are, with links followed.
    /// - Parameter pageFormats: the formats whose ingesters read web pages or feeds as
    ///   served (JSON-LD, iCalendar), the only ones a source may list `urls` of.
    private static func pageSource(
        _ table: TOMLDocument.Table, reader: TableReader, name: String, format: String, pageFormats: [String], folder: URL
    ) throws(ConfigurationError) -> Source {
        func line(_ key: String) -> Int { table.entries[key]?.line ?? table.line }
        guard pageFormats.contains(format) else {
            throw ConfigurationError(
                line: line("urls"),
                message: "\(format) is crawled through its API (base_url), not from urls; page formats: "
                    + pageFormats.sorted().joined(separator: ", "))
        }
        for key in ["base_url", "api_key_env", "metro_areas", "artists", "venues", "page_size"] where table.entries[key] != nil {
            throw ConfigurationError(line: line(key), message: "\(key) applies to API sources; a page source fetches its urls")
        }
        let texts = try reader.strings("urls")
        var urls: [URL] = []
        for text in texts {
            guard let url = PageSourceKeys.webURL(text) else {
                throw ConfigurationError(line: line("urls"), message: "urls must be http(s) URLs; got \"\(text)\"")
            }
            urls.append(url)
        }
        var problems: [ConfigurationError] = []
        if let path = try reader.optionalString("urls_file") {
            let list = try PageSourceKeys.urlList(path, folder: folder, line: line("urls_file"))
            urls += list.urls
            problems = list.problems
        }
        var sitemapURLs: [URL] = []
        if let text = try reader.optionalString("sitemap") {
            guard let url = PageSourceKeys.webURL(text) else {
                throw ConfigurationError(line: line("sitemap"), message: "sitemap must be an http(s) URL; got \"\(text)\"")
            }
            sitemapURLs.append(url)
        }
        let readsSitemaps = try reader.boolean("sitemaps") ?? !sitemapURLs.isEmpty
        guard !urls.isEmpty || !sitemapURLs.isEmpty else {
            throw ConfigurationError(
                line: line(table.entries["urls_file"] != nil ? "urls_file" : "urls"),
                message: (table.entries["urls"] != nil ? "urls is empty" : "no pages to fetch")
                    + ": list the pages to fetch, like [\"https://venue.example/calendar\"], in urls_file, or name a sitemap")
        }
        let perHost = try reader.integer("connections_per_host") ?? 1
        guard (1...16).contains(perHost) else {
            throw ConfigurationError(line: line("connections_per_host"), message: "connections_per_host must be 1...16")
        }
        let follow = try reader.optionalString("follow")
        // A `*` in the pattern's host follows links on each page's own host (a venue list's).
        if let follow, !(follow.components(separatedBy: "://").dropFirst().first?.prefix { $0 != "/" }.contains("*") ?? false) {
            let host = URL(string: follow.replacingOccurrences(of: "*", with: "x"))?.host?.lowercased()
            guard let host, (urls + sitemapURLs).contains(where: { $0.host?.lowercased() == host }) else {
                throw ConfigurationError(
                    line: line("follow"),
                    message: "follow must be a URL pattern on the host of one of the urls (links are followed on the same host only); got \"\(follow)\"")
            }
        }
        guard let contact = try reader.optionalString("contact")?.trimmingCharacters(in: .whitespaces), !contact.isEmpty else {
            throw ConfigurationError(
                line: line("contact"),
                message: "a page source needs contact = \"you@example.org\" (or a URL): it goes into the User-Agent, so sites can reach you")
        }
        guard !contact.contains(where: { $0.isNewline || $0 == "(" || $0 == ")" }) else {
            throw ConfigurationError(line: line("contact"), message: "contact must be one e-mail address or URL")
        }
        let rate = try reader.number("requests_per_second") ?? 1
        guard rate > 0, rate <= 1000 else {
            throw ConfigurationError(line: line("requests_per_second"), message: "requests_per_second must be between 0 and 1000")
        }
        let maxPages = try reader.integer("max_pages")
        if let maxPages, maxPages < 1 {
            throw ConfigurationError(line: line("max_pages"), message: "max_pages must be at least 1")
        }
        for key in ["from", "to"] {
            if let text = try reader.optionalString(key),
                DateExpression.resolve(text, today: LocalDate(year: 2000, month: 1, day: 1)!) == nil
            {
                throw ConfigurationError(line: line(key), message: "\(key) must be YYYY-MM-DD, today or +Nd; got \"\(text)\"")
            }
        }
        var source = Source(
            name: name, format: format, baseURL: urls.first ?? sitemapURLs[0], apiKeyEnvironmentVariable: nil, metroAreas: [], artists: [],
            venues: [], requestsPerSecond: rate, pageSize: nil, maxPages: maxPages ?? defaultMaxPages,
            from: try reader.optionalString("from"), to: try reader.optionalString("to"), line: table.line)
        source.urls = urls
        source.follow = follow
        source.contact = contact
        source.readsSitemaps = readsSitemaps
        source.sitemapURLs = sitemapURLs
        source.connectionsPerHost = perHost
        source.urlListProblems = problems
        return source
    }
}

/// Typed access to a table's keys, with the line of a wrong type in errors.
private struct TableReader {
    let table: TOMLDocument.Table

    func string(_ key: String) throws(ConfigurationError) -> String {
        guard let value = try optionalString(key) else {
            throw ConfigurationError(line: table.line, message: "this [[source]] needs \(key) = \"...\"")
        }
        return value
    }

    func optionalString(_ key: String) throws(ConfigurationError) -> String? {
        guard let entry = table.entries[key] else { return nil }
        guard case .string(let text) = entry.value else {
            throw ConfigurationError(line: entry.line, message: "\(key) must be a string in quotes")
        }
        return text
    }

    func strings(_ key: String) throws(ConfigurationError) -> [String] {
        guard let entry = table.entries[key] else { return [] }
        guard case .array(let values) = entry.value else {
            throw ConfigurationError(line: entry.line, message: "\(key) must be an array like [\"a\", \"b\"]")
        }
        var result: [String] = []
        for value in values {
            switch value {
            case .string(let text): result.append(text)
            case .integer(let number): result.append(String(number))
            default: throw ConfigurationError(line: entry.line, message: "\(key) must hold strings (or ids)")
            }
        }
        return result
    }

    func number(_ key: String) throws(ConfigurationError) -> Double? {
        guard let entry = table.entries[key] else { return nil }
        switch entry.value {
        case .integer(let value): return Double(value)
        case .float(let value): return value
        default: throw ConfigurationError(line: entry.line, message: "\(key) must be a number")
        }
    }

    func boolean(_ key: String) throws(ConfigurationError) -> Bool? {
        guard let entry = table.entries[key] else { return nil }
        guard case .boolean(let value) = entry.value else {
            throw ConfigurationError(line: entry.line, message: "\(key) must be true or false")
        }
        return value
    }

    func integer(_ key: String) throws(ConfigurationError) -> Int? {
        guard let entry = table.entries[key] else { return nil }
        guard case .integer(let value) = entry.value else {
            throw ConfigurationError(line: entry.line, message: "\(key) must be a whole number")
        }
        return value
    }
}

/// What makes a `[[source]]` a page source, and its list of URLs in a file.
enum PageSourceKeys {
    static let marks = ["urls", "urls_file", "sitemap", "sitemaps"]

    static func webURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else { return nil }
        return url
    }

    /// `urls_file`: one URL a line; blank lines and `#` comments are passed over. A line
    /// that is no URL is skipped and reported by the file's name and its line number; the
    /// other lines still count.
    /// - Throws: when the file cannot be read at all (named on the configuration's `line`).
    static func urlList(_ path: String, folder: URL, line: Int) throws(ConfigurationError) -> (
        urls: [URL], problems: [ConfigurationError]
    ) {
        let file = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw ConfigurationError(line: line, message: "urls_file \"\(path)\" cannot be read: \(error.localizedDescription)")
        }
        var urls: [URL] = []
        var problems: [ConfigurationError] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // A comment starts at a `#` that begins the line or follows a space: a URL's
            // own `#fragment` stays.
            var content = Substring(raw)
            if let hash = content.indices.first(where: {
                content[$0] == "#" && ($0 == content.startIndex || content[content.index(before: $0)].isWhitespace)
            }) { content = content[..<hash] }
            let candidate = content.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !candidate.isEmpty else { continue }
            if let url = webURL(candidate), !candidate.contains(" ") {
                urls.append(url)
            } else {
                problems.append(ConfigurationError(
                    file: path, line: index + 1, message: "not an http(s) URL: \"\(candidate.prefix(200))\"; this line is skipped"))
            }
        }
        return (urls, problems)
    }
}
