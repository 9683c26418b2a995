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
    static func map(_ venues: GeoJSON.FeatureCollection, of name: String) -> Node<HTML.BodyContext> {
        let points = venues.features.filter { $0.geometry.coordinates.count == 2 }
        guard !points.isEmpty else { return .empty }
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
        let caption: Node<HTML.BodyContext> = .element(
            named: "figcaption", nodes: [.text("Venues with upcoming concerts; each pin opens its venue.")])
        return .element(named: "figure", nodes: [.raw(svg), caption])
    }
}

extension EventList {
    /// The events' HTML list entries with their days.
    var htmlEntries: [(html: String, day: Int)] {
        switch self {
        case .details(let events):
            return events.map { (SiteHTML.entry($0), RenderedEvents.day($0.start.localDate)) }
        case .rendered(let ids, let store, let extra):
            return ids.compactMap { id in
                if let span = store.spans[id], let html = store.html(at: span) {
                    return (String(decoding: html, as: UTF8.self), span.day)
                }
                return extra[id].map { (String(decoding: $0.html, as: UTF8.self), $0.day) }
            }
        }
    }
}

extension MetroFeed {
    /// A page of a metro area's concerts by day; the first page has the map of venues.
    func html(path: String, map: GeoJSON.FeatureCollection?) -> Data {
        let name = metroArea.name
        return SiteHTML.page(
            path: path, title: "Concerts in \(name)" + (paging.page > 1 ? ", page \(paging.page)" : ""),
            feeds: [("Just announced in \(name)", "metros/\(metroArea.id).atom")],
            .h1(SiteHTML.text("Concerts in \(name)")),
            .p(.class("lede"), SiteHTML.text(
                "\(paging.total) upcoming" + (metroArea.country.map { ", " + SiteHTML.countryName($0) } ?? "") + ". ")
                , .a(.href("metros/\(metroArea.id).atom"), .text("Just announced (Atom feed)"))),
            .if(map != nil, .section(.ariaLabel("Map"), .h2(.text("Venues")), SiteHTML.map(map ?? .init(features: []), of: name))),
            .section(
                .ariaLabel("Upcoming concerts"),
                .h2(.text("Upcoming concerts")),
                SiteHTML.entries(events.htmlEntries, byDay: true),
                SiteHTML.pager(paging))
        )
    }
}

extension ArtistFeed {
    func html(path: String) -> Data {
        SiteHTML.page(
            path: path, title: artist.name + (paging.page > 1 ? ", page \(paging.page)" : ""),
            feeds: [("New shows of \(artist.name)", "artists/\(slug).atom")],
            .h1(SiteHTML.text(artist.name)),
            .p(.class("lede"), .text(artist.onTourUntil.map { "On tour until \(SiteHTML.longDate($0)). " } ?? ""),
                .a(.href(SiteHTML.attribute("artists/\(slug).atom")), .text("New shows (Atom feed)"))),
            .section(
                .ariaLabel("Upcoming"), .h2(.text("Upcoming (\(paging.total))")),
                SiteHTML.entries(upcoming.htmlEntries, byDay: false, empty: "No upcoming shows listed."),
                SiteHTML.pager(paging)),
            .if(recentPast.count > 0, .section(
                .ariaLabel("Recent shows"), .h2(.text("Recent shows")),
                SiteHTML.entries(recentPast.htmlEntries, byDay: false))),
            .if(!similar.isEmpty, .section(
                .ariaLabel("Similar artists"), .h2(.text("Similar artists")),
                .ul(.class("similar"), .forEach(similar) { artist in
                    .li(artist.slug.map { SiteHTML.link("artists/\($0).html", artist.name) } ?? SiteHTML.text(artist.name))
                }))),
            .if(!artist.sources.isEmpty, .section(
                .ariaLabel("Sources"), .h2(.text("Sources")), SiteHTML.sourceLinks(artist.sources)))
        )
    }
}

extension VenueFeed {
    func html(path: String) -> Data {
        let address = [venue.street, venue.postalCode, venue.city, venue.region, venue.country].compactMap { $0 }
            .joined(separator: ", ")
        return SiteHTML.page(
            path: path, title: venue.name + (paging.page > 1 ? ", page \(paging.page)" : ""),
            .h1(SiteHTML.text(venue.name)),
            .p(.class("lede"), SiteHTML.text(address),
                .if(metroArea != nil, .group(.text(" · "), SiteHTML.link("metros/\(metroArea?.id ?? 0).html", "All of \(metroArea?.name ?? "")")))),
            .if(venue.latitude != nil && venue.longitude != nil, .p(SiteHTML.directions(venue))),
            .section(
                .ariaLabel("Upcoming"), .h2(.text("Upcoming (\(paging.total))")),
                SiteHTML.entries(events.htmlEntries, byDay: false, empty: "No upcoming shows listed."),
                SiteHTML.pager(paging)),
            .if(!sources.isEmpty, .section(.ariaLabel("Sources"), .h2(.text("Sources")), SiteHTML.sourceLinks(sources)))
        )
    }
}

extension SiteHTML {
    static func directions(_ venue: VenueSummary) -> Node<HTML.BodyContext> {
        guard let lat = venue.latitude, let lng = venue.longitude else { return .empty }
        return .group(
            .a(.href("https://www.openstreetmap.org/?mlat=\(lat)&amp;mlon=\(lng)#map=17/\(lat)/\(lng)"), .text("Map on OpenStreetMap")),
            .text(" · "),
            .a(.href("geo:\(lat),\(lng)"), .text("Open in a maps app")),
            .if(venue.coordinatesApproximate, .text(" (approximate location)")))
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
        // Written as text, not with Plot: there is a page for every concert, and building
        // and rendering Plot's tree was most of a full build.
        func text(_ value: String) -> String { Markup.escape(value, quotes: false) }
        func link(_ href: String, _ label: String) -> String { "<a href=\"\(Markup.escape(href))\">\(text(label))</a>" }
        func place(_ path: String, _ name: String) -> String { linksPlaces ? link(path, name) : text(name) }
        var html = "<article><h1>\(text(event.title))</h1>"
        if let statusText {
            html += "<p class=\"banner \(status?.className ?? "")\" role=\"status\"><strong>\(statusText)</strong></p>"
        }
        html += "<dl class=\"facts\"><dt>Date</dt><dd><time datetime=\"\(start.localDate)\">\(dateText)</time></dd>"
        html += "<dt>Time</dt><dd><time datetime=\"\(SiteHTML.machineTime(start))\">\(text(SiteHTML.localTime(start)))</time></dd>"
        if let venue = event.venue {
            html += "<dt>Venue</dt><dd>" + place("venues/\(venue.id).html", venue.name)
            html += text([venue.street, venue.city, venue.country].compactMap { $0 }.map { ", " + $0 }.joined()) + "</dd>"
        }
        if let metroArea = event.metroArea {
            html += "<dt>City</dt><dd>" + place("metros/\(metroArea.id).html", metroArea.name) + "</dd>"
        }
        if let ages = event.ageRestriction { html += "<dt>Ages</dt><dd>\(text(ages))</dd>" }
        if let note = event.note { html += "<dt>Note</dt><dd>\(text(note))</dd>" }
        html += "</dl><section aria-label=\"Lineup\"><h2>Lineup</h2>"
        if event.lineup.isEmpty { html += "<p class=\"empty\">No source has named the acts yet.</p>" }
        html += "<ol class=\"lineup\">"
        for act in event.lineup {
            html += "<li class=\"\(act.billing.rawValue)\">"
            html += slugs[act.artistID].map { link("artists/\($0).html", act.name) } ?? text(act.name)
            html += "<span class=\"billing\">\(act.billing == .headline ? " headliner" : " support")</span>"
            if let slot = act.slot { html += "<span class=\"slot\"> \(text(slot.text))</span>" }
            html += "</li>"
        }
        html += "</ol></section>"
        if !event.offers.isEmpty {
            html += "<section aria-label=\"Tickets\"><h2>Tickets</h2><ul class=\"offers\">"
            for offer in event.offers {
                let details = [
                    SiteHTML.price(offer.offer), offer.offer.status, offer.offer.onSale.map { "on sale \($0.prefix(10))" },
                ].compactMap { $0 }.joined(separator: ", ")
                html += "<li>" + (offer.offer.url.map { link($0, "Tickets at \(offer.source)") } ?? text(offer.source))
                html += (details.isEmpty ? "" : text(" — " + details)) + "</li>"
            }
            html += "</ul></section>"
        }
        if let venue = event.venue, venue.latitude != nil {
            html += "<section aria-label=\"Directions\"><h2>Directions</h2><p>\(SiteHTML.directions(venue).render())</p></section>"
        }
        html += "<section aria-label=\"Calendar and sources\"><h2>More</h2>"
        html += "<p><a href=\"events/\(event.id).ics\" download>Add to calendar (.ics)</a></p>"
        if !event.sources.isEmpty {
            html += "<ul class=\"sources\">"
            for source in event.sources {
                let label = "\(source.source) (\(source.id))"
                html += "<li>" + (source.url.map { link($0, label) } ?? text(label)) + "</li>"
            }
            html += "</ul>"
        }
        html += "</section></article>"
        return SiteHTML.page(path: "events/\(event.id).html", title: event.title, rendered: html)
    }

    /// `events/{id}.ics`: the one event, for a calendar app.
    func calendar() -> Data {
        // Stamped with a catalog time, not the clock, so the file changes only with the event.
        let stamp = event.firstSeen ?? UTCInstant(secondsSinceEpoch: 0)
        return Data(ICalendar.calendar(name: event.title, events: [event], stamp: stamp).utf8)
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
                SiteHTML.entries(plans.map { (SiteHTML.entry($0.event), RenderedEvents.day($0.event.start.localDate)) }, byDay: true, empty: "No plans yet."))
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
                SiteHTML.entries(entries.map { (SiteHTML.entry($0.event), RenderedEvents.day($0.event.start.localDate)) }, byDay: true))
        )
    }
}
