import Foundation
import Listings

/// RFC 4287 Atom feeds of what is new: the static answer to push notifications.
///
/// Entries are dated with catalog times, so the same catalog gives the same bytes: when
/// the event was first seen, when it was last cancelled, postponed, moved or re-timed, or
/// when its sources stopped listing it, whichever is latest; a change is said first in the
/// title and summary, so a feed reader shows the entry again. An entry's id is the event's, stable across builds; its
/// link is the concert page, relative to the feed (every feed sits one folder deep, or
/// says `xml:base`), so an event's entry is the same bytes in every feed.
enum AtomFeed {
    /// Entries a feed keeps, newest first: feed readers poll, so a feed needs only what is
    /// new since a reader last looked (RFC 4287 asks for no history).
    static let limit = 50
    /// Entries a band's feed keeps: a band announces a few shows at a time, and every band
    /// has a feed, so long ones added up to much of the tree.
    static let artistLimit = 10
    /// How far back a metro area's "just announced" feed reaches.
    static let announcedDays = 14

    static func id(of event: Int64) -> String { "tag:encore.invalid,2026:event/\(event)" }

    /// When an entry was last updated, as far as the catalog knows.
    static func updated(_ event: EventDetail) -> UTCInstant {
        let firstSeen = event.firstSeen ?? UTCInstant(secondsSinceEpoch: 0)
        return max(firstSeen, event.unlistedSince.flatMap { UTCInstant(iso: $0) } ?? firstSeen, event.changedAt ?? firstSeen)
    }

    /// What changed, as an entry says it first ("Cancelled", "New time"); nil for a show
    /// as first announced.
    static func news(_ event: EventDetail) -> String? {
        if let status = SiteHTML.statusLabel(event) { return status.label }
        guard event.changedAt != nil, let change = event.change else { return nil }
        switch change {
        case .newDate, .newTime, .newVenue, .reinstated: return change.label
        case .cancelled, .postponed, .rescheduled: return nil
        }
    }

    /// An event's `<entry>`: its title and a one-line summary (when and where, and the
    /// first acts when the title does not name the headliner, as a festival's does not),
    /// linking the concert page, which has the rest.
    static func entry(_ event: EventDetail) -> String {
        let updated = updated(event).description
        let news = news(event)
        let place = [event.venue?.name, event.venue?.city].compactMap { $0 }.joined(separator: ", ")
        let when = SiteHTML.shortDateAndTime(event.start)
        var summary = (news.map { $0 + ". " } ?? "") + (place.isEmpty ? when : when + " · " + place)
        if let headliner = event.lineup.first, !Markup.contains(event.title, headliner.name) {
            let listed = event.lineup.prefix(EventSummary.actsListed)
            summary += " · with " + listed.map(\.name).joined(separator: ", ")
                + (event.lineup.count > listed.count ? " and \(event.lineup.count - listed.count) more" : "")
        }
        return "<entry><id>\(id(of: event.id))</id><title>\(escape((news.map { $0 + ": " } ?? "") + SiteHTML.displayTitle(event)))</title>"
            + "<link href=\"../events/\(event.id).html\"/><updated>\(updated)</updated><summary>\(escape(summary))</summary></entry>"
    }

    /// A whole feed.
    /// - Parameters:
    ///   - path: where the feed is written (its self link).
    ///   - page: the HTML page the feed belongs to.
    ///   - entries: `<entry>` elements, newest first.
    ///   - updated: the newest entry's time, or, for an empty feed, the build's day.
    static func feed(id: String, title: String, path: String, page: String, updated: UTCInstant, entries: [String]) -> Data {
        let depth = path.split(separator: "/").count - 1
        // Entries link `../events/…`: right one folder deep, which xml:base makes true deeper.
        let base = depth > 1 ? " xml:base=\"\(String(repeating: "../", count: depth - 1))\"" : ""
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"\(base)>"
        xml += "<id>tag:encore.invalid,2026:\(escape(id))</id><title>\(escape(title))</title>"
        xml += "<updated>\(updated.description)</updated><author><name>Encore</name></author>"
        xml += "<link rel=\"self\" href=\"../\(escape(path))\"/><link href=\"../\(escape(page))\"/>"
        for entry in entries { xml += entry }
        xml += "</feed>\n"
        return Data(xml.utf8)
    }

    static func escape(_ text: String) -> String { Markup.escape(text) }

    /// The entries of a list's events newest first, at most `limit`, with `since`
    /// (seconds since the epoch) the oldest update time kept; and the newest entry's
    /// update time.
    static func entries(of list: EventList, since: Int64 = .min, limit: Int = limit) -> (entries: [String], updated: Int64?) {
        switch list {
        case .details(let events):
            let kept = events.map { (firstSeen: updated($0).secondsSinceEpoch, event: $0) }.filter { $0.firstSeen >= since }
                .sorted { ($0.firstSeen, $0.event.id) > ($1.firstSeen, $1.event.id) }.prefix(limit)
            return (kept.map { entry($0.event) }, kept.map { updated($0.event).secondsSinceEpoch }.max())
        case .rendered, .records:
            // A record's `firstSeen` is its entry's update time (``updated(_:)``). Each
            // record is read once, and only the newest `limit` are kept as the list goes: a
            // big city lists thousands.
            typealias Candidate = (firstSeen: Int64, id: Int64, atom: ArraySlice<UInt8>)
            func newestFirst(_ a: Candidate, _ b: Candidate) -> Bool { (a.firstSeen, a.id) > (b.firstSeen, b.id) }
            var chosen: [Candidate] = []
            list.forEachRecord { id, record in
                guard record.firstSeen >= since else { return }
                chosen.append((record.firstSeen, id, record.atom))
                if chosen.count >= 2 * limit {
                    chosen.sort(by: newestFirst)
                    chosen.removeLast(chosen.count - limit)
                }
            }
            let kept = chosen.sorted(by: newestFirst).prefix(limit)
            return (kept.map { String(decoding: $0.atom, as: UTF8.self) }, kept.first?.firstSeen)
        }
    }
}
