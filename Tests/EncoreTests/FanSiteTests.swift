import Catalog
import Foundation
import Geo
import Ingest
import Listings
import Testing

@testable import Feeds

/// Issue 50: the site as a fan uses it — changes that reach feed readers, tickets up
/// front, concert data others can read, following without an account.
struct FanSiteTests {
    /// A clock the test moves.
    final class Clock: @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 1_800_000_000)
    }

    let bilbao = Coordinate(latitude: 43.2627, longitude: -2.9253)
    let stamp = UTCInstant(iso: "2026-11-22T08:00:00Z")!

    func show(status: EventStatus = .scheduled, time: String = "20:30", offers: [OfferListing] = []) -> ListingPage {
        var page = ListingPage(source: .songkick, locator: "show")
        page.events.append(EventListing(
            sourceID: "s1", title: "Mavi Vapur at Sala Itsaso (December 3, 2026)", status: status,
            start: EventStart(localDate: TestSupport.today.adding(days: 11), localTime: LocalTime(iso: time), timeZone: "Europe/Madrid"),
            venue: VenueListing(sourceID: "v1", name: "SALA ITSASO", city: "Bilbao", country: "ES", coordinate: bilbao),
            lineup: [PerformanceListing(artist: ArtistListing(sourceID: "a1", name: "Mavi Vapur"), billing: .headline, order: 1)],
            note: "Doors 19:30, first act 20:30.", offers: offers))
        return page
    }

    func site(_ catalog: CatalogDatabase) throws -> [String: Data] {
        try FeedBuilder(source: catalog, today: TestSupport.today, generatedAt: stamp).build().files
    }

    func text(_ files: [String: Data], _ path: String) -> String {
        files[path].map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    func catalogWithClock() throws -> (CatalogDatabase, Clock) {
        let clock = Clock()
        let path = try TestSupport.temporaryDirectory().appendingPathComponent("catalog.sqlite").path
        return (try CatalogDatabase(path: path, now: { clock.now }), clock)
    }

    func value(of tag: String, in xml: Substring) -> String {
        guard let open = xml.range(of: "<\(tag)>"), let close = xml.range(of: "</\(tag)>", range: open.upperBound..<xml.endIndex)
        else { return "" }
        return String(xml[open.upperBound..<close.lowerBound])
    }

    func entry(_ feed: String) -> Substring {
        guard let start = feed.range(of: "<entry>") else { return "" }
        return feed[start.lowerBound...]
    }

    @Test func cancellingAShowUpdatesItsAtomEntryAndFeedButKeepsItsIdAndBandPage() throws {
        let (catalog, clock) = try catalogWithClock()
        _ = try catalog.apply(show())
        let before = text(try site(catalog), "artists/mavi-vapur.atom")
        clock.now += 86_400
        _ = try catalog.apply(show(status: .cancelled))
        let files = try site(catalog)
        let after = text(files, "artists/mavi-vapur.atom")
        #expect(value(of: "id", in: entry(after)) == value(of: "id", in: entry(before)))
        #expect(value(of: "updated", in: entry(after)) == "2027-01-16T08:00:00Z")
        #expect(value(of: "updated", in: entry(before)) == "2027-01-15T08:00:00Z")
        #expect(value(of: "title", in: entry(after)) == "Cancelled: Mavi Vapur at Sala Itsaso")
        #expect(value(of: "summary", in: entry(after)).hasPrefix("Cancelled. "))
        // The feed's own <updated> (before the first entry) follows its newest entry.
        #expect(value(of: "updated", in: after[...]) == "2027-01-16T08:00:00Z")
        // Still on its band's page, marked; its page sells no tickets.
        #expect(text(files, "artists/mavi-vapur.html").contains("<li class=cancelled>"))
        let event = try #require(try catalog.events(ids: catalog.eventIDs(since: TestSupport.today)).first)
        #expect(!text(files, "events/\(event.id).html").contains("class=buy"))
    }

    @Test func reTimingAShowSaysTheNewTimeFirstAndAnUnchangedRebuildChangesNothing() throws {
        let (catalog, clock) = try catalogWithClock()
        _ = try catalog.apply(show())
        clock.now += 3_600
        _ = try catalog.apply(show(time: "21:00"))
        let feed = text(try site(catalog), "artists/mavi-vapur.atom")
        #expect(value(of: "title", in: entry(feed)).hasPrefix("New time: "))
        #expect(value(of: "updated", in: entry(feed)) == "2027-01-15T09:00:00Z")
        clock.now += 3_600
        _ = try catalog.apply(show(time: "21:00"))
        #expect(text(try site(catalog), "artists/mavi-vapur.atom") == feed)
    }

    @Test func theConcertPageGivesPriceSellersDoorsAndReadableTimeBeforeTheLineup() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(show(offers: [
            OfferListing(url: "https://tickets.example/s1", priceMin: 22, priceMax: 30, currency: "EUR", onSale: "2026-11-01T10:00:00+01:00")
        ]))
        let files = try site(catalog)
        let event = try #require(try catalog.events(ids: catalog.eventIDs(since: TestSupport.today)).first)
        let page = text(files, "events/\(event.id).html")
        let lineup = try #require(page.range(of: "<h2>Lineup</h2>")).lowerBound
        for fact in ["<dt>Price<dd>€22–30", "<dt>Doors<dd>19:30", "20:30 Madrid time", "Sun 1 Nov 2026, 10:00",
            "<a class=buy href=\"https://tickets.example/s1\">Tickets<span> at tickets.example</span></a>"]
        {
            let found = try #require(page.range(of: fact), "\(fact)")
            #expect(found.lowerBound < lineup, "\(fact)")
        }
        #expect(page.contains("<h1>Mavi Vapur at Sala Itsaso</h1>") && page.contains("Sala Itsaso</a>"))
        #expect(!page.contains("SALA ITSASO</a>") && !page.contains("Europe/Madrid") && !page.contains("jsonld"))
        // Lists show the price too.
        #expect(text(files, "artists/mavi-vapur.html").contains("· €22–30"))
    }

    @Test func theConcertPagesJSONLDReadsBackThroughEncoresOwnIngester() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(show(offers: [OfferListing(url: "https://tickets.example/s1", priceMin: 22, priceMax: 30, currency: "EUR")]))
        let event = try #require(try catalog.events(ids: catalog.eventIDs(since: TestSupport.today)).first)
        let page = try #require(try site(catalog)["events/\(event.id).html"])
        let read = try JSONLDIngester().parse(page, context: PageContext(locator: "events/\(event.id).html"))
        let listing = try #require(read.events.first)
        #expect(read.events.count == 1)
        #expect(listing.title == "Mavi Vapur at Sala Itsaso")
        #expect(listing.start.localDate == event.start.localDate && listing.start.localTime == event.start.localTime)
        #expect(listing.start.utc == event.start.utc)
        #expect(listing.lineup.map(\.artist.name) == ["Mavi Vapur"])
        #expect(listing.venue?.name == "SALA ITSASO" && listing.venue?.coordinate == bilbao)
        #expect(listing.offers.first?.priceMin == 22 && listing.offers.first?.currency == "EUR")
        #expect(listing.status == .scheduled)
    }

    @Test func fansPagesArePublishedOnlyWhenTheOperatorAsks() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(show())
        _ = try catalog.updateSettings(user: "ana", home: ("Bilbao", bilbao))
        let quiet = try site(catalog)
        #expect(!quiet.keys.contains { $0.hasPrefix("users/") })
        let published = try FeedBuilder(source: catalog, today: TestSupport.today, generatedAt: stamp, publishFans: true).build().files
        #expect(text(published, "users/ana/plans.html").contains("<h1>Your plans</h1>"))
    }

    @Test func theSiteHasItsNearIndexMyConcertsAboutVersionedAssetsAndASitemapWhenItsAddressIsGiven() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(show())
        let files = try FeedBuilder(
            source: catalog, today: TestSupport.today, generatedAt: stamp, siteURL: "https://concerts.example"
        ).build().files
        #expect(text(files, "near.js").hasPrefix("Encore.near={\"today\":\"2026-11-22\",\"metros\":["))
        let event = try #require(try catalog.events(ids: catalog.eventIDs(since: TestSupport.today)).first)
        let pin = EventPin(id: event.id, title: event.title, start: event.start, status: event.status, venue: event.venue)
        let metro = String(decoding: NearIndex.script(metro: 7, pins: [pin]), as: UTF8.self)
        #expect(metro == "Encore.metro(7,{\"venues\":[[\(event.venue!.id),\"Sala Itsaso\",\"Bilbao\",43.2627,-2.9253]],"
            + "\"events\":[[\(event.id),0,\"2026-12-03\",\"20:30\",\"Mavi Vapur at Sala Itsaso\",\"\"]]});\n")
        #expect(files["mine.html"] != nil && text(files, "about.html").contains("GeoNames"))
        let css = try #require(files.keys.first { $0.hasPrefix("site.") && $0.hasSuffix(".css") })
        #expect(css.count == "site.12345678.css".count && files["site.css"] == nil)
        #expect(text(files, "index.html").contains("href=\(css)") && text(files, "index.html").contains("rel=icon"))
        let sitemap = text(files, "sitemap.xml")
        #expect(sitemap.contains("<loc>https://concerts.example/events/\(event.id).html</loc><lastmod>2027-01-15</lastmod>"))
        #expect(try site(catalog)["sitemap.xml"] == nil)
    }

    @Test func titlesLoseTheirDateVenueNamesTheirCapitalsAndZonesReadAsPlaces() {
        #expect(SiteHTML.displayTitle("Os Planetas at Teatro Principal (January 14, 2027)") == "Os Planetas at Teatro Principal")
        #expect(SiteHTML.displayTitle("Live (in the round)") == "Live (in the round)")
        #expect(SiteHTML.displayName("SALA APOLO") == "Sala Apolo" && SiteHTML.displayName("AC/DC") == "AC/DC")
        #expect(SiteHTML.displayName("The Roundhouse") == "The Roundhouse")
        #expect(SiteHTML.readableZone("America/Argentina/Buenos_Aires") == "Buenos Aires time")
        #expect(SiteHTML.publicName(source: "seatgeek", url: nil) == "SeatGeek")
        #expect(SiteHTML.publicName(source: "jsonld", url: "https://www.sala-apolo.com/e/1") == "sala-apolo.com")
    }

    @Test func aMetroMapNumbersItsPinsWithoutLinksAndListsVenuesByDistance() throws {
        func venue(_ id: Int64, _ name: String, _ lng: Double, _ lat: Double) -> GeoJSON.Feature {
            GeoJSON.Feature(
                id: id, geometry: GeoJSON.Point(coordinates: [lng, lat]),
                properties: GeoJSON.Properties(name: name, city: "Bilbao", approximate: false, events: []))
        }
        var venues: [GeoJSON.Feature] = []
        for index in 0..<45 {
            let (column, row) = (Double(index % 9), Double(index / 9))
            venues.append(venue(Int64(index + 1), "Venue \(index + 1)", -2.9253 + column * 0.004, 43.2627 + row * 0.003))
        }
        venues.append(venue(99, "Unknown venue", -2.93, 43.26))
        let html = SiteHTML.map(GeoJSON.FeatureCollection(features: venues), of: "Bilbao", center: bilbao)
        let start = try #require(html.range(of: "<svg")).lowerBound
        let end = try #require(html.range(of: "</svg>")).upperBound
        let svg = html[start..<end]
        #expect(!svg.contains("<a ") && svg.contains(">45</text>") && svg.contains("role=img"))
        #expect(!html.contains("Unknown venue"))
        #expect(html.contains("<li><a href=venues/1.html>Venue 1</a> <small>0.0 km"))
    }

    @Test func aFeaturingCreditOfTwoKnownBandsLinksThemAndHasNoPageOfItsOwn() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        var page = show()
        page.events[0].lineup = [
            PerformanceListing(artist: ArtistListing(sourceID: "c1", name: "Mavi Vapur feat. Ezra Irving"), billing: .headline, order: 1)
        ]
        var other = show()
        other.events[0].sourceID = "s2"
        other.events[0].start = EventStart(localDate: TestSupport.today.adding(days: 20))
        other.events[0].lineup = [
            PerformanceListing(artist: ArtistListing(sourceID: "a1", name: "Mavi Vapur"), billing: .headline, order: 1),
            PerformanceListing(artist: ArtistListing(sourceID: "a2", name: "Ezra Irving"), billing: .support, order: 2),
        ]
        _ = try catalog.apply(page)
        _ = try catalog.apply(other)
        let files = try site(catalog)
        #expect(!files.keys.contains { $0.hasPrefix("artists/mavi-vapur-feat") })
        let event = try #require(try catalog.events(ids: catalog.eventIDs(since: TestSupport.today)).first { $0.lineup.count == 1 })
        #expect(text(files, "events/\(event.id).html").contains(
            "<a href=artists/mavi-vapur.html>Mavi Vapur</a> feat. <a href=artists/ezra-irving.html>Ezra Irving</a>"))
    }

    @Test func aShowCancelledWithItsActsDroppedKeepsItsBillAndStaysOnItsBandsPage() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = try catalog.apply(show())
        var cancelled = show(status: .cancelled)
        cancelled.events[0].lineup = []
        _ = try catalog.apply(cancelled)
        let event = try #require(try catalog.events(ids: catalog.eventIDs(since: TestSupport.today)).first)
        #expect(event.status == .cancelled && event.lineup.map(\.name) == ["Mavi Vapur"])
        #expect(text(try site(catalog), "artists/mavi-vapur.html").contains("<li class=cancelled><a href=events/\(event.id).html>"))
    }
}
