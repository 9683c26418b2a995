import Foundation
import Listings

/// "Near me" and "My concerts" read, in the browser, `near.js` (the metro areas, where
/// they are) and the `metros/{id}.near.js` of those near enough: each metro area's upcoming
/// shows with located venues, soonest first, written with its map. Scripts rather than
/// JSON, so that a site opened from disk, where browsers refuse to fetch files, loads them
/// too; one file a metro area, so that an incremental build rewrites only the areas that
/// changed and a phone loads only the areas around it.
enum NearIndex {
    /// `near.js`: `Encore.near = {today, metros: [[id, name, lat, lng]]}`.
    static func script(metros: [MetroAreaOverview], today: LocalDate) -> Data {
        var json = JSONLD()
        var list: [String] = []
        for metro in metros.sorted(by: { $0.metroArea.id < $1.metroArea.id }) {
            guard let lat = metro.latitude, let lng = metro.longitude else { continue }
            json = JSONLD()
            json.string(metro.metroArea.name)
            list.append("[\(metro.metroArea.id),\(json.text),\(lat),\(lng)]")
        }
        return Data("Encore.near={\"today\":\"\(today)\",\"metros\":[\(list.joined(separator: ","))]};\n".utf8)
    }

    /// `metros/{id}.near.js`: `Encore.metro(id, {venues: [[id, name, city, lat, lng]],
    /// events: [[id, venue index, date, time, title, status]]})`, the pins in list order
    /// (soonest first).
    static func script(metro: Int64, pins: [EventPin]) -> Data {
        var venues: [Int64: Int] = [:]
        var venueList: [String] = []
        var events: [String] = []
        events.reserveCapacity(pins.count)
        for pin in pins {
            guard let venue = pin.venue, let lat = venue.latitude, let lng = venue.longitude,
                !SiteHTML.isPlaceholder(venue.name)
            else { continue }
            var json = JSONLD()
            let index: Int
            if let known = venues[venue.id] {
                index = known
            } else {
                index = venueList.count
                venues[venue.id] = index
                json.string(SiteHTML.displayName(venue.name))
                json.raw(",")
                json.string(venue.city ?? "")
                venueList.append("[\(venue.id),\(json.text),\(lat),\(lng)]")
                json = JSONLD()
            }
            json.string(SiteHTML.displayTitle(pin.title))
            let time = pin.start.localTime.map { String($0.description.prefix(5)) } ?? ""
            let status = pin.status == .scheduled ? "" : pin.status.rawValue
            events.append("[\(pin.id),\(index),\"\(pin.start.localDate)\",\"\(time)\",\(json.text),\"\(status)\"]")
        }
        return Data(
            "Encore.metro(\(metro),{\"venues\":[\(venueList.joined(separator: ","))],\"events\":[\(events.joined(separator: ","))]});\n".utf8)
    }
}

/// The site's whole-catalog pages: the sitemap, the about page, My concerts.
extension FeedBuilder {
    /// `about.html`: who the listings come from, each source credited by its public
    /// name, the gazetteer's attribution, and what the site keeps in the browser.
    func addAboutPage(sources: [String], to tree: inout some FeedSink) throws {
        let names = Set(sources.filter { SiteHTML.brand($0) != "GeoNames" }.map { SiteHTML.publicName(source: $0, url: nil) }).sorted()
        var html = "<h1>About Encore</h1><h2>Where the listings come from</h2><ul>"
        for name in names { html += "<li>" + Markup.escape(name, quotes: false) }
        html += "</ul><p>Places and time zones: <a href=https://www.geonames.org/>GeoNames</a>, under the "
        html += "<a href=https://creativecommons.org/licenses/by/4.0/>Creative Commons Attribution 4.0</a> licence.</p>"
        html += "<h2>What this site keeps</h2><p>The bands, venues and cities you follow are kept in this browser only "
        html += "(its local storage): there is no account, and nothing is sent anywhere. "
        html += "<a href=mine.html>My concerts</a> lets you save them to a file and load them on another device.</p>"
        html += "<p>Every page works without JavaScript except search, “near me”, the date picker and following.</p>"
        try tree.add("about.html", SiteHTML.page(path: "about.html", title: "About", rendered: html))
    }

    /// `mine.html`: the concerts of what the fan follows, put together in the browser
    /// from the published files.
    func addMyConcertsPage(to tree: inout some FeedSink) throws {
        var html = "<h1>My concerts</h1><p class=lede>Upcoming shows of the bands, venues and cities you follow. "
        html += "What you follow stays in this browser; nothing is sent anywhere.</p>"
        html += "<noscript><p>This page needs JavaScript: it reads what you follow from this browser.</p></noscript>"
        html += "<section id=mine class=tool hidden aria-labelledby=mine-following><h2 id=mine-following>Following</h2>"
        html += "<ul id=mine-follows class=results></ul><p><button type=button id=mine-export>Save my list to a file</button> "
        html += "<label class=inline for=mine-import>Load a list from a file</label> <input type=file id=mine-import accept=.json,application/json></p>"
        html += "<p id=mine-status role=status></p></section><h2>Upcoming</h2><div id=mine-results><p class=empty>Nothing followed yet.</p></div>"
        try tree.add("mine.html", SiteHTML.page(path: "mine.html", title: "My concerts", scripts: true, rendered: html))
    }

    /// `sitemap.xml` for search engines, when the site's address is known (the protocol
    /// wants whole URLs): each concert page dated by its last change, from the catalog;
    /// split into files of 50,000 addresses under an index when bigger.
    func addSitemap(rendered: RenderedEvents, slugs: [Int64: String], metros: [MetroAreaOverview], to tree: inout some FeedSink) throws {
        guard let siteURL else { return }
        let root = siteURL.hasSuffix("/") ? siteURL : siteURL + "/"
        var urls: [String] = ["<url><loc>\(Markup.escape(root))</loc></url>"]
        for metro in metros.map(\.metroArea.id).sorted() { urls.append("<url><loc>\(root)metros/\(metro).html</loc></url>") }
        for slug in slugs.values.sorted() { urls.append("<url><loc>\(root)artists/\(Markup.escape(slug)).html</loc></url>") }
        for id in try source.venueIDs(withEventsSince: today) { urls.append("<url><loc>\(root)venues/\(id).html</loc></url>") }
        for id in rendered.locations.ids {
            guard let updated = rendered.updated(of: id) else { continue }
            let day = UTCInstant(secondsSinceEpoch: updated).description.prefix(10)
            urls.append("<url><loc>\(root)events/\(id).html</loc><lastmod>\(day)</lastmod></url>")
        }
        let open = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
        let size = 50_000
        guard urls.count > size else {
            try tree.add("sitemap.xml", Data((open + urls.joined() + "</urlset>\n").utf8))
            return
        }
        var index = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
        for (number, start) in stride(from: 0, to: urls.count, by: size).enumerated() {
            let name = "sitemap-\(number + 1).xml"
            try tree.add(name, Data((open + urls[start..<min(start + size, urls.count)].joined() + "</urlset>\n").utf8))
            index += "<sitemap><loc>\(root)\(name)</loc></sitemap>"
        }
        try tree.add("sitemap.xml", Data((index + "</sitemapindex>\n").utf8))
    }
}
