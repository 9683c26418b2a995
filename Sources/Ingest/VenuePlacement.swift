import Foundation
import Geo
import Listings

/// Places a venue its source gives no coordinates for, by its address and the evidence
/// the page carries (``PlaceEvidence``), for ``GeoEnrichment``.
///
/// - **Country**, strongest first: the address's own ("Wacken, Germany", "GA 30316"), the
///   operator's `country` (or the country of its `place`), the country of the event's or
///   calendar's zone when that zone is one country's (`Europe/London` is GB's;
///   `Europe/Berlin` DE's), the operator's `time_zone`, the country of the page's web
///   address (`.co.uk`, `.de`, `.no`, `.jp`; not `.com`, `.io`, `.fm`, `.tv`), and the
///   country most of the page's other venues are in.
/// - **City**: the gazetteer's city of the address's city name in that country (and that
///   zone, when one is stated), else of its last words ("Kulturhuset Tromsø" is in
///   Tromsø, "Downtown Los Angeles" in Los Angeles). A venue with no city tries its name.
/// - **Disagreement**: a city that exists only in another country or zone than the
///   evidence says (an English town's namesake in Canada) is not taken: the venue keeps
///   the evidence's country and zone, no position, and a warning says why.
/// - **Zone** without a city: the stated zone, else the country's (or US state's) one zone
///   (Wacken is too small for the gazetteer; Germany has one zone).
struct VenuePlacement {
    let gazetteer: Gazetteer
    let zones: ZoneTable
    /// `cities(named:)` scans the gazetteer; venue and city names recur on every page.
    let citiesByName: MemoCache<String, [City]>

    /// What a page says about where it is, read once per page.
    struct PageEvidence {
        var countries: [(code: String, reason: String)] = []
        var zone: (name: String, reason: String)?
    }

    /// The place a venue was given, and what the operator should hear about it.
    struct Outcome {
        var venue: VenueListing
        var warning: String?
    }

    func evidence(for page: ListingPage, votes: [String]) -> PageEvidence {
        var result = PageEvidence()
        let hints = page.placeEvidence
        if let code = hints.configuredCountry { result.countries.append((code, "the source's country setting")) }
        if let place = hints.configuredPlace, let city = try? gazetteer.resolve(place).chosen {
            result.countries.append((city.countryCode, "the source's place setting"))
            if result.zone == nil, hints.configuredZone == nil { result.zone = (city.timeZone, "the source's place setting") }
        }
        if let zone = hints.calendarZone {
            result.zone = (zone, "the calendar's zone")
            if let only = onlyCountry(of: zone) { result.countries.append((only, "the calendar's zone \(zone)")) }
        }
        if let zone = hints.configuredZone {
            if result.zone == nil || result.zone?.reason != "the calendar's zone" { result.zone = (zone, "the source's time_zone setting") }
            if let only = onlyCountry(of: zone) { result.countries.append((only, "the source's time_zone setting")) }
        }
        if let host = Self.hostCountry(page) { result.countries.append((host, "the web address")) }
        // The page's other venues: a clear majority of at least two.
        let counts = Dictionary(votes.map { ($0, 1) }, uniquingKeysWith: +)
        if let (code, count) = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), count >= 2, count * 3 >= votes.count * 2 {
            result.countries.append((code, "the feed's other venues"))
        }
        return result
    }

    /// The country whose cities keep this zone, if it is one country's.
    func onlyCountry(of zone: String) -> String? {
        zones.mainCountry(of: zone)
    }

    /// The country a venue's own address names, if any (an ISO code or a name).
    static func addressCountry(_ venue: VenueListing) -> String? {
        guard let country = venue.country else { return nil }
        return CountryNames.code(for: country)
    }

    /// Places a venue without coordinates.
    /// - Parameter eventZone: the zone its event's source states (a `TZID`), if any.
    func place(_ venue: VenueListing, eventZone: String?, evidence: PageEvidence) -> Outcome {
        var venue = venue
        let zone = eventZone.map { ($0, "the event's zone") } ?? evidence.zone
        var country: (code: String, reason: String)?
        if let code = Self.addressCountry(venue) ?? venue.metroArea?.country.flatMap(CountryNames.code(for:)) {
            country = (code, "the address")
        }
        if country == nil, let zone, let only = onlyCountry(of: zone.0) { country = (only, zone.1) }
        if country == nil { country = evidence.countries.first }
        if country == nil, let region = venue.region, FreeTextAddress.usStates.contains(region),
            !Self.codesMostlyCountries.contains(region)
        {
            country = ("US", "the state")
        }
        var names: [String] = []
        // Shorter runs of words only with a country or zone to check them against.
        let evidenced = country != nil || zone != nil
        if let city = venue.city { names += evidenced ? Self.trailingRuns(city) : [city] }
        if venue.city == nil, evidenced { names += Self.trailingRuns(venue.name) }
        var elsewhere: City?
        let primary = venue.city
        for name in names {
            let found = cities(named: name)
            let matching = found.filter { city in
                if let country, city.countryCode != country.code { return false }
                if let region = venue.region, country?.code == "US" || country == nil,
                    city.admin1Code != region && city.countryCode != region
                {
                    return false
                }
                if let zone, !sameClock(city.timeZone, zone.0) { return false }
                return true
            }
            if let city = matching.first {
                venue.place = GeoEnrichment.link(city)
                venue.coordinate = city.coordinate
                venue.coordinateIsApproximate = true
                venue.country = venue.country ?? city.countryCode
                if venue.city == nil || NameFolding.fold(venue.city!) != NameFolding.fold(name) { venue.city = city.name }
                venue.timeZone = venue.timeZone ?? city.timeZone
                return Outcome(venue: venue)
            }
            if elsewhere == nil, name == primary { elsewhere = found.first }
        }
        // No city: the country and zone the evidence gives, no position.
        if let country { venue.country = country.code }
        venue.timeZone = venue.timeZone ?? zone?.0 ?? country.flatMap { zones.onlyZone(of: $0.code, region: venue.region) }
        var warning: String?
        if let elsewhere, let country, elsewhere.countryCode == country.code, let region = venue.region {
            warning = "\"\(primary ?? "")\" in the gazetteer is \(elsewhere.name), \(elsewhere.admin1Code), \(elsewhere.countryCode), not in \(region): the venue \"\(venue.name)\" is left without a position"
        } else if let elsewhere, let country {
            warning = "\"\(primary ?? "")\" is \(elsewhere.name), \(elsewhere.countryCode) in the gazetteer, but \(country.reason) says \(country.code)"
                + (zone.map { " (\($0.0))" } ?? "") + ": the venue \"\(venue.name)\" is left without a position"
        } else if let elsewhere, let zone {
            warning = "\"\(primary ?? "")\" is \(elsewhere.name), \(elsewhere.countryCode) in \(elsewhere.timeZone), but \(zone.1) is \(zone.0): the venue \"\(venue.name)\" is left without a position"
        } else if venue.timeZone == nil, venue.city != nil || venue.country != nil {
            warning = "the venue \"\(venue.name)\" could not be placed (\([venue.city, venue.country].compactMap { $0 }.joined(separator: ", "))): no position, no time zone"
        }
        return Outcome(venue: venue, warning: warning)
    }

    /// Whether two zones keep the same clock (same offsets in January and July): an
    /// Indiana city on New York's clock agrees with `America/New_York`.
    func sameClock(_ one: String, _ other: String) -> Bool {
        if one == other { return true }
        guard let a = TimeZone(identifier: one), let b = TimeZone(identifier: other) else { return false }
        let january = Date(timeIntervalSince1970: 1_767_225_600 + 14 * 86_400)
        let july = Date(timeIntervalSince1970: 1_767_225_600 + 195 * 86_400)
        return a.secondsFromGMT(for: january) == b.secondsFromGMT(for: january) && a.secondsFromGMT(for: july) == b.secondsFromGMT(for: july)
    }

    private func cities(named name: String) -> [City] {
        citiesByName.value(for: name) { gazetteer.cities(named: name) }
    }

    /// "Downtown Los Angeles" → ["Downtown Los Angeles", "Los Angeles", "Angeles"], longest
    /// first; "Bonn-Hardtberg" → ["Bonn-Hardtberg", "Bonn"].
    static func trailingRuns(_ text: String) -> [String] {
        let words = text.split(separator: " ").map(String.init)
        guard !words.isEmpty, words.count <= 6 else { return words.isEmpty ? [] : [text] }
        var runs = (0..<words.count).map { words[$0...].joined(separator: " ") }
        // "Bonn-Hardtberg": a city and its district.
        if words.count == 1, let hyphen = text.firstIndex(of: "-"), hyphen > text.startIndex { runs.append(String(text[..<hyphen])) }
        return runs.filter { $0.count >= 3 }
    }

    /// Two-letter codes that after a town no gazetteer lists mean the country as often as
    /// the US state ("Wacken, DE"); other such codes are states ("Morrison, CO").
    static let codesMostlyCountries: Set<String> = ["DE", "CA"]

    /// The country of a page's web address or of most of its events' links: a country
    /// code top-level domain (`.co.uk` is GB), not one sold as a generic name.
    static func hostCountry(_ page: ListingPage) -> String? {
        if let code = tldCountry(page.locator) { return code }
        var counts: [String: Int] = [:]
        for event in page.events.prefix(200) {
            if let url = event.url, let code = tldCountry(url) { counts[code, default: 0] += 1 }
        }
        guard let (code, count) = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }),
            count * 2 > min(page.events.count, 200)
        else { return nil }
        return code
    }

    static func tldCountry(_ address: String) -> String? {
        // Read by hand: asked of every link of a page, and URL parsing is slow.
        guard let scheme = address.range(of: "://"), address.hasPrefix("http") else { return nil }
        let host = address[scheme.upperBound...].prefix { $0 != "/" && $0 != ":" && $0 != "?" && $0 != "#" }.lowercased()
        guard let tld = host.split(separator: ".").last, tld.count == 2 else { return nil }
        let code = tld == "uk" ? "GB" : tld.uppercased()
        guard !genericCountryDomains.contains(String(tld)), CountryNames.code(for: code) == code else { return nil }
        return code
    }

    /// Country domains sold and used as generic names.
    static let genericCountryDomains: Set<String> = [
        "io", "fm", "tv", "me", "co", "ai", "ly", "gg", "to", "cc", "ws", "la", "am", "sh", "nu", "tk", "ac", "gl", "dj",
        "ag", "sc", "vc", "mu", "cx", "ps", "so", "st", "vg", "bz", "cm", "ms", "gs", "tm",
    ]
}
