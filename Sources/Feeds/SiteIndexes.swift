import Foundation
import Listings

/// The site's whole-catalog files: the "near me" index, the sitemap and the about page.
extension FeedBuilder {
    /// `near.js`: every upcoming show with a located venue, soonest first, as one compact
    /// script (`Encore.near = {…}`) that "near me", the date views and "My concerts" filter
    /// in the browser. A script rather than JSON, so that a site opened from disk, where
    /// browsers refuse to fetch files, loads it too.
    func addNearIndex(_ metros: [MetroAreaOverview], to tree: inout some FeedSink) throws {
        var venues: [Int64: Int] = [:]
        var json = JSONLD()
        var venueList = ""
        var events: [(day: String, time: String, id: Int64, text: String)] = []
        // Metro areas' shows, then those of venues in none (metro area 0).
        var inMetros = Set<Int64>()
        var groups: [(metro: Int64, ids: [Int64])] = try metros.map(\.metroArea.id).sorted().map { metro in
            let ids = try source.eventIDs(inMetroAreas: [metro], window: window)
            inMetros.formUnion(ids)
            return (metro, ids)
        }
        groups.append((0, try source.eventIDs(since: today).filter { !inMetros.contains($0) }))
        let last = window.to.description
        for (metro, ids) in groups {
            for start in stride(from: 0, to: ids.count, by: 2000) {
                for pin in try source.eventPins(ids: Array(ids[start..<min(start + 2000, ids.count)])) {
                    guard let venue = pin.venue, let lat = venue.latitude, let lng = venue.longitude,
                        !SiteHTML.isPlaceholder(venue.name), pin.start.localDate.description <= last
                    else { continue }
                    let index: Int
                    if let known = venues[venue.id] {
                        index = known
                    } else {
                        index = venues.count
                        venues[venue.id] = index
                        json = JSONLD()
                        json.string(SiteHTML.displayName(venue.name))
                        json.raw(",")
                        json.string(venue.city ?? "")
                        venueList += (index == 0 ? "" : ",") + "[\(venue.id),\(json.text),\(lat),\(lng),\(metro)]"
                    }
                    json = JSONLD()
                    json.string(SiteHTML.displayTitle(pin.title))
                    let date = pin.start.localDate.description
                    let time = pin.start.localTime.map { String($0.description.prefix(5)) } ?? ""
                    let status = pin.status == .scheduled ? "" : pin.status.rawValue
                    events.append((date, time, pin.id, "[\(pin.id),\(index),\"\(date)\",\"\(time)\",\(json.text),\"\(status)\"]"))
                }
            }
        }
        events.sort { ($0.day, $0.time.isEmpty ? 1 : 0, $0.time, $0.id) < ($1.day, $1.time.isEmpty ? 1 : 0, $1.time, $1.id) }
        var script = "Encore.near={\"today\":\"\(today)\",\"venues\":[\(venueList)],\"events\":["
        script.reserveCapacity(events.count * 80)
        script += events.map(\.text).joined(separator: ",") + "]};\n"
        try tree.add("near.js", Data(script.utf8))
    }

    /// `about.html`: who the listings come from, each source credited by its public
    /// name, the gazetteer's attribution, and what the site keeps in the browser.
    func addAboutPage(sources: [String], to tree: inout some FeedSink) throws {
        let names = Set(sources.filter { $0 != "geonames" }.map { SiteHTML.publicName(source: $0, url: nil) }).sorted()
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
