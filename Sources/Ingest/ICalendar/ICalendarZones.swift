import Foundation
import Listings

/// How a calendar's times are to be read: the zones its `TZID`s name, its `VTIMEZONE`
/// blocks mapped to the IANA zones they describe, and its default (`X-WR-TIMEZONE`).
struct ICalendarZones {
    /// What a `TZID` (or the default) means.
    enum Zone: Equatable {
        /// An IANA zone: times are that zone's wall clock.
        case iana(String)
        /// UTC (or GMT): times written in it are instants, not the venue's clock.
        case utc
        /// A `VTIMEZONE` no IANA zone could be named for: its fixed offsets (standard,
        /// daylight) and the months daylight time runs, enough for the instant.
        case offsets(standard: Int, daylight: Int?, daylightMonths: Set<Int>)
    }

    private var byID: [String: Zone] = [:]
    /// `X-WR-TIMEZONE`, when it names a zone.
    var defaultZone: Zone?

    init(calendar: ICalendarComponent) {
        for block in calendar.components where block.name == "VTIMEZONE" {
            guard let id = block.property("TZID")?.text, !id.isEmpty else { continue }
            if let zone = Self.describedZone(id: id, block: block) { byID[id] = zone }
        }
        if let name = calendar.property("X-WR-TIMEZONE")?.text, !name.isEmpty {
            defaultZone = zone(named: name)
        }
    }

    /// The zone the calendar's places keep, as evidence of where they are: `X-WR-TIMEZONE`,
    /// else the one IANA zone its `VTIMEZONE`s describe; nil when UTC or several.
    var placeZone: String? {
        if case .iana(let name) = defaultZone { return name }
        let described = Set(byID.values.compactMap { zone -> String? in
            if case .iana(let name) = zone { return name }
            return nil
        })
        return described.count == 1 ? described.first : nil
    }

    /// The zone a `TZID` names; nil when neither a `VTIMEZONE` nor the IANA database
    /// knows it (its times are then read as the venue's wall clock).
    func zone(named id: String) -> Zone? {
        if let described = byID[id] { return described }
        return Self.ianaZone(id)
    }

    static let utcNames: Set<String> = [
        "UTC", "GMT", "Z", "UCT", "ZULU", "UNIVERSAL", "GREENWICH", "GMT0", "GMT+0", "GMT-0", "ETC/UTC", "ETC/GMT",
        "ETC/UCT", "ETC/ZULU", "ETC/UNIVERSAL", "ETC/GREENWICH", "ETC/GMT0", "ETC/GMT+0", "ETC/GMT-0",
        "COORDINATED UNIVERSAL TIME", "GMT STANDARD TIME (UTC)", "UTC STANDARD TIME",
    ]

    /// An IANA name as written, or after a path prefix (`/mozilla.org/20050126_1/Europe/Berlin`,
    /// `/citadel.org/20190914_1/Europe/Paris`), or a Windows zone name Outlook writes.
    static func ianaZone(_ written: String) -> Zone? {
        let id = written.trimmingCharacters(in: .whitespaces)
        if utcNames.contains(id.uppercased()) { return .utc }
        if let iana = knownIdentifier(id) { return utcNames.contains(iana.uppercased()) ? .utc : .iana(iana) }
        let parts = id.split(separator: "/")
        for start in parts.indices.dropFirst() {
            let tail = parts[start...].joined(separator: "/")
            if tail.contains("/"), let iana = knownIdentifier(tail) { return .iana(iana) }
        }
        if let iana = windowsZones[id] { return .iana(iana) }
        return nil
    }

    private static let knownIdentifiers: [String: String] = Dictionary(
        TimeZone.knownTimeZoneIdentifiers.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })

    private static func knownIdentifier(_ id: String) -> String? {
        knownIdentifiers[id.lowercased()]
    }

    /// A `VTIMEZONE` whose `TZID` is no IANA name: its `X-LIC-LOCATION`, else the IANA
    /// zone with the same offsets whose city the `TZID` names (Outlook's "(UTC+01:00)
    /// Amsterdam, Berlin, …"), else its offsets alone.
    static func describedZone(id: String, block: ICalendarComponent) -> Zone? {
        if let zone = ianaZone(id) { return zone }
        if let location = block.property("X-LIC-LOCATION")?.text, let zone = ianaZone(location) { return zone }
        func offset(_ part: String) -> (offset: Int, month: Int?)? {
            guard let sub = block.components.first(where: { $0.name == part }),
                let to = sub.property("TZOFFSETTO").flatMap({ offsetSeconds($0.text) })
            else { return nil }
            // A month outside 1...12 (a mangled DTSTART) tells nothing about when daylight time runs.
            let month = sub.property("DTSTART").flatMap { Int($0.text.dropFirst(4).prefix(2)) }
            return (to, month.flatMap { (1...12).contains($0) ? $0 : nil })
        }
        guard let standard = offset("STANDARD") ?? offset("DAYLIGHT") else { return nil }
        let daylight = offset("DAYLIGHT").flatMap { $0.offset == standard.offset ? nil : $0 }
        var months: Set<Int> = []
        if let start = daylight?.month, let end = standard.month {
            months = start <= end ? Set(start..<end) : Set(start...12).union(1..<end)
        }
        if standard.offset == 0, daylight == nil { return .utc }
        // Zones with these offsets whose city the TZID names.
        let words = id.lowercased()
        for identifier in TimeZone.knownTimeZoneIdentifiers.sorted() where identifier.contains("/") {
            let city = identifier.split(separator: "/").last!.replacingOccurrences(of: "_", with: " ").lowercased()
            guard words.contains(city), let zone = TimeZone(identifier: identifier) else { continue }
            let january = zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_767_225_600 + 14 * 86_400))
            let july = zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_767_225_600 + 195 * 86_400))
            let expected = Set([standard.offset, daylight?.offset ?? standard.offset])
            if Set([january, july]) == expected { return .iana(identifier) }
        }
        return .offsets(standard: standard.offset, daylight: daylight?.offset, daylightMonths: months)
    }

    /// `+0200`, `-0530`, `+020000`.
    static func offsetSeconds(_ text: String) -> Int? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst()
        guard digits.count == 4 || digits.count == 6, digits.allSatisfy(\.isASCII), let value = Int(digits) else { return nil }
        let hours = digits.count == 4 ? value / 100 : value / 10_000
        let minutes = digits.count == 4 ? value % 100 : (value / 100) % 100
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// The Windows zone names Outlook and Exchange write as `TZID`, for the zones where
    /// Encore's sources list most (CLDR's windowsZones, territory 001).
    static let windowsZones: [String: String] = [
        "Dateline Standard Time": "Etc/GMT+12", "Hawaiian Standard Time": "Pacific/Honolulu",
        "Alaskan Standard Time": "America/Anchorage", "Pacific Standard Time": "America/Los_Angeles",
        "US Mountain Standard Time": "America/Phoenix", "Mountain Standard Time": "America/Denver",
        "Central Standard Time": "America/Chicago", "Central America Standard Time": "America/Guatemala",
        "Canada Central Standard Time": "America/Regina", "Central Standard Time (Mexico)": "America/Mexico_City",
        "Eastern Standard Time": "America/New_York", "US Eastern Standard Time": "America/Indianapolis",
        "SA Pacific Standard Time": "America/Bogota", "Atlantic Standard Time": "America/Halifax",
        "Newfoundland Standard Time": "America/St_Johns", "E. South America Standard Time": "America/Sao_Paulo",
        "Argentina Standard Time": "America/Buenos_Aires", "Pacific SA Standard Time": "America/Santiago",
        "GMT Standard Time": "Europe/London", "Greenwich Standard Time": "Atlantic/Reykjavik",
        "W. Europe Standard Time": "Europe/Berlin", "Central Europe Standard Time": "Europe/Budapest",
        "Romance Standard Time": "Europe/Paris", "Central European Standard Time": "Europe/Warsaw",
        "E. Europe Standard Time": "Europe/Chisinau", "FLE Standard Time": "Europe/Kiev",
        "GTB Standard Time": "Europe/Bucharest", "Turkey Standard Time": "Europe/Istanbul",
        "Israel Standard Time": "Asia/Jerusalem", "South Africa Standard Time": "Africa/Johannesburg",
        "Russian Standard Time": "Europe/Moscow", "Arabian Standard Time": "Asia/Dubai",
        "India Standard Time": "Asia/Calcutta", "SE Asia Standard Time": "Asia/Bangkok",
        "China Standard Time": "Asia/Shanghai", "Singapore Standard Time": "Asia/Singapore",
        "Taipei Standard Time": "Asia/Taipei", "Tokyo Standard Time": "Asia/Tokyo", "Korea Standard Time": "Asia/Seoul",
        "AUS Eastern Standard Time": "Australia/Sydney", "E. Australia Standard Time": "Australia/Brisbane",
        "Cen. Australia Standard Time": "Australia/Adelaide", "W. Australia Standard Time": "Australia/Perth",
        "New Zealand Standard Time": "Pacific/Auckland", "Morocco Standard Time": "Africa/Casablanca",
        "W. Central Africa Standard Time": "Africa/Lagos", "E. Africa Standard Time": "Africa/Nairobi",
        "Egypt Standard Time": "Africa/Cairo", "UTC": "Etc/UTC",
    ]
}
