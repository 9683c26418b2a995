import Foundation
import Geo
import Listings

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
