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

        /// Whether this source fetches pages (`urls`) rather than an API.
        public var isPageSource: Bool { !urls.isEmpty }
    }

    /// Pages a page source fetches per run unless `max_pages` says otherwise.
    public static let defaultMaxPages = 100
    /// Followed artists a similar-artist source is asked about per run by default.
    public static let defaultSimilarArtistsPerRun = 50

    public var sources: [Source]

    /// Parses and validates a configuration.
    /// - Parameter registry: the ingesters `format` may name; each one's crawl scheme
    ///   says what a source of its format may ask for (page size, what it lists).
    /// - Throws: ``ConfigurationError`` naming the line of the first mistake.
    public init(parsing text: String, file: String? = nil, registry: IngesterRegistry = .standard) throws(ConfigurationError) {
        do {
            let document = try TOMLDocument(parsing: text)
            try self.init(document: document, registry: registry)
        } catch var error {
            error.file = file
            throw error
        }
    }

    init(document: TOMLDocument, registry: IngesterRegistry) throws(ConfigurationError) {
        let formats = registry.formats
        let known: Set<String> = [
            "name", "format", "base_url", "api_key_env", "metro_areas", "artists", "venues", "requests_per_second",
            "page_size", "max_pages", "from", "to", "urls", "follow", "contact", "keep", "country", "place", "time_zone",
            "similar_artists_per_run",
        ]
        if let (key, entry) = document.root.entries.min(by: { $0.value.line < $1.value.line }) {
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
            if table.entries["urls"] != nil {
                let pageFormats = registry.ingesters.filter(\.readsWebPages).map(\.format)
                var source = try Self.pageSource(table, reader: reader, name: name, format: format, pageFormats: pageFormats)
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
        _ table: TOMLDocument.Table, reader: TableReader, name: String, format: String, pageFormats: [String]
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
        guard !texts.isEmpty else {
            throw ConfigurationError(line: line("urls"), message: "urls is empty: list the pages to fetch, like [\"https://venue.example/calendar\"]")
        }
        var urls: [URL] = []
        for text in texts {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                url.host != nil
            else {
                throw ConfigurationError(line: line("urls"), message: "urls must be http(s) URLs; got \"\(text)\"")
            }
            urls.append(url)
        }
        let follow = try reader.optionalString("follow")
        if let follow {
            let host = URL(string: follow.replacingOccurrences(of: "*", with: "x"))?.host?.lowercased()
            guard let host, urls.contains(where: { $0.host?.lowercased() == host }) else {
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
            name: name, format: format, baseURL: urls[0], apiKeyEnvironmentVariable: nil, metroAreas: [], artists: [],
            venues: [], requestsPerSecond: rate, pageSize: nil, maxPages: maxPages ?? defaultMaxPages,
            from: try reader.optionalString("from"), to: try reader.optionalString("to"), line: table.line)
        source.urls = urls
        source.follow = follow
        source.contact = contact
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

    func integer(_ key: String) throws(ConfigurationError) -> Int? {
        guard let entry = table.entries[key] else { return nil }
        guard case .integer(let value) = entry.value else {
            throw ConfigurationError(line: entry.line, message: "\(key) must be a whole number")
        }
        return value
    }
}
