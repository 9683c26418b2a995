import Foundation
import Listings

/// How the site words what sources write their own way: titles without the date every
/// page already gives, venue names out of capitals, zones as places, sellers by the names
/// fans know them by. Pages only: the JSON keeps what the catalog holds.
extension SiteHTML {
    /// The title without a trailing date in parentheses, "(January 14, 2027)", which
    /// every page and list already gives beside it.
    static func displayTitle(_ event: EventDetail) -> String {
        displayTitle(event.title)
    }

    static func displayTitle(_ title: String) -> String {
        guard title.hasSuffix(")"), let open = title.lastIndex(of: "(") else { return title }
        let inside = title[title.index(after: open)..<title.index(before: title.endIndex)]
        let words = inside.replacingOccurrences(of: ",", with: " ").split(separator: " ")
        let isDate =
            words.count == 3 && months.contains(String(words[0])) && words[1].allSatisfy(\.isNumber)
            && words[2].count == 4 && words[2].allSatisfy(\.isNumber)
        guard isDate else { return title }
        let kept = title[..<open].trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? title : kept
    }

    /// A name written all in capitals ("SALA APOLO") in capitalized words; others as written.
    static func displayName(_ name: String) -> String {
        let letters = name.unicodeScalars.filter { CharacterSet.letters.contains($0) }
        guard letters.count >= 5, name == name.uppercased(), name != name.lowercased() else { return name }
        return name.lowercased().split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    /// "Madrid time" for `Europe/Madrid`: the zone's city, as people name the clock.
    static func readableZone(_ zone: String) -> String {
        let city = zone.split(separator: "/").last.map { $0.replacingOccurrences(of: "_", with: " ") } ?? zone
        return city.isEmpty ? zone : "\(city) time"
    }

    /// Sources and sellers as fans know them, matched by their letters ("Last.fm" is the
    /// source `lastfm`): sources are named in their own folders only.
    static let brands = ["Songkick", "Bandsintown", "SeatGeek", "Ticketmaster", "Last.fm", "GeoNames", "Eventbrite", "DICE"]

    static func brand(_ key: String) -> String? {
        brands.first { $0.lowercased().filter(\.isLetter) == key }
    }

    /// A source's public name ("SeatGeek"); a page of the web read for its event data is
    /// named by its site.
    static func publicName(source: String, url: String?) -> String {
        if let brand = brand(source) { return brand }
        if let url, let host = URLComponents(string: url)?.host, !host.isEmpty {
            return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        }
        return "a venue’s own page"
    }

    /// A ticket seller by the name fans know: the seller its link leads to, else the
    /// source that listed it.
    static func sellerName(_ offer: OfferDetail) -> String {
        let host = offer.offer.url.flatMap { URLComponents(string: $0)?.host?.lowercased() } ?? ""
        if let known = brands.first(where: { host.contains($0.lowercased().filter(\.isLetter)) }) { return known }
        return host.isEmpty ? publicName(source: offer.source, url: nil) : publicName(source: "", url: offer.offer.url)
    }

    /// The doors time a source's note gives ("Doors 19:00, first act 20:00." → "19:00").
    static func doors(_ note: String?) -> String? {
        guard let note, let range = note.range(of: #"(?i)doors( open)?:? ?(at )?\d{1,2}[:.h]\d{2}"#, options: .regularExpression)
        else { return nil }
        let digits = note[range].split(whereSeparator: { !$0.isNumber }).suffix(2)
        guard digits.count == 2, let hour = Int(digits.first!), hour < 24 else { return nil }
        return String(format: "%02d:%@", hour, String(digits.last!))
    }

    /// The range of prices over a show's offers, with its currency ("€25–35"); nil when no
    /// seller gives a price. Offers in another currency than the first priced one are left
    /// out of the range.
    static func priceRange(_ offers: [OfferListing]) -> String? {
        let priced = offers.filter { $0.priceMin != nil || $0.priceMax != nil }
        guard let first = priced.first else { return nil }
        let same = priced.filter { $0.currency == first.currency }
        let low = same.compactMap { $0.priceMin ?? $0.priceMax }.min()!
        let high = same.compactMap { $0.priceMax ?? $0.priceMin }.max()!
        return price(OfferListing(url: nil, priceMin: low, priceMax: high, currency: first.currency, status: nil, onSale: nil))
    }

    static let currencySymbols = ["EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥"]

    /// "€25–35", "25 CZK".
    static func price(_ offer: OfferListing) -> String? {
        func amount(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
        }
        let symbol = offer.currency.flatMap { currencySymbols[$0] }
        let code = symbol == nil ? offer.currency.map { " " + $0 } ?? "" : ""
        let amounts: String
        switch (offer.priceMin, offer.priceMax) {
        case (let low?, let high?) where low != high: amounts = "\(amount(low))–\(amount(high))"
        case (let low?, _): amounts = amount(low)
        case (nil, let high?): amounts = amount(high)
        default: return nil
        }
        return (symbol ?? "") + amounts + code
    }

    /// An on-sale time as the source wrote it, read: "Mon 1 Dec 2026, 10:00".
    static func onSale(_ text: String) -> String {
        guard let date = LocalDate(iso: String(text.prefix(10))) else { return text }
        let time = text.count >= 16 && text.dropFirst(10).first == "T" ? ", " + text.dropFirst(11).prefix(5) : ""
        return shortDate(date) + time
    }
}
