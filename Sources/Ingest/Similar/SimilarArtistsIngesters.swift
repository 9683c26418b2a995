import Foundation
import Geo
import Listings

extension ListingSource {
    /// ListenBrainz: similar-artist lists only (no events); ranked after every event source.
    public static let listenbrainz = ListingSource(name: "listenbrainz", rank: 7)
}

/// The artist a similar-artists list is for, as a source names it: by MusicBrainz id
/// (`mbid:…`) or by name (`name:<folded name>`). The catalog resolves either to its artist
/// when asked, so a list may come before any listing of the artist.
enum SimilarTarget {
    static func key(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("mbid:") || trimmed.hasPrefix("name:") { return trimmed }
        return ListeningTally.isMBID(trimmed.lowercased()) ? "mbid:" + trimmed.lowercased() : "name:" + NameFolding.fold(trimmed)
    }

    /// A query parameter of the page's URL (`artist_mbids=…`, `artist=…`).
    static func queryValue(_ name: String, in locator: String) -> String? {
        URLComponents(string: locator)?.queryItems?.first { $0.name == name }?.value.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A similar-artist source's configuration takes artists, nothing else.
    static func artistsOnly(_ api: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: ["metro_areas", "venues"].map { key in
            (key, "\(api) lists similar artists only: give artists (names or MusicBrainz ids), not \(key)")
        })
    }

    static func failure(_ error: ListeningImportError, locator: String) -> IngestError {
        IngestError(locator: locator, position: error.position, reason: .malformed(error.message))
    }
}

/// ListenBrainz's similar artists (`labs.api.listenbrainz.org/similar-artists/json?
/// artist_mbids=…&algorithm=…`, no key): a JSON array of `{artist_mbid, name, score,
/// reference_mbid}`, best first. Scores are relative, so each is kept over the list's best.
public struct ListenBrainzSimilarIngester: Ingester {
    public let format = "listenbrainz-similar"
    public let source = ListingSource.listenbrainz
    public var crawlScheme: (any CrawlScheme)? { ListenBrainzSimilarCrawlScheme() }

    public init() {}

    public func recognizes(_ sample: ContentSample) -> Bool {
        sample.firstSignificantByte == UInt8(ascii: "[") && sample.contains("\"artist_mbid\"") && sample.contains("\"score\"")
            && !sample.contains("\"track_metadata\"")
    }

    public func parse(_ data: Data, context: PageContext) throws(IngestError) -> ListingPage {
        let locator = context.locator
        let rows: [[String: Any]]
        do {
            guard let array = try JSONSerialization.jsonObject(with: data) as? [Any] else {
                throw IngestError(locator: locator, reason: .unexpectedShape("not a JSON array of similar artists"))
            }
            rows = try array.enumerated().map { index, element throws(IngestError) in
                guard let row = element as? [String: Any] else {
                    throw IngestError(locator: locator, position: "[\(index)]", reason: .unexpectedShape("not an object"))
                }
                return row
            }
        } catch let error as IngestError {
            throw error
        } catch {
            throw IngestError(locator: locator, reason: .malformed("not JSON: \(error.localizedDescription)"))
        }
        let reference = rows.lazy.compactMap { $0["reference_mbid"] as? String }.first
            ?? context.similarArtistTarget ?? SimilarTarget.queryValue("artist_mbids", in: locator)
            ?? SimilarTarget.queryValue("artist_mbid", in: locator)
        guard let reference else {
            throw IngestError(
                locator: locator,
                reason: .unexpectedShape("no reference_mbid and no artist in the file name or --similar-to: whose list is it?"))
        }
        var artists: [ArtistListing] = []
        var scores: [Double] = []
        for (index, row) in rows.enumerated() {
            guard let mbid = (row["artist_mbid"] as? String)?.lowercased(), ListeningTally.isMBID(mbid) else {
                throw IngestError(locator: locator, position: "[\(index)].artist_mbid", reason: .invalidValue("not a MusicBrainz id"))
            }
            guard let score = (row["score"] as? NSNumber)?.doubleValue, score >= 0 else {
                throw IngestError(locator: locator, position: "[\(index)].score", reason: .invalidValue("not a score"))
            }
            let name = (row["name"] as? String).flatMap { ListingValues.clean($0) } ?? mbid
            artists.append(ArtistListing(sourceID: mbid, name: name, musicBrainzIDs: [mbid]))
            scores.append(score)
        }
        let best = max(scores.max() ?? 1, 1e-9)
        var page = ListingPage(source: source, locator: locator)
        page.similarArtists = SimilarArtistsListing(
            artistSourceID: SimilarTarget.key(reference), similar: artists, scores: scores.map { $0 / best })
        return page
    }
}

/// Last.fm's `artist.getSimilar`, as XML (`<lfm><similarartists artist="…"><artist>`) or
/// JSON (`{"similarartists": {"artist": […], "@attr": {"artist": "…"}}}`), each artist
/// with `name`, `mbid` and `match` (0 to 1).
public struct LastFMSimilarIngester: Ingester {
    public let format = "lastfm-similar"
    public let source = ListingSource.lastfm
    public var fileExtensions: Set<String> { ["json", "xml"] }
    public var crawlScheme: (any CrawlScheme)? { LastFMSimilarCrawlScheme() }

    public init() {}

    public func recognizes(_ sample: ContentSample) -> Bool {
        sample.contains("\"similarartists\"") || sample.contains("<similarartists")
    }

    public func parse(_ data: Data, context: PageContext) throws(IngestError) -> ListingPage {
        let locator = context.locator
        let isXML = ContentSample(data).firstSignificantByte == UInt8(ascii: "<")
        var (target, rows) = isXML ? try xml(data, locator: locator) : try json(data, locator: locator)
        if let given = context.similarToArtist { target = given }
        if target == nil { target = SimilarTarget.queryValue("mbid", in: locator) ?? SimilarTarget.queryValue("artist", in: locator) }
        guard let target else {
            throw IngestError(locator: locator, reason: .unexpectedShape("no similarartists artist attribute: whose list is it?"))
        }
        var artists: [ArtistListing] = []
        var scores: [Double] = []
        for (index, row) in rows.enumerated() {
            guard let name = row.name.flatMap({ ListingValues.clean($0) }) else {
                throw IngestError(locator: locator, position: "artist[\(index)].name", reason: .unexpectedShape("no name"))
            }
            guard let match = Double(row.match ?? ""), (0...1).contains(match) else {
                throw IngestError(locator: locator, position: "artist[\(index)].match", reason: .invalidValue("match \"\(row.match ?? "")\" is not between 0 and 1"))
            }
            let mbid = row.mbid.map { $0.lowercased() }.flatMap { ListeningTally.isMBID($0) ? $0 : nil }
            artists.append(ArtistListing(sourceID: mbid ?? "name:" + NameFolding.fold(name), name: name, musicBrainzIDs: mbid.map { [$0] } ?? [], url: row.url))
            scores.append(match)
        }
        var page = ListingPage(source: source, locator: locator)
        page.similarArtists = SimilarArtistsListing(artistSourceID: SimilarTarget.key(target), similar: artists, scores: scores)
        return page
    }

    struct Row {
        var name: String?
        var mbid: String?
        var match: String?
        var url: String?
    }

    private func json(_ data: Data, locator: String) throws(IngestError) -> (String?, [Row]) {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw IngestError(locator: locator, reason: .unexpectedShape("not a JSON object"))
            }
            object = parsed
        } catch let error as IngestError {
            throw error
        } catch {
            throw IngestError(locator: locator, reason: .malformed("not JSON: \(error.localizedDescription)"))
        }
        if let code = object["error"] {
            throw IngestError(locator: locator, position: "error", reason: .sourceError("Last.fm error \(code): \(object["message"] ?? "")"))
        }
        guard let list = object["similarartists"] as? [String: Any] else {
            throw IngestError(locator: locator, reason: .unexpectedShape("no similarartists object"))
        }
        // One artist comes as an object, not an array of one.
        let elements = (list["artist"] as? [Any]) ?? (list["artist"].map { [$0] } ?? [])
        let rows = elements.map { element -> Row in
            let artist = element as? [String: Any] ?? [:]
            func text(_ key: String) -> String? {
                if let string = artist[key] as? String { return string }
                return (artist[key] as? NSNumber)?.stringValue
            }
            return Row(name: text("name"), mbid: text("mbid"), match: text("match"), url: text("url"))
        }
        return ((list["@attr"] as? [String: Any])?["artist"] as? String, rows)
    }

    private func xml(_ data: Data, locator: String) throws(IngestError) -> (String?, [Row]) {
        var reader = StreamingXML(stream: ByteStream(bytes: [UInt8](data)), file: locator)
        var target: String?
        var rows: [Row] = []
        var row = Row()
        do {
            while let token = try reader.next() {
                switch token {
                case .open(let name, let attributes, let selfClosing):
                    if name == "lfm", attributes["status"] == "failed" { continue }
                    if name == "error", !selfClosing {
                        let message = try reader.elementText("error").trimmingCharacters(in: .whitespacesAndNewlines)
                        throw IngestError(locator: locator, reason: .sourceError("Last.fm error \(attributes["code"] ?? "?"): \(message)"))
                    }
                    if name == "similarartists" { target = attributes["artist"] }
                    guard !selfClosing, reader.depth == 4, ["name", "mbid", "match", "url"].contains(name) else { continue }
                    let text = try reader.elementText(name).trimmingCharacters(in: .whitespacesAndNewlines)
                    switch name {
                    case "name": row.name = text
                    case "mbid": row.mbid = text
                    case "match": row.match = text
                    default: row.url = text
                    }
                case .close(let name):
                    if name == "artist", reader.depth == 2 {
                        rows.append(row)
                        row = Row()
                    }
                case .text: break
                }
            }
        } catch let error as ListeningImportError {
            throw SimilarTarget.failure(error, locator: locator)
        } catch let error as IngestError {
            throw error
        } catch {
            throw IngestError(locator: locator, reason: .malformed("\(error)"))
        }
        return (target, rows)
    }
}

/// `encore refresh` asks ListenBrainz about followed artists the catalog has MusicBrainz
/// ids for: `{base}/similar-artists/json?artist_mbids=ID&algorithm=…`, one request each.
struct ListenBrainzSimilarCrawlScheme: CrawlScheme {
    static let algorithm = "session_based_days_7500_session_300_contribution_5_threshold_10_limit_100_filter_True_skip_30"
    let keyParameter = "token"
    let defaultPageSize = 100
    let maximumPageSize = 100
    var unsupportedKeys: [String: String] { SimilarTarget.artistsOnly("ListenBrainz") }

    func listings(
        for source: SourcesConfiguration.Source, window: DateWindow, lookup: @Sendable (ListingRequest) async -> ListingPage?
    ) async -> (requests: [ListingRequest], errors: [String]) {
        let ids = source.artists.map { $0.lowercased() }.filter(ListeningTally.isMBID)
        return (ids.map { id in
            ListingRequest(
                scope: "similar-artists/\(id)", path: "similar-artists/json",
                query: [URLQueryItem(name: "artist_mbids", value: id), URLQueryItem(name: "algorithm", value: Self.algorithm)],
                paged: false, listsEvents: false)
        }, [])
    }

    func url(for request: ListingRequest, page: Int, pageSize: Int, base: URL) -> URL {
        Self.url(base: base, path: request.path, query: request.query)
    }

    func pageCount(firstPage: ListingPage, pageSize: Int) -> PageCount { PageCount(pages: 1) }
}

/// `encore refresh` asks Last.fm `artist.getSimilar` about followed artists, by
/// MusicBrainz id when the catalog has one, else by name: one JSON request each.
struct LastFMSimilarCrawlScheme: CrawlScheme {
    let keyParameter = "api_key"
    let defaultPageSize = 50
    let maximumPageSize = 250
    var unsupportedKeys: [String: String] { SimilarTarget.artistsOnly("artist.getSimilar") }

    func listings(
        for source: SourcesConfiguration.Source, window: DateWindow, lookup: @Sendable (ListingRequest) async -> ListingPage?
    ) async -> (requests: [ListingRequest], errors: [String]) {
        (source.artists.map { artist in
            let parameter = ListeningTally.isMBID(artist.lowercased()) ? "mbid" : "artist"
            return ListingRequest(
                scope: "artist.getSimilar/\(artist.lowercased())", path: "",
                query: [
                    URLQueryItem(name: "method", value: "artist.getSimilar"), URLQueryItem(name: parameter, value: artist),
                    URLQueryItem(name: "format", value: "json"),
                ],
                paged: false, listsEvents: false)
        }, [])
    }

    func url(for request: ListingRequest, page: Int, pageSize: Int, base: URL) -> URL {
        Self.url(base: base, path: request.path, query: request.query + [URLQueryItem(name: "limit", value: String(pageSize))])
    }

    func pageCount(firstPage: ListingPage, pageSize: Int) -> PageCount { PageCount(pages: 1) }
}

/// Which followed artists a similar-artist source is asked about in a run: at most `cap`,
/// taking turns by day so that every followed artist's list is asked for in
/// `count / cap` days, and a nightly run stays polite however many artists fans follow.
public enum SimilarArtistTurns {
    public static func artists(followed: [(name: String, mbid: String?)], listBrainzIDsOnly: Bool, cap: Int, today: LocalDate) -> [String] {
        // ListenBrainz knows artists by MusicBrainz id only; Last.fm by either.
        let asked = followed.compactMap { artist in listBrainzIDsOnly ? artist.mbid : (artist.mbid ?? artist.name) }
        guard cap > 0, !asked.isEmpty else { return [] }
        guard asked.count > cap else { return asked }
        let start = (today.daysSinceEpoch * cap) % asked.count
        return (0..<cap).map { asked[(start + $0) % asked.count] }
    }
}
