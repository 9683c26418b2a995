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

    /// A complete page.
    /// - Parameters:
    ///   - path: where the page is written, which sets how far `<base>` climbs.
    ///   - feeds: Atom feeds of the page, linked as alternates (paths from the root).
    static func page(
        path: String, title: String, feeds: [(title: String, path: String)] = [], scripts: Bool = false,
        _ content: Node<HTML.BodyContext>...
    ) -> Data {
        let depth = path.split(separator: "/").count - 1
        let base = depth == 0 ? "./" : String(repeating: "../", count: depth)
        let html = HTML(
            .lang(.english),
            .head(
                .meta(.charset(.utf8)),
                .meta(.name("viewport"), .content("width=device-width, initial-scale=1")),
                .raw("<base href=\"\(base)\">"),
                .element(named: "title", nodes: [text(title + " · Encore")]),
                .link(.rel(.stylesheet), .href("site.css")),
                .forEach(feeds) { feed in
                    .link(.rel(.alternate), .type("application/atom+xml"), .attribute(named: "title", value: attribute(feed.title)),
                        .href(attribute(feed.path)))
                },
                .if(scripts, .script(.src("site.js"), .attribute(named: "defer")))
            ),
            .body(
                .a(.class("skip"), .href("#main"), .text("Skip to content")),
                .header(
                    .class("site"),
                    .nav(.ariaLabel("Site"), .a(.class("brand"), .href("index.html"), .text("Encore")))
                ),
                .main(.id("main"), .group(content)),
                .footer(
                    .class("site"),
                    .p(.text("Listings gathered from public sources; every concert page links them."))
                )
            )
        )
        var data = Data(html.render().utf8)
        data.append(0x0A)
        return data
    }

    /// Text for Plot's `.text`: Plot escapes `<` and `>` but keeps anything that looks like
    /// an entity (`&amp;`), so a name holding one must have its `&` escaped first.
    static func text<Context>(_ value: String) -> Node<Context> {
        .text(value.replacingOccurrences(of: "&", with: "&amp;"))
    }

    /// An attribute value: Plot writes attribute values as they are, unescaped.
    static func attribute(_ value: String) -> String {
        guard value.contains(where: { $0 == "&" || $0 == "\"" || $0 == "<" || $0 == ">" }) else { return value }
        return value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
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
        let status = statusLabel(event)
        let place = [event.venue?.name, event.venue?.city].compactMap { $0 }.joined(separator: ", ")
        let title: Node<HTML.BodyContext> = .a(.class("title"), .href("events/\(event.id).html"), text(event.title))
        let badge: Node<HTML.BodyContext> = status.map { .strong(.class("status"), .text($0.label)) } ?? .empty
        let day = shortDate(event.start.localDate) + (event.start.localTime.map { ", " + hourMinute($0) } ?? "")
        let time: Node<HTML.BodyContext> = .time(.datetime(machineTime(event.start)), .text(day))
        let zone: Node<HTML.BodyContext> =
            if let name = event.start.timeZone, event.start.localTime != nil { .span(.class("zone"), text(" " + name)) } else { .empty }
        let when: Node<HTML.BodyContext> = .span(.class("when"), time, zone)
        let where_: Node<HTML.BodyContext> = place.isEmpty ? .empty : .span(.class("where"), text(place))
        let node: Node<HTML.ListContext> = .li(
            .class("event" + (status.map { " " + $0.className } ?? "")), .group(title, badge, when, where_))
        return node.render()
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
