import Foundation

extension UTCInstant {
    /// The instant at which wall clocks in `timeZoneIdentifier` (IANA) show `date` `time`.
    ///
    /// In a daylight-saving gap (02:30 on a spring-forward night does not exist) the
    /// offset from before the change is used, as calendars do; in an overlap (01:30
    /// happens twice in the autumn) the first occurrence is chosen. Nil for an unknown zone.
    public init?(date: LocalDate, time: LocalTime, timeZoneIdentifier: String) {
        guard let zone = TimeZone(identifier: timeZoneIdentifier) else { return nil }
        let wallClock = Int64(date.daysSinceEpoch) * 86_400 + Int64(time.secondsSinceMidnight)
        func offset(at seconds: Int64) -> Int64 {
            Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
        }
        // Offsets in force a day either side of the wall-clock time; try the earlier one first.
        let before = offset(at: wallClock - 86_400)
        let after = offset(at: wallClock + 86_400)
        for candidate in [before, after] where offset(at: wallClock - candidate) == candidate {
            self.init(secondsSinceEpoch: wallClock - candidate)
            return
        }
        // A gap: no instant shows this time; use the offset from before the change.
        self.init(secondsSinceEpoch: wallClock - before)
    }

    /// The venue-local date of this instant in `timeZoneIdentifier`.
    public func localDate(in timeZoneIdentifier: String) -> LocalDate? {
        guard let zone = TimeZone(identifier: timeZoneIdentifier) else { return nil }
        let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(secondsSinceEpoch))))
        return UTCInstant(secondsSinceEpoch: secondsSinceEpoch + offset).date
    }

    /// The wall clock of `timeZoneIdentifier` (IANA) at this instant.
    public static func wallClock(of instant: UTCInstant, in timeZoneIdentifier: String) -> (date: LocalDate, time: LocalTime)? {
        guard let zone = TimeZone(identifier: timeZoneIdentifier) else { return nil }
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.secondsSinceEpoch)))
        let local = instant.secondsSinceEpoch + Int64(offset)
        let seconds = Int(((local % 86_400) + 86_400) % 86_400)
        guard let time = LocalTime(hour: seconds / 3600, minute: seconds / 60 % 60, second: seconds % 60) else { return nil }
        return (UTCInstant(secondsSinceEpoch: local).date, time)
    }
}
