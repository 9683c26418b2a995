import Foundation
import Geo
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
            head: SiteHTML.meta(
                title: "Concerts near you",
                description: "\(counts.upcomingEvents) upcoming concerts in \(metros.count) cities: near you, tonight, this weekend."),
            .h1(.text("Concerts near you")),
            .p(.class("lede"), .text(
                "\(counts.upcomingEvents) upcoming concerts by \(counts.artists) artists in \(metros.count) cities, as of \(SiteHTML.longDate(LocalDate(iso: today) ?? LocalDate(year: 2000, month: 1, day: 1)!)).")),
            .section(
                .id("search"), .class("tool"), .hidden(true), .ariaLabel("Search"),
                .h2(.text("Search")),
                .form(
                    .attribute(named: "role", value: "search"), .action("index.html"),
                    .label(.for("search-input"), .text("Artist, venue or city")),
                    .input(.type(.search), .id("search-input"), .name("q"),
                        .attribute(named: "aria-controls", value: "search-results"))),
                .ul(.id("search-results"), .class("results"), .attribute(named: "aria-live", value: "polite"))),
            .raw(SiteHTML.nearMe),
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
    /// "Near me": a distance, dates, and the shows within them soonest first (`site.js`,
    /// over `near.js`).
    static let nearMe = """
        <section id=near class=tool hidden aria-labelledby=near-heading><h2 id=near-heading>Near me</h2>\
        <form id=near-form class=choices><span><label for=near-radius>Within</label><select id=near-radius>\
        <option value=10>10 km<option value=25 selected>25 km<option value=50>50 km<option value=100>100 km</select></span>\
        <span><label for=near-when>When</label><select id=near-when><option value=tonight>Tonight\
        <option value=weekend>This weekend<option value=week>Next 7 days<option value=month>Next 30 days\
        <option value=all selected>Any date</select></span><button id=near-button>Show concerts near me</button></form>\
        <p id=near-status role=status></p><ol id=near-results class=events></ol></section>
        """

    /// The English name of an ISO 3166 country code.
    static func countryName(_ code: String) -> String {
        guard !code.isEmpty else { return "Elsewhere" }
        return Locale(identifier: "en_US").localizedString(forRegionCode: code) ?? code
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
        html += "<a href=metros/\(metroArea.id).atom>Just announced (Atom feed)</a> · "
        html += SiteHTML.followButton(kind: "metro", key: String(metroArea.id), name: name) + "</p>"
        if let calendar { html += calendar.html(metro: metroArea.id) }
        if let map {
            let center = latitude.flatMap { lat in longitude.map { Coordinate(latitude: lat, longitude: $0) } }
            html += "<a class=skip href=#concerts>Skip the map</a>" + SiteHTML.section("Venues", SiteHTML.map(map, of: name, center: center))
        }
        html += "<h2 id=concerts>Upcoming concerts</h2>"
        html += SiteHTML.entries(events.htmlEntries, byDay: true, anchors: true) + SiteHTML.pager(paging)
        return SiteHTML.page(
            path: path, title: "Concerts in \(name)" + (paging.page > 1 ? ", page \(paging.page)" : ""),
            feeds: [("Just announced in \(name)", "metros/\(metroArea.id).atom")], scripts: true,
            head: SiteHTML.meta(title: "Concerts in \(name)", description: "\(paging.total) upcoming concerts in \(name)\(country), day by day."),
            rendered: html)
    }
}

extension ArtistFeed {
    func html(path: String) -> Data {
        let feed = "artists/\(slug).atom"
        var html = "<h1>\(Markup.escape(artist.name, quotes: false))</h1><p class=lede>"
        if let until = artist.onTourUntil { html += "On tour until \(SiteHTML.longDate(until)). " }
        html += SiteHTML.linkHTML(feed, "New shows (Atom feed)") + " · "
        html += SiteHTML.followButton(kind: "artist", key: slug, name: artist.name) + "</p>"
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
        return SiteHTML.page(
            path: path, title: artist.name + (paging.page > 1 ? ", page \(paging.page)" : ""),
            feeds: [("New shows of \(artist.name)", feed)], scripts: true,
            head: SiteHTML.meta(title: artist.name, description: "\(artist.name): \(paging.total) upcoming concerts, with tickets."),
            footer: SiteHTML.footer(credits: artist.sources), rendered: html)
    }
}

extension VenueFeed {
    func html(path: String) -> Data {
        let address = [venue.street, venue.postalCode, venue.city, venue.region, venue.country].compactMap { $0 }
            .joined(separator: ", ")
        var html = "<h1>\(Markup.escape(SiteHTML.displayName(venue.name), quotes: false))</h1><p class=lede>\(Markup.escape(address, quotes: false))"
        if let metroArea { html += " · " + SiteHTML.linkHTML("metros/\(metroArea.id).html", "All of \(metroArea.name)") }
        html += " · " + SiteHTML.followButton(kind: "venue", key: String(venue.id), name: SiteHTML.displayName(venue.name), metro: metroArea?.id) + "</p>"
        if venue.latitude != nil, venue.longitude != nil { html += "<p>\(SiteHTML.directions(venue))</p>" }
        html += SiteHTML.section(
            "Upcoming (\(paging.total))",
            SiteHTML.entries(events.htmlEntries, byDay: false, empty: "No upcoming shows listed.") + SiteHTML.pager(paging))
        let name = SiteHTML.displayName(venue.name)
        return SiteHTML.page(
            path: path, title: name + (paging.page > 1 ? ", page \(paging.page)" : ""), scripts: true,
            head: SiteHTML.meta(title: name, description: "Concerts at \(name)\(venue.city.map { ", " + $0 } ?? ""): \(paging.total) upcoming."),
            footer: SiteHTML.footer(credits: sources),
            rendered: html)
    }
}

extension SiteHTML {
    /// An OpenStreetMap link and a `geo:` link to a venue.
    static func directions(_ venue: VenueSummary) -> String {
        guard let lat = venue.latitude, let lng = venue.longitude else { return "" }
        return "<a href=\"https://www.openstreetmap.org/?mlat=\(lat)&amp;mlon=\(lng)#map=17/\(lat)/\(lng)\">OpenStreetMap</a>"
            + " · <a href=geo:\(lat),\(lng)>Maps app</a>" + (venue.coordinatesApproximate ? " (approximate location)" : "")
    }
}

extension EventFeed {
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
            path: "users/\(user)/plans.html", title: "Your plans",
            feeds: [("Concerts for \(user)", "users/\(user)/feed.atom")],
            .h1(.text("Your plans")),
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
            path: "users/\(user)/feed.html", title: "For you",
            feeds: [("Concerts for \(user)", "users/\(user)/feed.atom")],
            .h1(.text("Concerts for you")),
            .p(.class("lede"), .text("Shows of the artists, venues and cities you follow. "),
                .a(.href(SiteHTML.attribute("users/\(user)/feed.atom")), .text("Atom feed")), .text(" · "),
                SiteHTML.link("users/\(user)/plans.html", "Plans")),
            .section(
                .ariaLabel("Suggestions"), .h2(.text("Upcoming")),
                .raw(SiteHTML.entries(entries.map { (SiteHTML.entry($0.event), RenderedEvents.day($0.event.start.localDate)) }, byDay: true)))
        )
    }
}
