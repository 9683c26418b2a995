import Foundation
import Listings

/// Band pages whose band merged into another keep their addresses, as small pages saying
/// where the band went: a bookmark, a CDN's cached link or a feed reader's subscription
/// reaches the band it followed, never another (an address never changes owner).
///
/// At `artists/<old>.json`, `.html` and `.atom`:
/// - the JSON is `{"moved_to": "<slug>", "url": "artists/<slug>.json"}`
///   (`feeds/schema/artist-moved.schema.json`);
/// - the HTML page sends the browser on (`<meta http-equiv=refresh>`, a canonical link)
///   and links the band's page for those that do not follow it;
/// - the Atom feed keeps its old id and holds one entry, dated when the band moved, that
///   links the band's page and new feed, so a reader shows subscribers where to go.
extension FeedBuilder {
    func addMovedArtists(to tree: inout some FeedSink) throws {
        for moved in try source.movedArtistAddresses() {
            let stem = "artists/\(moved.slug)"
            let target = "artists/\(moved.current)"
            try tree.add(stem + ".json", FeedJSON.encode(MovedArtistPage(movedTo: moved.current, url: target + ".json")))
            try tree.add(stem + ".html", Self.movedPage(moved, path: stem + ".html", target: target))
            try tree.add(stem + ".atom", Self.movedFeed(moved, path: stem + ".atom", target: target))
        }
    }

    static func movedPage(_ moved: MovedArtistAddress, path: String, target: String) -> Data {
        let link = SiteHTML.linkHTML(target + ".html", moved.name)
        return SiteHTML.page(
            path: path, title: moved.name,
            head: "<meta http-equiv=refresh content=\"0; url=\(SiteHTML.attribute(target)).html\">"
                + "<link rel=canonical href=\"\(SiteHTML.attribute(target)).html\">",
            rendered: "<h1>\(Markup.escape(moved.name, quotes: false))</h1><p>This band's page has moved: \(link).</p>"
                + "<p>Subscribed to its feed? Its shows are announced at <a href=\"\(SiteHTML.attribute(target)).atom\">its new feed</a>.</p>")
    }

    static func movedFeed(_ moved: MovedArtistAddress, path: String, target: String) -> Data {
        let updated = moved.movedAt ?? UTCInstant(secondsSinceEpoch: 0)
        let name = AtomFeed.escape(moved.name)
        let entry = "<entry><id>tag:encore.invalid,2026:artist-moved/\(AtomFeed.escape(moved.slug))</id>"
            + "<title>\(name) has moved: subscribe to its new feed</title>"
            + "<link href=\"../\(AtomFeed.escape(target)).html\"/>"
            + "<link rel=\"related\" type=\"application/atom+xml\" href=\"../\(AtomFeed.escape(target)).atom\"/>"
            + "<updated>\(updated.description)</updated>"
            + "<summary>\(name)'s shows are now announced at \(AtomFeed.escape(target)).atom; this feed has no more entries.</summary></entry>"
        return AtomFeed.feed(
            id: "artist/\(moved.firstArtistID)", title: "New shows of \(moved.name) (moved)", path: path, page: target + ".html",
            updated: updated, entries: [entry])
    }
}

/// `artists/<old>.json` of a band that merged into another.
struct MovedArtistPage: Encodable {
    let movedTo: String
    let url: String

    enum CodingKeys: String, CodingKey {
        case movedTo = "moved_to"
        case url
    }
}
