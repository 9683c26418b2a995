import Foundation

/// Whether a link a page gives for a place (`@id`, `url`, `sameAs`) names that place and
/// no other: pages copy a ticket seller's or their own site's root into every Place, and
/// two venues sharing such a link are not one venue (a Portland show filed in Honolulu).
///
/// Not an identity: a site's root (`https://www.ticketmaster.com/`, `https://example.com`,
/// with or without tracking parameters), and a ticket seller's or listing site's page that
/// names no venue (`https://www.eventbrite.com/d/or--portland/events/`,
/// `https://www.facebook.com/events`). An identity: any other page, a seller's page with a
/// path of its own (`https://www.songkick.com/venues/12345-the-fillmore`), and a named node
/// of a site (`https://thevenue.example/#place`) that is not a seller's.
enum VenueIdentityLink {
    static func identifies(_ link: String) -> Bool {
        guard let components = URLComponents(string: link), let scheme = components.scheme?.lowercased() else {
            return true
        }
        // `urn:`, `tag:` and other non-web identifiers say what they name.
        guard scheme == "http" || scheme == "https", let rawHost = components.host?.lowercased(), !rawHost.isEmpty
        else { return true }
        var labels = rawHost.split(separator: ".").map(String.init)
        if labels.count > 2, ["www", "m", "mobile"].contains(labels[0]) { labels.removeFirst() }
        let segments = components.path.split(separator: "/").map { $0.lowercased() }
        let seller = Self.isSeller(labels)
        let meaningful = segments.filter { !(seller ? Self.sellerPageWords : Self.localeWords).contains($0) }
        if !meaningful.isEmpty { return !seller || meaningful.contains { Self.namesSomething($0) } }
        if seller { return false }
        if let fragment = components.fragment, !fragment.isEmpty { return true }
        let parameters = (components.queryItems ?? []).filter { !$0.name.lowercased().hasPrefix("utm_") }
        return !parameters.isEmpty
    }

    /// Sites that list many venues' events: their root and generic pages name none.
    /// Its name, then a top-level domain of one or two labels (`ticketmaster.co.uk`,
    /// `eventbrite.de`, `dice.fm`).
    private static func isSeller(_ labels: [String]) -> Bool {
        guard let name = labels.first, labels.count == 2 || labels.count == 3 else { return false }
        return sellerNames.contains(name) && labels.dropFirst().allSatisfy { $0.count <= 3 }
    }

    /// One string, not a list of names: the sources' names are their folders' to say.
    private static let sellerNames = Set("""
        ticketmaster livenation eventbrite seetickets eventim axs songkick bandsintown facebook fb ticketweb etix
        stubhub viagogo seatgeek vividseats dice ra residentadvisor skiddle ticketswap universe tixr showclix
        ticketfly billetto fnac ticketone entradas instagram twitter x youtube linktr google goo
        wegottickets gigantic fatsoma ticketek moshtix oztix feverup shotgun allevents
        """.split(whereSeparator: \.isWhitespace).map(String.init))

    /// Path words of a seller's pages that name no venue ("/venues", "/e", "/discover").
    private static let sellerPageWords: Set<String> = [
        "venue", "venues", "v", "event", "events", "e", "d", "discover", "browse", "search", "concerts", "concert",
        "music", "tickets", "ticket", "shows", "home", "index.html", "index.php", "all", "upcoming", "calendar",
        "pages", "places", "place", "explore", "find", "near-me", "nearby", "today", "this-weekend", "locations",
        "organizer", "organizers", "o", "profile", "p", "en", "en-us", "en-gb", "us", "uk", "gb", "de", "fr", "es",
        "nl", "it", "ie", "ca", "au", "nz", "mx", "br", "se", "no", "dk", "fi", "pl", "at", "ch", "be", "pt",
    ]

    /// A site's locale prefix (`https://venue.example/en/`) is its root too.
    private static let localeWords: Set<String> = [
        "en", "en-us", "en-gb", "de", "fr", "es", "nl", "it", "pt", "index.html", "index.php", "home",
    ]

    /// A path part that names a venue or a page rather than a listing of them: a place
    /// on the seller's own map (`or--portland`) names a city, not a venue.
    private static func namesSomething(_ segment: String) -> Bool {
        !segment.contains("--") && segment.count >= 2
    }
}
