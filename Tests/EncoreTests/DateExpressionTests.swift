import Ingest
import Listings
import Testing

/// Dates as fans type them for `--from` and `--to`.
struct DateExpressionTests {
    /// A Sunday.
    let today = LocalDate(iso: "2026-11-22")!

    @Test(arguments: [
        ("today", "2026-11-22"),
        ("Tomorrow", "2026-11-23"),
        ("+30d", "2026-12-22"),
        ("-2d", "2026-11-20"),
        ("2027-04-15", "2027-04-15"),
        // The next such day, today included.
        ("fri", "2026-11-27"),
        ("Friday", "2026-11-27"),
        ("sunday", "2026-11-22"),
        ("mon", "2026-11-23"),
        ("thurs", "2026-11-26"),
    ])
    func resolvesWhatFansType(text: String, date: String) {
        #expect(DateExpression.resolve(text, today: today)?.description == date)
    }

    @Test func aWeekdayCountsFromTheDayItFollows() {
        // `--from fri --to sun`: the Sunday after that Friday, not today.
        let friday = DateExpression.resolve("fri", today: today)!
        #expect(DateExpression.resolve("sun", today: today, onOrAfter: friday)?.description == "2026-11-29")
        #expect(DateExpression.resolve("fri", today: today, onOrAfter: friday) == friday)
        // Across a month and a year.
        let newYearsEve = LocalDate(iso: "2026-12-31")!
        #expect(DateExpression.resolve("mon", today: today, onOrAfter: newYearsEve)?.description == "2027-01-04")
    }

    @Test(arguments: ["", "fr", "someday", "march", "2026-02-30", "+d", "+40000d"])
    func refusesWhatItCannotRead(text: String) {
        #expect(DateExpression.resolve(text, today: today) == nil)
    }
}
