import Foundation
import Listings
import Plot

// The HTML rendering of each feed document, beside its JSON one.

extension FeedIndex {
    /// `index.html`: search, near me (both need `site.js`), metro areas by country.
    func html(metroAreas: [MetroAreaOverview]) -> Data {
        let byCountry = Dictionary(grouping: metroAreas) { $0.metroArea.country ?? "" }
        let countries = byCountry.keys.map { (code: $0, name: SiteHTML.countryName($0)) }.sorted { ($0.name, $0.code) < ($1.name, $1.code) }
        return SiteHTML.page(
            path: "index.html", title: "Concerts near you", scripts: true,
            .h1(.text("Concerts near you")),
            .p(.class("lede"), .text(
                "\(counts.upcomingEvents) upcoming concerts by \(counts.artists) artists in \(metros.count) cities, as of \(SiteHTML.longDate(LocalDate(iso: today) ?? LocalDate(year: 2000, month: 1, day: 1)!)).")),
            .section(
                .id("search"), .class("tool"), .hidden(true), .ariaLabel("Search"),
                .h2(.text("Search")),
                .form(
                    .attribute(named: "role", value: "search"), .action("index.html"),
                    .label(.for("search-input"), .text("Artist, venue or city")),
                    .input(.type(.search), .id("search-input"), .name("q"), .autocomplete(false),
                        .attribute(named: "aria-controls", value: "search-results"))),
                .ul(.id("search-results"), .class("results"), .attribute(named: "aria-live", value: "polite"))),
            .section(
                .id("near"), .class("tool"), .hidden(true), .ariaLabel("Near me"),
                .h2(.text("Near me")),
                .button(.type(.button), .id("near-button"), .text("Show concerts near me")),
                .p(.id("near-status"), .attribute(named: "aria-live", value: "polite")),
                .div(.id("near-results"))),
            .noscript(.p(.text("Search and “near me” need JavaScript; every city is listed below."))),
            .section(
                .ariaLabel("Cities"),
                .h2(.text("Cities")),
                .forEach(countries) { country in
                    .group(
                        .h3(SiteHTML.text(country.name)),
                        .ul(.class("cities"), .forEach(byCountry[country.code]!.sorted { ($0.metroArea.name, $0.metroArea.id) < ($1.metroArea.name, $1.metroArea.id) }) { metro in
                            .li(
                                SiteHTML.link("metros/\(metro.metroArea.id).html", metro.metroArea.name),
                                .span(.class("count"), .text(" \(metro.upcomingEvents) upcoming")))
                        }))
                })
        )
    }
}

extension SiteHTML {
    /// The English name of an ISO 3166 country code.
    static func countryName(_ code: String) -> String {
        guard !code.isEmpty else { return "Elsewhere" }
        return Locale(identifier: "en_US").localizedString(forRegionCode: code) ?? code
    }

    /// An inline SVG map of venues, projected to their bounding box; each pin links to
    /// its venue page.
    static func map(_ venues: GeoJSON.FeatureCollection, of name: String) -> String {
        let points = venues.features.filter { $0.geometry.coordinates.count == 2 }
        guard !points.isEmpty else { return "" }
        let (width, height, margin) = (600.0, 300.0, 28.0)
        let lats = points.map { $0.geometry.coordinates[1] }
        let lngs = points.map { $0.geometry.coordinates[0] }
        let midLat = (lats.min()! + lats.max()!) / 2
        // Equirectangular, longitudes shrunk by the cosine of the latitude: true to shape
        // at a city's scale.
        let scaleX = cos(midLat * .pi / 180)
        let spanX = max((lngs.max()! - lngs.min()!) * scaleX, 1e-4)
        let spanY = max(lats.max()! - lats.min()!, 1e-4)
        let scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY)
        let offsetX = (width - spanX * scale) / 2
        let offsetY = (height - spanY * scale) / 2
        func format(_ value: Double) -> String { String(format: "%.1f", value) }
        var svg = "<svg class=\"map\" viewBox=\"0 0 600 300\" role=\"img\" aria-labelledby=\"map-title\">"
        svg += "<title id=\"map-title\">Map of \(points.count) venues in \(attribute(name))</title>"
        svg += "<rect class=\"ground\" width=\"600\" height=\"300\" rx=\"8\"/>"
        // A graticule-like grid, so the pins read as places on a map.
        for step in 1..<6 { svg += "<path class=\"grid\" d=\"M\(step * 100) 0V300\"/>" }
        for step in 1..<3 { svg += "<path class=\"grid\" d=\"M0 \(step * 100)H600\"/>" }
        for venue in points {
            let x = offsetX + (venue.geometry.coordinates[0] - lngs.min()!) * scaleX * scale
            let y = height - offsetY - (venue.geometry.coordinates[1] - lats.min()!) * scale
            let count = venue.properties.events.count
            let label = "\(venue.properties.name): \(count) concert\(count == 1 ? "" : "s")"
            svg += "<a href=\"venues/\(venue.id).html\"><title>\(attribute(label))</title>"
            svg += "<circle cx=\"\(format(x))\" cy=\"\(format(y))\" r=\"\(min(5 + count, 12))\"/>"
            // Names to the pin's right, or its left near the right edge.
            let anchor = x > width - 160 ? "end" : "start"
            let labelX = x + (anchor == "end" ? -16 : 16)
            svg += "<text x=\"\(format(labelX))\" y=\"\(format(y + 5))\" text-anchor=\"\(anchor)\">\(attribute(venue.properties.name))</text></a>"
        }
        svg += "</svg>"
        return "<figure>" + svg + "<figcaption>Venues with upcoming concerts; each pin opens its venue.</figcaption></figure>"
    }
}

extension EventList {
    /// The events' HTML list entries with their days.
    var htmlEntries: [(html: String, day: Int)] {
        switch self {
        case .details(let events):
            return events.map { (SiteHTML.entry($0), RenderedEvents.day($0.start.localDate)) }
        case .rendered, .records:
            var entries: [(html: String, day: Int)] = []
            forEachRecord { _, record in entries.append((String(decoding: record.html, as: UTF8.self), record.day)) }
            return entries
        }
    }
}

extension MetroFeed {
    /// A page of a metro area's concerts by day; the first page has the map of venues.
    func html(path: String, map: GeoJSON.FeatureCollection?) -> Data {
        let name = metroArea.name
        let country = metroArea.country.map { ", " + SiteHTML.countryName($0) } ?? ""
        var html = "<h1>Concerts in \(Markup.escape(name, quotes: false))</h1>"
        html += "<p class=lede>\(paging.total) upcoming\(Markup.escape(country, quotes: false)). "
        html += "<a href=metros/\(metroArea.id).atom>Just announced (Atom feed)</a></p>"
        if let map { html += SiteHTML.section("Venues", SiteHTML.map(map, of: name)) }
        html += SiteHTML.section("Upcoming concerts", SiteHTML.entries(events.htmlEntries, byDay: true) + SiteHTML.pager(paging))
        return SiteHTML.page(
            path: path, title: "Concerts in \(name)" + (paging.page > 1 ? ", page \(paging.page)" : ""),
            feeds: [("Just announced in \(name)", "metros/\(metroArea.id).atom")], rendered: html)
    }
}

extension ArtistFeed {
    func html(path: String) -> Data {
        let feed = "artists/\(slug).atom"
        var html = "<h1>\(Markup.escape(artist.name, quotes: false))</h1><p class=lede>"
        if let until = artist.onTourUntil { html += "On tour until \(SiteHTML.longDate(until)). " }
        html += SiteHTML.linkHTML(feed, "New shows (Atom feed)") + "</p>"
        html += SiteHTML.section(
            "Upcoming (\(paging.total))",
            SiteHTML.entries(upcoming.htmlEntries, byDay: false, empty: "No upcoming shows listed.") + SiteHTML.pager(paging))
        if recentPast.count > 0 { html += SiteHTML.section("Recent shows", SiteHTML.entries(recentPast.htmlEntries, byDay: false)) }
        // Similar artists worth a look now: those with upcoming shows.
        let playing = similar.filter { $0.upcoming > 0 }
        if !playing.isEmpty {
            html += SiteHTML.section("Similar artists playing soon", "<ul class=similar>" + playing.map { artist in
                "<li>" + (artist.slug.map { SiteHTML.linkHTML("artists/\($0).html", artist.name) } ?? Markup.escape(artist.name, quotes: false))
                    + " (\(artist.upcoming) upcoming)"
            }.joined() + "</ul>")
        }
        if !artist.sources.isEmpty { html += SiteHTML.section("Sources", SiteHTML.sourceLinks(artist.sources)) }
        return SiteHTML.page(
            path: path, title: artist.name + (paging.page > 1 ? ", page \(paging.page)" : ""),
            feeds: [("New shows of \(artist.name)", feed)], rendered: html)
    }
}

extension VenueFeed {
    func html(path: String) -> Data {
        let address = [venue.street, venue.postalCode, venue.city, venue.region, venue.country].compactMap { $0 }
            .joined(separator: ", ")
        var html = "<h1>\(Markup.escape(venue.name, quotes: false))</h1><p class=lede>\(Markup.escape(address, quotes: false))"
        if let metroArea { html += " · " + SiteHTML.linkHTML("metros/\(metroArea.id).html", "All of \(metroArea.name)") }
        html += "</p>"
        if venue.latitude != nil, venue.longitude != nil { html += "<p>\(SiteHTML.directions(venue))</p>" }
        html += SiteHTML.section(
            "Upcoming (\(paging.total))",
            SiteHTML.entries(events.htmlEntries, byDay: false, empty: "No upcoming shows listed.") + SiteHTML.pager(paging))
        if !sources.isEmpty { html += SiteHTML.section("Sources", SiteHTML.sourceLinks(sources)) }
        return SiteHTML.page(path: path, title: venue.name + (paging.page > 1 ? ", page \(paging.page)" : ""), rendered: html)
    }
}

extension SiteHTML {
    /// An OpenStreetMap link and a `geo:` link to a venue.
    static func directions(_ venue: VenueSummary) -> String {
        guard let lat = venue.latitude, let lng = venue.longitude else { return "" }
        return "<a href=\"https://www.openstreetmap.org/?mlat=\(lat)&amp;mlon=\(lng)#map=17/\(lat)/\(lng)\">Map on OpenStreetMap</a>"
            + " · <a href=geo:\(lat),\(lng)>Open in a maps app</a>" + (venue.coordinatesApproximate ? " (approximate location)" : "")
    }

    static func price(_ offer: OfferListing) -> String? {
        func amount(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
        }
        let currency = offer.currency.map { " " + $0 } ?? ""
        switch (offer.priceMin, offer.priceMax) {
        case (let low?, let high?) where low != high: return "\(amount(low))–\(amount(high))\(currency)"
        case (let low?, _): return amount(low) + currency
        case (nil, let high?): return amount(high) + currency
        default: return nil
        }
    }
}

extension EventFeed {
    /// `events/{id}.html`: the concert page; `slugs` are the band pages' paths, and
    /// `listedWindow` the days whose listed shows put their venue and metro area on pages.
    func html(slugs: [Int64: String], listedWindow: DateWindow) -> Data {
        // A past show's venue may have no page; a listed upcoming one's always has.
        let day = event.start.localDate
        let linksPlaces = event.unlistedSince == nil && !(day < listedWindow.from) && !(listedWindow.to < day)
        let status = SiteHTML.statusLabel(event)
        let statusText: String? =
            switch status?.className {
            case "cancelled": "This show is cancelled."
            case "postponed": "This show is postponed; a new date has not been announced."
            case "moved": "This show has moved: the date or place below is the new one."
            case "unlisted": "No source lists this show any more; it may have been cancelled."
            default: nil
            }
        let start = event.start
        let dateText = SiteHTML.longDate(start.localDate)
            + (event.endDate.map { $0 != start.localDate ? " to " + SiteHTML.longDate($0) : "" } ?? "")
        func text(_ value: String) -> String { Markup.escape(value, quotes: false) }
        func place(_ path: String, _ name: String) -> String { linksPlaces ? "<a href=\(path)>\(text(name))</a>" : text(name) }
        var html = "<h1>\(text(event.title))</h1>"
        html.reserveCapacity(2048)
        if let status, let statusText {
            html += "<p class=\"banner \(status.className)\" role=status><strong>\(statusText)</strong></p>"
        }
        html += "<dl class=facts><dt>Date<dd>\(dateText)<dt>Time<dd>\(text(SiteHTML.localTime(start)))"
        if let venue = event.venue {
            html += "<dt>Venue<dd>" + place("venues/\(venue.id).html", venue.name)
            html += text([venue.street, venue.city, venue.country].compactMap { $0 }.map { ", " + $0 }.joined())
        }
        if let metroArea = event.metroArea { html += "<dt>City<dd>" + place("metros/\(metroArea.id).html", metroArea.name) }
        if let ages = event.ageRestriction { html += "<dt>Ages<dd>\(text(ages))" }
        if let note = event.note { html += "<dt>Note<dd>\(text(note))" }
        html += "</dl><h2>Lineup</h2>"
        if event.lineup.isEmpty { html += "<p class=empty>No source has named the acts yet.</p>" }
        html += "<ol class=lineup>"
        for act in event.lineup {
            html += act.billing == .headline ? "<li class=headline>" : "<li>"
            html += slugs[act.artistID].map { "<a href=artists/\($0).html>\(text(act.name))</a>" } ?? text(act.name)
            html += act.billing == .headline ? " <small>headliner</small>" : " <small>support</small>"
            if let slot = act.slot { html += " <small>\(text(slot.text))</small>" }
        }
        html += "</ol>"
        if !event.offers.isEmpty {
            html += "<h2>Tickets</h2><ul class=offers>"
            for offer in event.offers {
                let details = [
                    SiteHTML.price(offer.offer), offer.offer.status, offer.offer.onSale.map { "on sale \($0.prefix(10))" },
                ].compactMap { $0 }.joined(separator: ", ")
                html += "<li>" + (offer.offer.url.map { SiteHTML.linkHTML($0, "Tickets at \(offer.source)") } ?? text(offer.source))
                html += details.isEmpty ? "" : text(" — " + details)
            }
            html += "</ul>"
        }
        if let venue = event.venue, venue.latitude != nil { html += "<h2>Directions</h2><p>\(SiteHTML.directions(venue))</p>" }
        html += "<h2>More</h2><p><a href=events/\(event.id).ics download>Add to calendar (.ics)</a></p>"
        html += SiteHTML.sourceLinks(event.sources)
        return SiteHTML.page(path: "events/\(event.id).html", title: event.title, rendered: html)
    }

    /// `events/{id}.ics`: the one event, for a calendar app.
    func calendar() -> Data {
        // Stamped with a catalog time, not the clock, so the file changes only with the event.
        let stamp = event.firstSeen ?? UTCInstant(secondsSinceEpoch: 0)
        return Data(ICalendar.event(event, stamp: stamp).utf8)
    }
}

extension UserPlansFeed {
    func html() -> Data {
        SiteHTML.page(
            path: "users/\(user)/plans.html", title: "\(user)’s plans",
            feeds: [("Concerts for \(user)", "users/\(user)/feed.atom")],
            .h1(SiteHTML.text("\(user)’s plans")),
            .p(.class("lede"), .a(.href(SiteHTML.attribute("users/\(user)/plans.ics")), .text("All plans as a calendar (.ics)")),
                .text(" · "), SiteHTML.link("users/\(user)/feed.html", "Suggestions")),
            .if(plans.contains { $0.alert != nil || !$0.conflicts.isEmpty }, .section(
                .ariaLabel("Alerts"), .h2(.text("Alerts")),
                .ul(.class("alerts"), .forEach(plans.filter { $0.alert != nil || !$0.conflicts.isEmpty }) { plan in
                    .li(SiteHTML.link("events/\(plan.event.id).html", plan.event.title),
                        SiteHTML.text(": " + ([plan.alert] + [plan.conflicts.isEmpty ? nil : "clashes with another plan"]).compactMap { $0 }.joined(separator: "; ")))
                }))),
            .section(
                .ariaLabel("Plans"), .h2(.text("Upcoming plans")),
                .raw(SiteHTML.entries(plans.map { (SiteHTML.entry($0.event), RenderedEvents.day($0.event.start.localDate)) }, byDay: true, empty: "No plans yet.")))
        )
    }
}

extension UserFeed {
    func html() -> Data {
        SiteHTML.page(
            path: "users/\(user)/feed.html", title: "For \(user)",
            feeds: [("Concerts for \(user)", "users/\(user)/feed.atom")],
            .h1(SiteHTML.text("Concerts for \(user)")),
            .p(.class("lede"), SiteHTML.text("Shows of the artists, venues and cities \(user) follows. "),
                .a(.href(SiteHTML.attribute("users/\(user)/feed.atom")), .text("Atom feed")), .text(" · "),
                SiteHTML.link("users/\(user)/plans.html", "Plans")),
            .section(
                .ariaLabel("Suggestions"), .h2(.text("Upcoming")),
                .raw(SiteHTML.entries(entries.map { (SiteHTML.entry($0.event), RenderedEvents.day($0.event.start.localDate)) }, byDay: true)))
        )
    }
}
