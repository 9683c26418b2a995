import Geo
import Listings

/// Ticketmaster lists add-ons to a show under ids of their own, in the Music segment: VIP
/// and other packages, resale and platinum listings, upgrades, parking ("Parking: 8th
/// Annual Beerfest", ticketmaster-api/sdk-javascript `test/fixtures/discovery/v2/event/
/// all-200.json`). None is a show of its own, and each would otherwise take the place of
/// the show's own listing when other sources' listings merge with it. They are left out
/// and counted ("ticket packages", "parking passes").
///
/// "Early Show" may name a show of its own (an early and a late show): a listing so named
/// is left out only when the page lists the same show without the words, at the same
/// venue, day and time.
enum TicketmasterPackages {
    static func leaveOut(from page: inout ListingPage) {
        guard page.events.contains(where: { marker(of: $0.title) != nil }) else { return }
        let plain = Set(page.events.filter { marker(of: $0.title) == nil }.map(showKey))
        var skipped = page.skipped
        page.events.removeAll { event in
            guard let marker = marker(of: event.title) else { return false }
            switch marker {
            case .parking:
                skipped["parking passes", default: 0] += 1
            case .package:
                skipped["ticket packages", default: 0] += 1
            case .earlyShow(let base):
                var show = event
                show.title = base
                guard plain.contains(showKey(show)) else { return false }
                skipped["ticket packages", default: 0] += 1
            }
            return true
        }
        page.skipped = skipped
    }

    enum Marker: Equatable {
        case parking
        case package
        /// The title without the words.
        case earlyShow(String)
    }

    static func marker(of title: String) -> Marker? {
        let folded = NameFolding.fold(title)
        let words = folded.split(separator: " ")
        if words.first == "parking" || words.contains("parking") && (title.contains(":") || title.contains("-")) {
            return .parking
        }
        if packageWords.contains(where: { words.contains($0) }) || packagePhrases.contains(where: folded.contains) {
            return .package
        }
        for suffix in [" - early show", " (early show)", " - early show only", ": early show"] where title.lowercased().hasSuffix(suffix) {
            return .earlyShow(String(title.dropLast(suffix.count)))
        }
        return nil
    }

    private static let packageWords: Set<Substring> = ["vip", "resale", "upgrade", "upgrades", "platinum"]
    private static let packagePhrases = ["package", "hospitality", "early entry", "suite rental", "premium seating"]

    /// The show a listing is: its venue, day, time and title.
    private static func showKey(_ event: EventListing) -> String {
        [event.venue?.sourceID ?? "", event.start.localDate.description, event.start.localTime?.description ?? "",
         NameFolding.fold(event.title)].joined(separator: "\u{1F}")
    }
}
