import Foundation
import Geo

extension EventStart {
    /// A start on the wall clock of an IANA zone, with its instant.
    ///
    /// Times a clock change skips or repeats follow RFC 5545 (3.3.5): 02:30 on a
    /// spring-forward night is read with the offset before the change, so it lands an hour
    /// (the gap's length) later on the clock, at 03:30; 01:30 on an autumn night is its
    /// first occurrence. An unknown zone gives the wall clock alone.
    public init(localDate: LocalDate, localTime: LocalTime, zone: String) {
        self.init(localDate: localDate, localTime: localTime, timeZone: zone)
        guard let instant = UTCInstant(date: localDate, time: localTime, timeZoneIdentifier: zone) else { return }
        utc = instant
        if let clock = UTCInstant.wallClock(of: instant, in: zone) {
            self.localDate = clock.date
            self.localTime = clock.time
        }
    }

    /// Whether `zone`'s clocks change within a day of `date` (a skipped or repeated hour is
    /// possible), remembered: most days have none, and checking needs the zone's rules.
    public static func clockChanges(near date: LocalDate, in zone: String) -> Bool {
        changeDays.value(for: zone + " " + date.description) {
            guard let timeZone = TimeZone(identifier: zone) else { return false }
            let midnight = TimeInterval(date.daysSinceEpoch) * 86_400
            return timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: midnight - 86_400))
                != timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: midnight + 2 * 86_400))
        }
    }

    private static let changeDays = MemoCache<String, Bool>()

    /// A start known by its instant, on the wall clock of `zone`.
    public init?(instant: UTCInstant, zone: String) {
        guard let clock = UTCInstant.wallClock(of: instant, in: zone) else { return nil }
        self.init(localDate: clock.date, localTime: clock.time, timeZone: zone, utc: instant)
    }
}
