import Foundation
import Listings
import Plot

/// The website's pages: the feed documents rendered a second time, as HTML, with Plot.
///
/// Every page sets `<base href>` to the site's root, so links are written from the root
/// (`events/12.html`) wherever the page sits, and an event's list entry is the same
/// bytes on every list (``RenderedEvents`` keeps it once, and incremental builds swap it
/// in place like the JSON entries). The site works without JavaScript; `site.js` adds
/// search and "near me".
enum SiteHTML {
    /// Changes when list entries' markup changes: a build state holding entries of another
    /// markup is not spliced into (it would mix the two on one page).
    static let markupVersion: Int64 = 2

    // MARK: - Layout

    /// A complete page. The frame around the content is the same on every page and is
    /// written as text; Plot renders the content.
    /// - Parameters:
    ///   - path: where the page is written, which sets how far `<base>` climbs.
    ///   - feeds: Atom feeds of the page, linked as alternates (paths from the root).
    static func page(
        path: String, title: String, feeds: [(title: String, path: String)] = [], scripts: Bool = false, head: String = "",
        _ content: Node<HTML.BodyContext>...
    ) -> Data {
        page(
            path: path, title: title, feeds: feeds, scripts: scripts, head: head,
            rendered: Node<HTML.BodyContext>.group(content).render())
    }

    /// A complete page around content already rendered.
    ///
    /// Lean on purpose: the frame is on every page of a tree with three files a concert,
    /// so optional tags (`head`, `body`) and quotes around plain values are left out, as
    /// HTML allows; the shared look is in `site.css`.
    /// - Parameters:
    ///   - head: further `<head>` markup (a description, Open Graph tags, JSON-LD).
    ///   - footer: the page's credits, when it names its own sources (``footer(credits:)``).
    static func page(
        path: String, title: String, feeds: [(title: String, path: String)] = [], scripts: Bool = false, head: String = "",
        footer: String? = nil, rendered content: String
    ) -> Data {
        let depth = path.split(separator: "/").count - 1
        let base = depth == 0 ? "./" : String(repeating: "../", count: depth)
        var html = "<!DOCTYPE html><html lang=en><meta charset=utf-8>"
        html.reserveCapacity(content.utf8.count + 512)
        html += "<meta name=viewport content=\"width=device-width,initial-scale=1\">"
        html += "<base href=\(base)><title>\(Markup.escape(title, quotes: false)) · Encore</title>"
        html += "<link rel=stylesheet href=\(SiteAssets.css)><link rel=icon href=\(SiteAssets.favicon)>" + head
        for feed in feeds {
            html += "<link rel=alternate type=application/atom+xml title=\"\(attribute(feed.title))\" href=\"\(attribute(feed.path))\">"
        }
        if scripts { html += "<script src=\(SiteAssets.js) defer></script>" }
        html += "<a class=skip href=#main>Skip to content</a><header><a href=index.html>Encore</a>"
        html += " <a href=mine.html>My concerts</a></header><main id=main>"
        html += content
        html += "</main>" + (footer ?? Self.footer(credits: [])) + "\n"
        return Data(html.utf8)
    }

    /// Credits: the page's sources by their public names, and the gazetteer, whose
    /// licence (CC BY 4.0, stated on `about.html`, which credits every source) asks for it.
    static func footer(credits: [SourceLink]) -> String {
        var seen = Set<String>()
        let links = credits.compactMap { source -> String? in
            let name = publicName(source: source.source, url: source.url)
            guard seen.insert(name).inserted else { return nil }
            return source.url.map { linkHTML($0, name) } ?? Markup.escape(name, quotes: false)
        }
        let listings = links.isEmpty ? "" : "Listings: " + links.joined(separator: ", ") + ". "
        return "<footer>\(listings)Places: <a href=https://www.geonames.org/>GeoNames</a>. <a href=about.html>About</a></footer>"
    }

    /// Text, escaped here rather than by Plot's `.text`, which keeps anything that looks
    /// like an entity (`&amp;`) as it is.
    static func text<Context>(_ value: String) -> Node<Context> {
        .raw(Markup.escape(value, quotes: false))
    }

    /// An attribute value: Plot writes attribute values as they are, unescaped.
    static func attribute(_ value: String) -> String {
        Markup.escape(value)
    }

    static func link(_ href: String, _ label: String) -> Node<HTML.BodyContext> {
        .a(.href(attribute(href)), text(label))
    }

    // MARK: - Dates

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// "Saturday 5 December 2026".
    static func longDate(_ date: LocalDate) -> String {
        // 1970-01-01 was a Thursday.
        let weekday = ((date.daysSinceEpoch + 4) % 7 + 7) % 7
        return "\(weekdays[weekday]) \(date.day) \(months[date.month - 1]) \(date.year)"
    }

    /// "Sat 5 Dec 2026".
    static func shortDate(_ date: LocalDate) -> String {
        let weekday = ((date.daysSinceEpoch + 4) % 7 + 7) % 7
        return "\(weekdays[weekday].prefix(3)) \(date.day) \(months[date.month - 1].prefix(3)) \(date.year)"
    }

    /// "Sat 5 Dec 2026, 20:30", or the date alone when the time is unknown: lists and
    /// feeds give the venue's wall clock, which is what its tickets say.
    static func shortDateAndTime(_ start: EventStart) -> String {
        shortDate(start.localDate) + (start.localTime.map { ", " + hourMinute($0) } ?? "")
    }

    static func hourMinute(_ time: LocalTime) -> String { String(time.description.prefix(5)) }

    /// The `datetime` of a show's `<time>`: the local date and time (venue-local, no offset).
    static func machineTime(_ start: EventStart) -> String {
        start.localTime.map { "\(start.localDate)T\(hourMinute($0))" } ?? start.localDate.description
    }

    /// "20:30 Madrid time", or "time not announced".
    static func localTime(_ start: EventStart) -> String {
        guard let time = start.localTime else { return "time not announced" }
        return hourMinute(time) + " " + (start.timeZone.map(readableZone) ?? "local time")
    }

    static func statusLabel(_ event: EventDetail) -> (label: String, className: String)? {
        if event.unlistedSince != nil { return ("No longer listed", "unlisted") }
        switch event.status {
        case .scheduled: return nil
        case .cancelled: return ("Cancelled", "cancelled")
        case .postponed: return ("Postponed", "postponed")
        case .rescheduled: return ("Moved", "moved")
        }
    }

    // MARK: - Event list entry

    /// An event as HTML lists show it: the same bytes on every list (see the type's note).
    /// Written as text, as every list page is: there are several lists a concert, and
    /// Plot's tree cost more than the rest of a page. End tags that HTML makes optional
    /// (`</li>`, `</dt>`, `</dd>`) are left out of lists.
    static func entry(_ event: EventDetail) -> String {
        let status = statusLabel(event)
        let venue = event.venue.flatMap { isPlaceholder($0.name) ? nil : displayName($0.name) }
        let place = [venue, event.venue?.city].compactMap { $0 }.joined(separator: ", ")
        let when = shortDateAndTime(event.start)
        let price = status == nil ? priceRange(event.offers.map(\.offer)) : nil
        var html = status.map { "<li class=\($0.className)>" } ?? "<li>"
        html += "<a href=events/\(event.id).html>\(Markup.escape(displayTitle(event), quotes: false))</a>"
        if let status { html += "<strong>\(status.label)</strong>" }
        let details = [when, place.isEmpty ? nil : place, price].compactMap { $0 }.joined(separator: " · ")
        html += "<small>" + Markup.escape(details, quotes: false) + "</small>"
        return html
    }

    /// An ordered list of entries; with `byDay`, one list per venue-local day under a heading.
    static func entries(
        _ entries: [(html: String, day: Int)], byDay: Bool, heading: Int = 3, empty: String = "Nothing listed.",
        anchors: Bool = false
    ) -> String {
        guard !entries.isEmpty else { return "<p class=empty>\(empty)</p>" }
        guard byDay else { return "<ol class=events>" + entries.map(\.html).joined() + "</ol>" }
        var html = ""
        var day: Int?
        for entry in entries {
            if entry.day != day {
                if day != nil { html += "</ol>" }
                day = entry.day
                let date = LocalDate(year: entry.day / 10_000, month: entry.day / 100 % 100, day: entry.day % 100)
                // Anchored on a metro area's pages, where its date links land (`#d20261205`).
                let id = anchors ? " id=d\(entry.day)" : ""
                html += "<h\(heading)\(id)>\(date.map(longDate) ?? "Date unknown")</h\(heading)><ol class=events>"
            }
            html += entry.html
        }
        return html + "</ol>"
    }

    /// Links to a list's other pages.
    static func pager(_ paging: FeedPaging) -> String {
        guard paging.pages > 1 else { return "" }
        var html = "<nav class=pager aria-label=Pages>"
        if let previous = paging.previous { html += "<a rel=prev href=\"\(attribute(htmlPath(previous)))\">← Earlier</a>" }
        html += "<span>Page \(paging.page) of \(paging.pages)</span>"
        if let next = paging.next { html += "<a rel=next href=\"\(attribute(htmlPath(next)))\">Later →</a>" }
        return html + "</nav>"
    }

    /// The page of a JSON document (`metros/3/page-2.json` → `metros/3/page-2.html`).
    static func htmlPath(_ jsonPath: String) -> String {
        (jsonPath.hasSuffix(".json") ? String(jsonPath.dropLast(5)) : jsonPath) + ".html"
    }

    /// A link, written as text.
    static func linkHTML(_ href: String, _ label: String) -> String {
        "<a href=\"\(attribute(href))\">\(Markup.escape(label, quotes: false))</a>"
    }

    /// A section of a list page: its heading and content.
    static func section(_ heading: String, _ content: String) -> String {
        "<h2>\(Markup.escape(heading, quotes: false))</h2>" + content
    }
}
