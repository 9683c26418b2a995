import Foundation
import Listings

/// A fan's Atom feed also announces shows recommended to her and tickets going on sale,
/// each once: an entry's id names the fan, the event and (for a sale) its time, so the
/// same announcement keeps its id from build to build and a feed reader shows it once.
extension AtomFeed {
    static func recommendationID(user: String, event: Int64) -> String {
        "tag:encore.invalid,2026:user/\(user)/recommendation/\(event)"
    }

    static func onSaleID(user: String, event: Int64, at instant: UTCInstant) -> String {
        "tag:encore.invalid,2026:user/\(user)/onsale/\(event)/\(instant.secondsSinceEpoch)"
    }

    /// "Recommended: TITLE", with the act and why, dated when the show was first seen.
    static func entry(_ item: Recommendation, user: String) -> (updated: UTCInstant, xml: String) {
        let event = item.event
        let place = [event.venue?.name, event.venue?.city].compactMap { $0 }.joined(separator: ", ")
        let summary = [item.artist.name + ": " + item.reason, SiteHTML.shortDateAndTime(event.start), place]
            .filter { !$0.isEmpty }.joined(separator: " · ")
        let updated = updated(event)
        return (
            updated,
            "<entry><id>\(escape(recommendationID(user: user, event: event.id)))</id><title>\(escape("Recommended: " + event.title))</title>"
                + "<link href=\"../events/\(event.id).html\"/><updated>\(updated)</updated><summary>\(escape(summary))</summary></entry>"
        )
    }

    /// "Tickets on sale 2026-12-10 10:00 (Europe/Madrid): TITLE", linking the tickets
    /// when the source gave a link, dated when the show was first seen.
    static func entry(_ sale: OnSaleEntry, user: String) -> (updated: UTCInstant, xml: String) {
        let event = sale.event
        let kind = sale.status?.hasPrefix("presale") == true ? "Presale" : "Tickets on sale"
        let when = "\(sale.localDate) \(sale.localTime.description.prefix(5))" + (sale.timeZone.map { " (\($0))" } ?? "")
        let link = sale.url.map { "<link rel=\"related\" href=\"\(escape($0))\"/>" } ?? ""
        let updated = updated(event)
        return (
            updated,
            "<entry><id>\(escape(onSaleID(user: user, event: event.id, at: sale.onSale)))</id>"
                + "<title>\(escape("\(kind) \(when): \(event.title)"))</title>"
                + "<link href=\"../events/\(event.id).html\"/>\(link)<updated>\(updated)</updated>"
                + "<summary>\(escape(sale.reason + " · " + SiteHTML.shortDateAndTime(event.start)))</summary></entry>"
        )
    }

    /// The fan's feed: her shows' entries and the announcements, newest first (ties by
    /// id), at most ``limit``.
    static func userEntries(events: [EventDetail], recommendations: [Recommendation], sales: [OnSaleEntry], user: String)
        -> (entries: [String], updated: UTCInstant?)
    {
        var all = events.map { (updated: updated($0), key: id(of: $0.id), xml: entry($0)) }
        all += recommendations.map { let made = entry($0, user: user); return (made.updated, recommendationID(user: user, event: $0.event.id), made.xml) }
        all += sales.map { let made = entry($0, user: user); return (made.updated, onSaleID(user: user, event: $0.event.id, at: $0.onSale), made.xml) }
        let kept = all.sorted { ($0.updated, $0.key) > ($1.updated, $1.key) }.prefix(limit)
        return (kept.map(\.xml), kept.first?.updated)
    }
}
