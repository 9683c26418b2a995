import Foundation
import Listings

/// An `RRULE` (RFC 5545 §3.3.10) expanded into dates: `FREQ` `DAILY`, `WEEKLY`, `MONTHLY`
/// or `YEARLY` with `INTERVAL`, `COUNT`, `UNTIL`, `BYDAY` (with ordinals: `2TU`, `-1SU`),
/// `BYMONTHDAY`, `BYMONTH` and `BYSETPOS`. Rules by hour, minute or second, or by week
/// number or year day, are not read: such an event keeps its first date only.
struct ICalendarRecurrence {
    enum Frequency: String { case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY" }

    var frequency: Frequency
    var interval = 1
    var count: Int?
    var until: ICalendarTime?
    /// Weekday (Monday 0 … Sunday 6) and ordinal (0: every one).
    var byDay: [(weekday: Int, ordinal: Int)] = []
    var byMonthDay: [Int] = []
    var byMonth: [Int] = []
    var bySetPosition: [Int] = []
    /// Monday 0 … Sunday 6.
    var weekStart = 0

    /// How many periods (days, weeks, months, years) to walk at most: a rule whose
    /// filters match nothing must end too.
    static let maximumPeriods = 50_000

    /// Nil for a rule Encore does not expand (unknown frequency, `BYHOUR`, …).
    init?(_ text: String) {
        var frequency: Frequency?
        for part in text.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let value = String(pair[1]).trimmingCharacters(in: .whitespaces).uppercased()
            switch pair[0].trimmingCharacters(in: .whitespaces).uppercased() {
            case "FREQ": frequency = Frequency(rawValue: value)
            case "INTERVAL": interval = min(max(1, Int(value) ?? 1), 10_000)
            case "COUNT": count = Int(value).map { max(0, $0) }
            case "UNTIL": until = ICalendarTime(value)
            case "BYDAY":
                for item in value.split(separator: ",") {
                    guard item.count >= 2, let weekday = Self.weekdays.firstIndex(of: String(item.suffix(2))) else { return nil }
                    let ordinal = item.dropLast(2).isEmpty ? 0 : Int(item.dropLast(2))
                    guard let ordinal else { return nil }
                    byDay.append((weekday, ordinal))
                }
            case "BYMONTHDAY": byMonthDay = value.split(separator: ",").compactMap { Int($0) }.filter { $0 != 0 && abs($0) <= 31 }
            case "BYMONTH": byMonth = value.split(separator: ",").compactMap { Int($0) }.filter { (1...12).contains($0) }
            case "BYSETPOS": bySetPosition = value.split(separator: ",").compactMap { Int($0) }
            case "WKST": weekStart = Self.weekdays.firstIndex(of: value) ?? 0
            case "BYHOUR", "BYMINUTE", "BYSECOND", "BYWEEKNO", "BYYEARDAY": return nil
            default: break
            }
        }
        guard let frequency else { return nil }
        self.frequency = frequency
    }

    static let weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// The rule's dates from `first` on, in order, until `COUNT` or `UNTIL` ends it, the
    /// date passes `last`, or `body` returns false. `first` is always the first date.
    func dates(from first: LocalDate, through last: LocalDate?, _ body: (LocalDate) -> Bool) {
        var produced = 0
        func emit(_ day: LocalDate) -> Bool {
            if let count, produced >= count { return false }
            if let until, day > until.date { return false }
            if let last, day > last { return false }
            produced += 1
            return body(day)
        }
        guard emit(first) else { return }
        for period in 0..<Self.maximumPeriods {
            // Dates a millennium on are no listing's, whatever the rule says.
            guard let start = periodFirstDay(period, first: first), start.year <= first.year + 1000 else { return }
            var candidates = self.candidates(period: period, first: first)
            if !bySetPosition.isEmpty {
                let all = candidates
                candidates = bySetPosition.compactMap { position in
                    let index = position > 0 ? position - 1 : all.count + position
                    return all.indices.contains(index) ? all[index] : nil
                }.sorted()
            }
            for day in candidates where day > first {
                guard emit(day) else { return }
            }
            if let periodStart = candidates.first ?? periodFirstDay(period, first: first),
                let last, periodStart > last
            {
                return
            }
        }
    }

    private func periodFirstDay(_ period: Int, first: LocalDate) -> LocalDate? {
        switch frequency {
        case .daily: return first.adding(days: period * interval)
        case .weekly: return first.adding(days: period * interval * 7 - (first.weekday - weekStart + 7) % 7)
        case .monthly: return Self.month(of: first, plus: period * interval)
        case .yearly: return LocalDate(year: first.year + period * interval, month: 1, day: 1)
        }
    }

    private func candidates(period: Int, first: LocalDate) -> [LocalDate] {
        switch frequency {
        case .daily:
            let day = first.adding(days: period * interval)
            return matchesFilters(day) ? [day] : []
        case .weekly:
            let weekStartDay = first.adding(days: period * interval * 7 - (first.weekday - weekStart + 7) % 7)
            let wanted = byDay.isEmpty ? [first.weekday] : byDay.map(\.weekday)
            return (0..<7).map { weekStartDay.adding(days: $0) }
                .filter { wanted.contains($0.weekday) && (byMonth.isEmpty || byMonth.contains($0.month)) }
        case .monthly:
            guard let month = Self.month(of: first, plus: period * interval),
                byMonth.isEmpty || byMonth.contains(month.month)
            else { return [] }
            return daysInMonth(month, defaultDay: first.day)
        case .yearly:
            let year = first.year + period * interval
            let months = byMonth.isEmpty ? [first.month] : byMonth.sorted()
            return months.flatMap { month -> [LocalDate] in
                guard let start = LocalDate(year: year, month: month, day: 1) else { return [] }
                if byDay.isEmpty, byMonthDay.isEmpty {
                    return LocalDate(year: year, month: month, day: first.day).map { [$0] } ?? []
                }
                return daysInMonth(start, defaultDay: first.day)
            }
        }
    }

    private func matchesFilters(_ day: LocalDate) -> Bool {
        if !byMonth.isEmpty, !byMonth.contains(day.month) { return false }
        if !byDay.isEmpty, !byDay.contains(where: { $0.weekday == day.weekday }) { return false }
        if !byMonthDay.isEmpty {
            let length = Self.length(ofMonth: day)
            if !byMonthDay.contains(where: { $0 == day.day || $0 == day.day - length - 1 }) { return false }
        }
        return true
    }

    /// The days of the month of `monthStart` that `BYDAY`/`BYMONTHDAY` pick (both: days
    /// that both pick), else `defaultDay` when the month has it.
    private func daysInMonth(_ monthStart: LocalDate, defaultDay: Int) -> [LocalDate] {
        let length = Self.length(ofMonth: monthStart)
        let first = LocalDate(year: monthStart.year, month: monthStart.month, day: 1)!
        let all = (0..<length).map { first.adding(days: $0) }
        if byDay.isEmpty, byMonthDay.isEmpty {
            return defaultDay <= length ? [first.adding(days: defaultDay - 1)] : []
        }
        return all.filter { day in
            let dayMatches = byDay.isEmpty || byDay.contains { rule in
                guard rule.weekday == day.weekday else { return false }
                if rule.ordinal == 0 { return true }
                let same = all.filter { $0.weekday == rule.weekday }
                let index = rule.ordinal > 0 ? rule.ordinal - 1 : same.count + rule.ordinal
                return same.indices.contains(index) && same[index] == day
            }
            let monthDayMatches = byMonthDay.isEmpty || byMonthDay.contains { $0 == day.day || $0 == day.day - length - 1 }
            return dayMatches && monthDayMatches
        }
    }

    static func month(of day: LocalDate, plus months: Int) -> LocalDate? {
        let index = day.year * 12 + (day.month - 1) + months
        return LocalDate(year: index / 12, month: index % 12 + 1, day: 1)
    }

    static func length(ofMonth day: LocalDate) -> Int {
        guard let next = month(of: day, plus: 1), let first = LocalDate(year: day.year, month: day.month, day: 1) else { return 30 }
        return next.daysSinceEpoch - first.daysSinceEpoch
    }
}
