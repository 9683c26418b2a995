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
