import Foundation
import Listings

extension EventFeed {
    /// `events/{id}.html`: the concert page; `slugs` are the band pages' paths, and
    /// `listedWindow` the days whose listed shows put their venue and metro area on pages.
    ///
    /// Its first screen answers a fan's questions in order: is it on, when (doors and
    /// show, on the venue's clock), what it costs and where to buy; then the bill.
    /// - Parameter credits: "A feat. B" credits whose acts have band pages of their own.
    func html(slugs: [Int64: String], listedWindow: DateWindow, credits: FeaturedCredits = .none) -> Data {
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
        let title = SiteHTML.displayTitle(event)
        var html = "<h1>\(text(title))</h1>"
        html.reserveCapacity(4096)
        if let status, let statusText {
            html += "<p class=\"banner \(status.className)\" role=status><strong>\(statusText)</strong></p>"
        }
        html += "<dl class=facts><dt>Date<dd>\(dateText)"
        if let doors = SiteHTML.doors(event.note) { html += "<dt>Doors<dd>\(doors)" }
        html += "<dt>Show<dd>\(text(SiteHTML.localTime(start)))"
        let selling = event.status != .cancelled && event.unlistedSince == nil
        if selling, let price = SiteHTML.priceRange(event.offers.map(\.offer)) { html += "<dt>Price<dd>\(text(price))" }
        if selling, let onSale = event.offers.lazy.compactMap(\.offer.onSale).first {
            html += "<dt>On sale<dd>\(text(SiteHTML.onSale(onSale)))"
        }
        // The city once: as the metro area's link when it is the venue's city.
        let metroIsCity = event.metroArea != nil && event.metroArea?.name == event.venue?.city
        if let venue = event.venue, SiteHTML.isPlaceholder(venue.name) {
            html += "<dt>Venue<dd>Not announced" + text(venue.city.map { ", " + $0 } ?? "")
        } else if let venue = event.venue {
            html += "<dt>Venue<dd>" + place("venues/\(venue.id).html", SiteHTML.displayName(venue.name))
            html += text([venue.street, metroIsCity ? nil : venue.city].compactMap { $0 }.map { ", " + $0 }.joined())
            if venue.latitude != nil { html += " · " + SiteHTML.directions(venue) }
        }
        if let metroArea = event.metroArea { html += "<dt>City<dd>" + place("metros/\(metroArea.id).html", metroArea.name) }
        if let ages = event.ageRestriction { html += "<dt>Ages<dd>\(text(ages))" }
        if let note = event.note { html += "<dt>Note<dd>\(text(note))" }
        html += "</dl>"
        let sellers = event.offers.filter { $0.offer.url != nil }
        if selling, !sellers.isEmpty {
            html += "<ul class=offers>"
            for offer in sellers {
                let name = SiteHTML.sellerName(offer)
                let price = SiteHTML.price(offer.offer).map { " " + text($0) } ?? ""
                html += "<li><a class=buy href=\"\(SiteHTML.attribute(offer.offer.url!))\">Tickets<span> at \(text(name))</span></a>\(price)"
            }
            html += "</ul>"
        }
        html += "<h2>Lineup</h2>"
        if event.lineup.isEmpty { html += "<p class=empty>No source has named the acts yet.</p>" }
        html += "<ol class=lineup>"
        for act in event.lineup {
            html += act.billing == .headline ? "<li class=headline>" : "<li>"
            func band(_ id: Int64, _ name: String) -> String {
                slugs[id].map { "<a href=artists/\($0).html>\(text(name))</a>" } ?? text(name)
            }
            if let featured = credits.acts[act.artistID] {
                html += featured.map { band($0.id, $0.name) }.joined(separator: " feat. ")
            } else {
                html += band(act.artistID, act.name)
            }
            if act.billing == .headline, event.lineup.count > 1 { html += " <small>headliner</small>" }
            if let slot = act.slot { html += " <small>\(text(slot.text))</small>" }
        }
        html += "</ol>"
        html += "<p><a href=events/\(event.id).ics download>Add to calendar (.ics)</a></p>"
        let head = SiteHTML.meta(title: title, description: description()) + "<script type=application/ld+json>\(jsonLD(title: title))</script>"
        return SiteHTML.page(
            path: "events/\(event.id).html", title: title, head: head,
            footer: SiteHTML.footer(credits: event.sources),
            rendered: html)
    }

    /// One line for search results and link previews, beside the title: status, when,
    /// where, price.
    func description() -> String {
        let status = SiteHTML.statusLabel(event).map { $0.label + ". " } ?? ""
        let place = [event.venue.map { SiteHTML.displayName($0.name) }, event.venue?.city].compactMap { $0 }
            .joined(separator: ", ")
        let price = event.status == .cancelled ? nil : SiteHTML.priceRange(event.offers.map(\.offer))
        return status + SiteHTML.shortDateAndTime(event.start) + (place.isEmpty ? "" : " at " + place)
            + (price.map { ". Tickets " + $0 } ?? "") + "."
    }

    /// schema.org `MusicEvent` as JSON-LD, the format Encore's own `jsonld` ingester reads
    /// (tests read it back with it). Dates are the venue's wall clock with its offset when
    /// the instant is known.
    func jsonLD(title: String) -> String {
        var json = JSONLD()
        json.open()
        json.member("@context", "https://schema.org")
        json.member("@type", event.kind == .festival ? "Festival" : "MusicEvent")
        json.member("name", title)
        json.member("startDate", SiteHTML.isoStart(event.start))
        if let end = event.endDate, end != event.start.localDate { json.member("endDate", end.description) }
        // Scheduled unless said otherwise, as schema.org reads it.
        let status: String? = switch event.status {
            case .scheduled: nil
            case .cancelled: "EventCancelled"
            case .postponed: "EventPostponed"
            case .rescheduled: "EventRescheduled"
            }
        if let status { json.member("eventStatus", "https://schema.org/" + status) }
        if let venue = event.venue {
            json.key("location")
            json.open()
            json.member("@type", "MusicVenue")
            json.member("name", venue.name)
            // Lean, as schema.org allows: the address's type and the Place's own
            // latitude and longitude, not a GeoCoordinates.
            json.key("address")
            json.open()
            if let street = venue.street { json.member("streetAddress", street) }
            if let postalCode = venue.postalCode { json.member("postalCode", postalCode) }
            if let city = venue.city { json.member("addressLocality", city) }
            if let region = venue.region { json.member("addressRegion", region) }
            if let country = venue.country { json.member("addressCountry", country) }
            json.close()
            if let lat = venue.latitude, let lng = venue.longitude { json.raw(",\"latitude\":\(lat),\"longitude\":\(lng)") }
            json.close()
        }
        if !event.lineup.isEmpty {
            json.key("performer")
            json.raw("[")
            for (index, act) in event.lineup.enumerated() {
                if index > 0 { json.raw(",") }
                // Named only: schema.org's performer is a Person or a MusicGroup, and
                // the sources seldom say which.
                json.raw("{\"name\":")
                json.string(act.name)
                json.raw("}")
            }
            json.raw("]")
        }
        let offers = event.offers.filter { $0.offer.url != nil }
        if !offers.isEmpty {
            json.key("offers")
            json.raw("[")
            for (index, offer) in offers.enumerated() {
                if index > 0 { json.raw(",") }
                json.open()
                json.member("@type", "Offer")
                json.member("url", offer.offer.url!)
                if let low = offer.offer.priceMin { json.key("lowPrice"); json.raw("\(low)") }
                if let high = offer.offer.priceMax { json.key("highPrice"); json.raw("\(high)") }
                if let currency = offer.offer.currency { json.member("priceCurrency", currency) }
                if let onSale = offer.offer.onSale { json.member("validFrom", onSale) }
                json.close()
            }
            json.raw("]")
        }
        json.close()
        return json.text
    }
}

extension SiteHTML {
    /// `2026-12-05T20:30:00+01:00` when the instant is known, `2026-12-05T20:30:00` when only
    /// the wall clock is, the day alone when the time is unknown.
    static func isoStart(_ start: EventStart) -> String {
        guard let time = start.localTime else { return start.localDate.description }
        let local = "\(start.localDate)T\(time.description.prefix(8))"
        guard let utc = start.utc else { return local }
        let wall = UTCInstant(date: start.localDate, time: time, utcOffsetSeconds: 0).secondsSinceEpoch
        let offset = Int(wall - utc.secondsSinceEpoch)
        guard abs(offset) <= 18 * 3600, offset % 60 == 0 else { return local }
        let minutes = abs(offset) / 60
        return local + (offset < 0 ? "-" : "+") + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    /// A page's description, for search results, and the Open Graph tags of its preview
    /// when shared.
    static func meta(title: String, description: String) -> String {
        let value = attribute(description)
        // Link previews read og:description, else the description: one is enough.
        return "<meta name=description content=\"\(value)\"><meta property=og:title content=\"\(attribute(title))\">"
    }
}

/// JSON written as text, compact; `<` escaped so that the text cannot end its `<script>`
/// (nor open a comment in it).
struct JSONLD {
    private(set) var text = ""
    private var first = [true]

    mutating func open() {
        text += "{"
        first.append(true)
    }

    mutating func close() {
        text += "}"
        first.removeLast()
    }

    mutating func key(_ name: String) {
        if !first[first.count - 1] { text += "," }
        first[first.count - 1] = false
        string(name)
        text += ":"
    }

    mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    mutating func raw(_ value: String) { text += value }

    mutating func string(_ value: String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "<": text += "\\u003c"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
