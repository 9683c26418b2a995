import Foundation
import Listings

/// A `DATE` or `DATE-TIME` value as written: the wall clock, whether it ended in `Z`, and
/// the `TZID` it names.
struct ICalendarTime: Hashable {
    var date: LocalDate
    /// Nil for a `DATE` (all day: the date is known, the time is not).
    var time: LocalTime?
    var isUTC = false
    var tzid: String?

    /// `20260418`, `20260418T190000`, `20260418T190000Z` (also `T1900` and ISO 8601 with
    /// dashes and colons, which some generators write). `VALUE=DATE` makes a date of it.
    init?(_ written: String, parameters: [String: String] = [:]) {
        var text = written.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "-", with: "")
            .replacingOccurrences(of: ":", with: "")
        if text.hasSuffix("Z") || text.hasSuffix("z") {
            isUTC = true
            text.removeLast()
        }
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts[0].count == 8, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }),
            let year = Int(parts[0].prefix(4)), let month = Int(parts[0].dropFirst(4).prefix(2)),
            let day = Int(parts[0].suffix(2)), let date = LocalDate(year: year, month: month, day: day)
        else { return nil }
        self.date = date
        if parts.count == 2 {
            var clock = parts[1]
            if let dot = clock.firstIndex(of: ".") { clock = clock[..<dot] }
            guard clock.count == 4 || clock.count == 6, clock.allSatisfy({ $0.isASCII && $0.isNumber }),
                let hour = Int(clock.prefix(2)), let minute = Int(clock.dropFirst(2).prefix(2)),
                let time = LocalTime(hour: hour, minute: minute, second: clock.count == 6 ? Int(clock.suffix(2))! : 0)
            else { return nil }
            self.time = parameters["VALUE"]?.uppercased() == "DATE" ? nil : time
        } else {
            isUTC = false
        }
        if !isUTC, let tzid = parameters["TZID"], !tzid.isEmpty { self.tzid = tzid }
    }

    init(date: LocalDate, time: LocalTime?, isUTC: Bool, tzid: String?) {
        self.date = date
        self.time = time
        self.isUTC = isUTC
        self.tzid = tzid
    }

    /// The same wall clock on another day (an occurrence of a rule).
    func on(_ day: LocalDate) -> ICalendarTime {
        ICalendarTime(date: day, time: time, isUTC: isUTC, tzid: tzid)
    }

    /// `20260521T170000` (`Z` when UTC), or `20260521`: how an occurrence is named in a
    /// source id, as `RECURRENCE-ID` names it.
    var key: String {
        let day = String(format: "%04d%02d%02d", date.year, date.month, date.day)
        guard let time else { return day }
        return day + String(format: "T%02d%02d%02d", time.hour, time.minute, time.second) + (isUTC ? "Z" : "")
    }

    /// Where this value falls, as Encore stores a start: the venue's date and time, its
    /// zone, and the instant when known.
    ///
    /// - A `TZID` naming an IANA zone (or a `VTIMEZONE` mapped to one): that zone's clock,
    ///   kept whatever the venue's place says (Lord Howe Island is not Sydney).
    /// - UTC (`Z`, or a `TZID` that is UTC or GMT): the instant, on the default zone's
    ///   clock when the calendar has one.
    /// - Floating times on the calendar's default zone, and UTC times: the instant is
    ///   known, and the calendar's zone is its author's, not necessarily the venue's: the
    ///   zone of the venue's address wins once known (``EventStart/awaitsVenueZone``).
    /// - Floating, or a `TZID` nobody knows: the venue's clock, as written; the default
    ///   zone when the calendar has one, else the venue's (geo enrichment).
    func start(in zones: ICalendarZones) -> EventStart {
        let statesZone = tzid.map { zones.zone(named: $0) != nil } ?? false
        let zone: ICalendarZones.Zone?
        if isUTC {
            zone = .utc
        } else if let tzid {
            zone = zones.zone(named: tzid) ?? zones.defaultZone
        } else {
            zone = zones.defaultZone
        }
        var fallback: String?
        if case .iana(let name) = zones.defaultZone { fallback = name }
        guard let time else {
            if case .iana(let name) = zone { return EventStart(localDate: date, timeZone: name) }
            return EventStart(localDate: date, timeZone: fallback)
        }
        switch zone {
        case .iana(let name):
            var start = EventStart(localDate: date, localTime: time, zone: name)
            // A TZID the entry states is the venue's clock; the calendar's default zone
            // gives way to the zone of the venue's address.
            start.awaitsVenueZone = start.utc != nil && !statesZone
            return start
        case .utc:
            let instant = UTCInstant(date: date, time: time, utcOffsetSeconds: 0)
            var start = EventStart(localDate: date, localTime: time, utc: instant)
            if let fallback, let local = UTCInstant.wallClock(of: instant, in: fallback) {
                start = EventStart(localDate: local.date, localTime: local.time, timeZone: fallback, utc: instant)
            }
            start.awaitsVenueZone = true
            return start
        case .offsets(let standard, let daylight, let months):
            let offset = months.contains(date.month) ? (daylight ?? standard) : standard
            var start = EventStart(
                localDate: date, localTime: time, timeZone: fallback,
                utc: UTCInstant(date: date, time: time, utcOffsetSeconds: offset))
            start.awaitsVenueZone = true
            return start
        case nil:
            return EventStart(localDate: date, localTime: time, timeZone: fallback)
        }
    }
}

/// `DURATION` (`PT4H`, `P1D`, `P1W`, `-PT15M`): seconds, or nil when malformed.
enum ICalendarDuration {
    static func seconds(_ text: String) -> Int? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces).uppercased())
        var sign = 1
        if rest.first == "+" || rest.first == "-" {
            if rest.first == "-" { sign = -1 }
            rest = rest.dropFirst()
        }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0
        var number = ""
        var inTime = false
        var any = false
        for character in rest {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            if character == "T" {
                inTime = true
                continue
            }
            guard let value = Int(number), number.count <= 9 else { return nil }
            number = ""
            any = true
            switch (character, inTime) {
            case ("W", false): total += value * 604_800
            case ("D", false): total += value * 86_400
            case ("H", true): total += value * 3600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil
            }
        }
        return any && number.isEmpty ? sign * total : nil
    }
}
