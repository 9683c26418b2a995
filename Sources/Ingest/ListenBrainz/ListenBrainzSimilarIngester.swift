import Foundation
import Geo
import Listings

extension ListingSource {
    /// ListenBrainz: similar-artist lists only (no events); ranked after every event source.
    public static let listenbrainz = ListingSource(name: "listenbrainz", rank: 7)
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
