import Foundation
import Geo
import Listings

/// Reads Songkick API v3 JSON: event lists (artist, metro-area and venue calendars),
/// event details, artist search, similar artists, location search and venue details.
///
/// ```swift
/// let page = try SongkickJSONIngester().parse(data, context: PageContext(locator: "metro-p1.json"))
/// ```
public struct SongkickJSONIngester: Ingester {
    public let format = "songkick-json"
    public let source = ListingSource.songkick
    public var crawlScheme: (any CrawlScheme)? { SongkickCrawlScheme(fileExtension: "json") }

    public init() {}

    public func recognizes(_ sample: ContentSample) -> Bool {
        sample.firstSignificantByte == UInt8(ascii: "{") && sample.contains("\"resultsPage\"")
    }

    public func parse(_ data: Data, context: PageContext) throws(IngestError) -> ListingPage {
        let envelope = try JSONReader.read(data, locator: context.locator) { reader throws(JSONReader.Failure) in
            try SongkickJSON.Envelope.read(&reader)
        }
        let resultsPage = envelope.resultsPage
        guard resultsPage.status == "ok" else {
            let message = resultsPage.error?.message ?? "status \"\(resultsPage.status)\""
            throw IngestError(locator: context.locator, position: "resultsPage.status", reason: .sourceError(message))
        }
        let normalizer = SongkickNormalizer(locator: context.locator)
        var page = ListingPage(source: source, locator: context.locator)
        if let number = resultsPage.page {
            page.paging = .init(page: number, perPage: resultsPage.perPage, totalEntries: resultsPage.totalEntries)
        }
        guard let results = resultsPage.results else { return page }
        let base = "resultsPage.results"

        if let events = results.event {
            for (index, event) in events.elements.enumerated() {
                let path = events.wasSingle ? "\(base).event" : "\(base).event[\(index)]"
                page.events.append(try normalizer.event(event, at: path))
            }
            SongkickNormalizer.resolveActsBilledByName(&page.events)
        }
        if let artists = results.artist {
            for (index, artist) in artists.elements.enumerated() {
                let path = artists.wasSingle ? "\(base).artist" : "\(base).artist[\(index)]"
                page.artists.append(try normalizer.artist(artist, at: path))
            }
        }
        if let venues = results.venue {
            for (index, venue) in venues.elements.enumerated() {
                let path = venues.wasSingle ? "\(base).venue" : "\(base).venue[\(index)]"
                page.venues.append(try normalizer.venue(venue, location: nil, at: path))
            }
        }
        if let locations = results.location {
            for (index, location) in locations.enumerated() {
                if let metro = location.metroArea {
                    let path = "\(base).location[\(index)].metroArea"
                    if let listing = try normalizer.metroArea(metro, at: path) { page.metroAreas.append(listing) }
                }
            }
        }
        page.similarArtists = SimilarArtistsListing(of: page, for: context)
        return page
    }
}

extension SimilarArtistsListing {
    /// A Songkick page's artists as the similar artists of the context's target, when it
    /// names one and the page lists artists only. A page with none says the artist has
    /// none now, and clears what an earlier page said. A page of a longer list replaces
    /// its own ranks (the last page, every rank from its first on), so the pages of a
    /// list may come in any order.
    init?(of page: ListingPage, for context: PageContext) {
        guard let target = context.similarArtistTarget,
            page.events.isEmpty, page.venues.isEmpty, page.metroAreas.isEmpty
        else { return nil }
        // Songkick's default page size, should a page not say its own.
        let perPage = page.paging?.perPage ?? 50
        let firstRank = (max(page.paging?.page ?? 1, 1) - 1) * perPage + 1
        let isLast = page.paging?.totalEntries.map { firstRank - 1 + page.artists.count >= $0 } ?? true
        self.init(
            artistSourceID: target, similar: page.artists, firstRank: firstRank, ranksReplaced: isLast ? nil : perPage)
    }
}

extension ListingSource {
    /// The concert database: after the box office, ahead of the resellers and fan sites.
    public static let songkick = ListingSource(name: "songkick", rank: 1)
}
