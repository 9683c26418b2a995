import Foundation
import Listings

/// Dates as fans type them (`--from`, `--to`) and configuration windows are written:
/// `YYYY-MM-DD`, `today`, `tomorrow`, `+Nd` (days from today) or `-Nd`, and a weekday
/// (`friday`, `fri`): the first such day on or after a given day, so a trip's weekend is
/// `--from fri --to sun`.
public enum DateExpression {
    /// - Parameter onOrAfter: where a weekday is counted from (default: `today`); `--to`
    ///   counts from the window's first day.
    public static func resolve(_ text: String, today: LocalDate, onOrAfter: LocalDate? = nil) -> LocalDate? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch trimmed {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        default: break
        }
        if let first = trimmed.first, first == "+" || first == "-", trimmed.hasSuffix("d"),
            let days = Int(trimmed.dropFirst().dropLast()), days <= 36_500
        {
            return today.adding(days: first == "+" ? days : -days)
        }
        if let weekday = weekday(named: trimmed) {
            let start = onOrAfter ?? today
            return start.adding(days: (weekday - start.weekday + 7) % 7)
        }
        return LocalDate(iso: trimmed)
    }

    private static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Monday 0 to Sunday 6, for a weekday's name or its first three letters or more.
    private static func weekday(named name: String) -> Int? {
        guard name.count >= 3 else { return nil }
        return weekdays.firstIndex { $0.hasPrefix(name) }
    }
}

extension LocalDate {
    /// Monday 0 to Sunday 6 (1 January 1970 was a Thursday).
    var weekday: Int {
        ((daysSinceEpoch + 3) % 7 + 7) % 7
    }
}
