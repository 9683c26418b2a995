import Listings
import Testing

struct LocalDateTests {
    @Test func rejectsDatesThatDoNotExist() {
        #expect(LocalDate(iso: "2026-02-30") == nil)
        #expect(LocalDate(iso: "2027-02-29") == nil)
        #expect(LocalDate(iso: "2028-02-29") != nil)
        #expect(LocalDate(iso: "2026-13-01") == nil)
        #expect(LocalDate(iso: "2026-1-01") == nil)
        #expect(LocalDate(iso: "tomorrow") == nil)
    }

    @Test func roundTripsThroughDaysSinceEpoch() {
        for text in ["1970-01-01", "2000-02-29", "2026-11-22", "1969-12-31", "2100-03-01"] {
            let date = LocalDate(iso: text)!
            #expect(LocalDate(daysSinceEpoch: date.daysSinceEpoch) == date)
            #expect(date.description == text)
        }
        #expect(LocalDate(iso: "1970-01-02")!.daysSinceEpoch == 1)
        #expect(LocalDate(iso: "2026-12-31")!.adding(days: 1) == LocalDate(iso: "2027-01-01"))
    }

    @Test func printsZeroPaddedFieldsForEveryYearAndTime() {
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        // Every 97th day from year 1 to past 9999, where the year gets a fifth digit.
        for days in stride(from: -719_162, through: 3_000_000, by: 97) {
            let date = LocalDate(daysSinceEpoch: days)
            #expect(date.description == padded(date.year, 4) + "-" + padded(date.month, 2) + "-" + padded(date.day, 2))
        }
        #expect(LocalDate(year: 7, month: 3, day: 9)!.description == "0007-03-09")
        #expect(LocalTime(hour: 0, minute: 5, second: 9)!.description == "00:05:09")
        #expect(LocalTime(hour: 23, minute: 59, second: 59)!.description == "23:59:59")
        #expect(UTCInstant(secondsSinceEpoch: 0).description == "1970-01-01T00:00:00Z")
        #expect(UTCInstant(secondsSinceEpoch: -1).description == "1969-12-31T23:59:59Z")
        #expect(UTCInstant(secondsSinceEpoch: 253_402_300_800).description == "10000-01-01T00:00:00Z")
    }

    @Test func convertsVenueWallClockToUTC() {
        let date = LocalDate(iso: "2013-07-25")!
        let time = LocalTime(iso: "12:00:00")!
        let instant = UTCInstant(date: date, time: time, utcOffsetSeconds: -6 * 3600)
        #expect(instant.description == "2013-07-25T18:00:00Z")
        // A late show east of Greenwich falls on the previous UTC day.
        let late = UTCInstant(date: LocalDate(iso: "2027-04-17")!, time: LocalTime(iso: "00:30")!, utcOffsetSeconds: 7200)
        #expect(late.description == "2027-04-16T22:30:00Z")
        #expect(UTCInstant(iso: late.description) == late)
    }
}

struct TimeZoneTests {
    func instant(_ date: String, _ time: String, _ zone: String) -> String? {
        UTCInstant(date: LocalDate(iso: date)!, time: LocalTime(iso: time)!, timeZoneIdentifier: zone)?.description
    }

    @Test func convertsWithTheOffsetInForceThatDay() {
        #expect(instant("2027-01-15", "21:00", "Europe/Madrid") == "2027-01-15T20:00:00Z")
        #expect(instant("2027-07-15", "21:00", "Europe/Madrid") == "2027-07-15T19:00:00Z")
        #expect(instant("2027-07-15", "20:00", "America/New_York") == "2027-07-16T00:00:00Z")
        #expect(instant("2027-01-15", "20:00", "Australia/Sydney") == "2027-01-15T09:00:00Z")
        #expect(instant("2027-01-15", "20:00", "Not/AZone") == nil)
    }

    @Test func handlesTheDaylightSavingGapAndOverlap() {
        // Europe/Madrid springs forward at 02:00 on 2027-03-28: 02:30 does not exist.
        #expect(instant("2027-03-28", "02:30", "Europe/Madrid") == "2027-03-28T01:30:00Z")
        #expect(instant("2027-03-28", "03:30", "Europe/Madrid") == "2027-03-28T01:30:00Z")
        // It falls back at 03:00 on 2027-10-31: 02:30 happens twice; the first is chosen.
        #expect(instant("2027-10-31", "02:30", "Europe/Madrid") == "2027-10-31T00:30:00Z")
        #expect(instant("2027-10-31", "03:30", "Europe/Madrid") == "2027-10-31T02:30:00Z")
    }

    @Test func aLateShowKeepsItsVenueLocalDate() {
        // 23:30 in Madrid on the 17th is the 17th there, though already the 18th in Tokyo
        // and 21:30 UTC.
        let late = UTCInstant(date: LocalDate(iso: "2027-04-17")!, time: LocalTime(iso: "23:30")!, timeZoneIdentifier: "Europe/Madrid")!
        #expect(late.description == "2027-04-17T21:30:00Z")
        #expect(late.localDate(in: "Europe/Madrid")?.description == "2027-04-17")
        #expect(late.localDate(in: "Asia/Tokyo")?.description == "2027-04-18")
    }
}
