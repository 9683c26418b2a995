import Foundation
import Geo
import Listings

/// When a metro area's concerts are: "tonight", "this weekend" and each month, as links
/// to the day's heading on the page that lists it, and a date picker (with JavaScript)
/// that jumps to any day. Static: the pages are chronological, so a day is an anchor.
struct MetroCalendar: Sendable {
    /// The build's day.
    let today: LocalDate
    /// The first and last day (`yyyymmdd`) each page lists, page 1 first.
    let pages: [(first: Int, last: Int)]
    /// Every day with a concert, in order.
    let days: [Int]

    /// The calendar of a list whose events have `days`, in list order, `size` a page.
    init(today: LocalDate, days eventDays: [Int], pageSize size: Int) {
        self.today = today
        pages = stride(from: 0, to: eventDays.count, by: size).map { start in
            let page = eventDays[start..<min(start + size, eventDays.count)]
            return (page.min()!, page.max()!)
        }
        var seen = Set<Int>()
        days = eventDays.filter { seen.insert($0).inserted }.sorted()
    }

    /// The page (1-based) where a day's list begins.
    func page(of day: Int) -> Int {
        (pages.firstIndex { $0.last >= day } ?? max(pages.count - 1, 0)) + 1
    }

    func link(metro: Int64, day: Int) -> String {
        let page = page(of: day)
        return (page == 1 ? "metros/\(metro).html" : "metros/\(metro)/page-\(page).html") + "#d\(day)"
    }

    /// The weekend's days: Friday to Sunday of this week (from today when it has begun).
    var weekend: ClosedRange<Int> {
        let weekday = ((today.daysSinceEpoch + 4) % 7 + 7) % 7  // 0 is Sunday
        let friday = today.adding(days: weekday == 0 ? -2 : 5 - weekday)
        let from = max(RenderedEvents.day(friday), RenderedEvents.day(today))
        return from...RenderedEvents.day(friday.adding(days: 2))
    }

    func html(metro: Int64) -> String {
        guard !days.isEmpty else { return "" }
        let tonight = RenderedEvents.day(today)
        var links: [String] = []
        if days.contains(tonight) { links.append("<a href=\(link(metro: metro, day: tonight))>Tonight</a>") }
        if let first = days.first(where: weekend.contains) {
            links.append("<a href=\(link(metro: metro, day: first))>This weekend</a>")
        }
        var month = 0
        for day in days where day / 100 != month {
            month = day / 100
            let name = SiteHTML.months[month % 100 - 1] + (month / 100 == today.year ? "" : " \(month / 100)")
            links.append("<a href=\(link(metro: metro, day: day))>\(name)</a>")
        }
        let starts = pages.map { String($0.last) }.joined(separator: " ")
        let (from, to) = (Self.iso(days.first!), Self.iso(days.last!))
        return "<nav class=when aria-label=\"Concerts by date\">" + links.joined(separator: " ")
            + "<span class=picker data-metro=\(metro) data-pages=\"\(starts)\" hidden><label for=day>Go to a day</label>"
            + "<input type=date id=day min=\(from) max=\(to)></span></nav>"
    }

    static func iso(_ day: Int) -> String { String(format: "%04d-%02d-%02d", day / 10_000, day / 100 % 100, day % 100) }
}

extension SiteHTML {
    /// A venue with no name of its own ("Unknown venue", as sources write it): no pin,
    /// no page, no link.
    static func isPlaceholder(_ venueName: String) -> Bool {
        venueName.caseInsensitiveCompare("Unknown venue") == .orderedSame
    }

    /// A numbered pin for each venue, keyed to the list of venues beside it (nearest the
    /// centre first, with distances): readable at any number of venues, as labels on the
    /// map would pile up. The map is one image; its links are in the list.
    static func map(_ venues: GeoJSON.FeatureCollection, of name: String, center: Coordinate?) -> String {
        let located = venues.features.filter { $0.geometry.coordinates.count == 2 && !isPlaceholder($0.properties.name) }
        guard !located.isEmpty else { return "" }
        func coordinate(_ venue: GeoJSON.Feature) -> Coordinate {
            Coordinate(latitude: venue.geometry.coordinates[1], longitude: venue.geometry.coordinates[0])
        }
        let middle = center ?? coordinate(located[0])
        let points = located.map { (venue: $0, km: haversineDistance(from: middle, to: coordinate($0))) }
            .sorted { ($0.km, $0.venue.id) < ($1.km, $1.venue.id) }
        let (width, height, margin) = (600.0, 300.0, 18.0)
        let lats = points.map { $0.venue.geometry.coordinates[1] }
        let lngs = points.map { $0.venue.geometry.coordinates[0] }
        // Equirectangular, longitudes shrunk by the cosine of the latitude: true to shape
        // at a city's scale.
        let scaleX = cos((lats.min()! + lats.max()!) / 2 * .pi / 180)
        let spanX = max((lngs.max()! - lngs.min()!) * scaleX, 1e-4)
        let spanY = max(lats.max()! - lats.min()!, 1e-4)
        let scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY)
        let offsetX = (width - spanX * scale) / 2
        let offsetY = (height - spanY * scale) / 2
        func format(_ value: Double) -> String { String(format: "%.0f", value) }
        var svg = "<svg class=map viewBox=\"0 0 600 300\" role=img aria-labelledby=map-title>"
        svg += "<title id=map-title>Map of \(points.count) venues in \(attribute(name)), numbered as in the list below</title>"
        svg += "<rect class=ground width=600 height=300 rx=8 />"
        var list = "<ol class=venues>"
        // The farthest drawn first, so the centre's pins are on top.
        for (number, point) in points.enumerated().reversed() {
            let x = offsetX + (point.venue.geometry.coordinates[0] - lngs.min()!) * scaleX * scale
            let y = height - offsetY - (point.venue.geometry.coordinates[1] - lats.min()!) * scale
            svg += "<circle cx=\(format(x)) cy=\(format(y)) r=13 /><text x=\(format(x)) y=\(format(y + 5))>\(number + 1)</text>"
        }
        for point in points {
            let count = point.venue.properties.events.count
            list += "<li><a href=venues/\(point.venue.id).html>\(Markup.escape(displayName(point.venue.properties.name), quotes: false))</a>"
            list += " <small>\(String(format: "%.1f", point.km)) km · \(count) concert\(count == 1 ? "" : "s")</small>"
        }
        return "<figure>" + svg + "</svg><figcaption>Distances from the centre of \(Markup.escape(name, quotes: false)).</figcaption></figure>"
            + list + "</ol>"
    }

    /// A Follow button, kept in the browser (`site.js`); hidden until the script shows it.
    /// - Parameter metro: a venue's metro area, whose shows "My concerts" reads for it.
    static func followButton(kind: String, key: String, name: String, metro: Int64? = nil) -> String {
        "<button type=button class=follow data-follow=\"\(kind):\(attribute(key))\" data-name=\"\(attribute(name))\""
            + (metro.map { " data-metro=\($0)" } ?? "") + " hidden>Follow</button>"
    }
}
