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
    // MARK: - Layout

    /// A complete page. The frame around the content is the same on every page and is
    /// written as text; Plot renders the content.
    /// - Parameters:
    ///   - path: where the page is written, which sets how far `<base>` climbs.
    ///   - feeds: Atom feeds of the page, linked as alternates (paths from the root).
    static func page(
        path: String, title: String, feeds: [(title: String, path: String)] = [], scripts: Bool = false,
        _ content: Node<HTML.BodyContext>...
    ) -> Data {
        page(path: path, title: title, feeds: feeds, scripts: scripts, rendered: Node<HTML.BodyContext>.group(content).render())
    }

    /// A complete page around content already rendered.
    static func page(
        path: String, title: String, feeds: [(title: String, path: String)] = [], scripts: Bool = false, rendered content: String
    ) -> Data {
        let depth = path.split(separator: "/").count - 1
        let base = depth == 0 ? "./" : String(repeating: "../", count: depth)
        var html = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"UTF-8\"/>"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
        html += "<base href=\"\(base)\"><title>\(Markup.escape(title, quotes: false)) · Encore</title>"
        html += "<link rel=\"stylesheet\" href=\"site.css\"/>"
        for feed in feeds {
            html += "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"\(attribute(feed.title))\" href=\"\(attribute(feed.path))\"/>"
        }
        if scripts { html += "<script src=\"site.js\" defer></script>" }
        html += "</head><body><a class=\"skip\" href=\"#main\">Skip to content</a>"
        html += "<header class=\"site\"><nav aria-label=\"Site\"><a class=\"brand\" href=\"index.html\">Encore</a></nav></header>"
        html += "<main id=\"main\">"
        html += content
        html += "</main><footer class=\"site\"><p>Listings gathered from public sources; every concert page links them.</p></footer>"
        html += "</body></html>\n"
        return Data(html.utf8)
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

    static func hourMinute(_ time: LocalTime) -> String { String(time.description.prefix(5)) }

    /// The `datetime` of a show's `<time>`: the local date and time (venue-local, no offset).
    static func machineTime(_ start: EventStart) -> String {
        start.localTime.map { "\(start.localDate)T\(hourMinute($0))" } ?? start.localDate.description
    }

    /// "20:30 Europe/Madrid", or the date alone when the time is unknown.
    static func localTime(_ start: EventStart) -> String {
        guard let time = start.localTime else { return "time not announced" }
        return hourMinute(time) + (start.timeZone.map { " " + $0 } ?? " local time")
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
    static func entry(_ event: EventDetail) -> String {
        // Written as text: every event has one, rendered once per build.
        let status = statusLabel(event)
        let place = [event.venue?.name, event.venue?.city].compactMap { $0 }.joined(separator: ", ")
        let day = shortDate(event.start.localDate) + (event.start.localTime.map { ", " + hourMinute($0) } ?? "")
        var html = "<li class=\"event\(status.map { " " + $0.className } ?? "")\">"
        html += "<a class=\"title\" href=\"events/\(event.id).html\">\(Markup.escape(event.title, quotes: false))</a>"
        if let status { html += "<strong class=\"status\">\(status.label)</strong>" }
        html += "<span class=\"when\"><time datetime=\"\(machineTime(event.start))\">\(day)</time>"
        if let name = event.start.timeZone, event.start.localTime != nil {
            html += "<span class=\"zone\">\(Markup.escape(" " + name, quotes: false))</span>"
        }
        html += "</span>"
        if !place.isEmpty { html += "<span class=\"where\">\(Markup.escape(place, quotes: false))</span>" }
        return html + "</li>"
    }

    /// An ordered list of entries; with `byDay`, one list per venue-local day under a heading.
    static func entries(
        _ entries: [(html: String, day: Int)], byDay: Bool, heading: Int = 3, empty: String = "Nothing listed."
    ) -> Node<HTML.BodyContext> {
        guard !entries.isEmpty else { return .p(.class("empty"), .text(empty)) }
        guard byDay else { return .ol(.class("events"), .forEach(entries) { .raw($0.html) }) }
        var groups: [(day: Int, html: [String])] = []
        for entry in entries {
            if groups.last?.day == entry.day { groups[groups.count - 1].html.append(entry.html) } else {
                groups.append((entry.day, [entry.html]))
            }
        }
        return .forEach(groups) { group in
            let date = LocalDate(year: group.day / 10_000, month: group.day / 100 % 100, day: group.day % 100)
            return .section(
                .class("day"),
                .element(named: "h\(heading)", nodes: [.text(date.map(longDate) ?? "Date unknown")]),
                .ol(.class("events"), .forEach(group.html) { .raw($0) }))
        }
    }

    /// Links to a list's other pages.
    static func pager(_ paging: FeedPaging) -> Node<HTML.BodyContext> {
        guard paging.pages > 1 else { return .empty }
        return .nav(
            .class("pager"), .ariaLabel("Pages"),
            .if(paging.previous != nil, .a(.attribute(named: "rel", value: "prev"), .href(htmlPath(paging.previous ?? "")), .text("← Earlier"))),
            .span(.text(" Page \(paging.page) of \(paging.pages) ")),
            .if(paging.next != nil, .a(.attribute(named: "rel", value: "next"), .href(htmlPath(paging.next ?? "")), .text("Later →"))))
    }

    /// The page of a JSON document (`metros/3/page-2.json` → `metros/3/page-2.html`).
    static func htmlPath(_ jsonPath: String) -> String {
        (jsonPath.hasSuffix(".json") ? String(jsonPath.dropLast(5)) : jsonPath) + ".html"
    }

    static func sourceLinks(_ sources: [SourceLink]) -> Node<HTML.BodyContext> {
        guard !sources.isEmpty else { return .empty }
        return .ul(.class("sources"), .forEach(sources) { source in
            .li(source.url.map { link($0, "\(source.source) (\(source.id))") } ?? text("\(source.source) (\(source.id))"))
        })
    }
}
