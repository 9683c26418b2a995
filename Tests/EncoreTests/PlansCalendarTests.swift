import Foundation
import Testing

/// Plans as a fan sees them: reminders where they make sense, and a word when a plan
/// cannot happen.
@Suite(.serialized)
struct PlansCalendarTests {
    let scratch: CLIScratch

    init() throws {
        scratch = try CLIScratch(ingesting: "places")
    }

    func encore(_ arguments: String...) throws -> CLIRun {
        try scratch.encore(arguments)
    }

    /// The catalog id of the Valencia show with this title.
    func id(of title: String) throws -> Int {
        let events = try #require(try encore("artist", title, "--all", "--past", "--json").json() as? [String: Any])
        let upcoming = try #require(try encore("artist", title, "--json").json() as? [String: Any])
        let all = (events["events"] as? [[String: Any]] ?? []) + (upcoming["events"] as? [[String: Any]] ?? [])
        return try #require(all.first { $0["title"] as? String == title }?["id"] as? Int)
    }

    /// VEVENT blocks of a calendar, by summary.
    func events(_ calendar: String) -> [String: String] {
        var blocks: [String: String] = [:]
        for block in calendar.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "BEGIN:VEVENT").dropFirst() {
            let summary = block.components(separatedBy: "\r\n").first { $0.hasPrefix("SUMMARY:") }?.dropFirst(8) ?? ""
            blocks[String(summary)] = block
        }
        return blocks
    }

    @Test func remindersGoOnlyOnTimedShowsThatStillHappen() throws {
        for title in ["Marea Alta", "Luz de Gas", "Ola Fría"] { #expect(try encore("going", String(try id(of: title))).status == 0) }
        let calendar = try encore("plans", "--ics", "--remind", "3h")
        #expect(calendar.status == 0)
        let blocks = events(calendar.stdout)
        #expect(blocks.count == 3)
        #expect(blocks["Marea Alta"]?.contains("TRIGGER:-PT180M") == true)
        // No announced time: an all-day entry, which a reminder would ring the evening before.
        #expect(blocks["Luz de Gas"]?.contains("DTSTART;VALUE=DATE:20270205") == true)
        #expect(blocks["Luz de Gas"]?.contains("VALARM") == false)
        // Cancelled: kept, marked, silent.
        #expect(blocks["Ola Fría"]?.contains("STATUS:CANCELLED") == true)
        #expect(blocks["Ola Fría"]?.contains("VALARM") == false)
    }

    @Test func goingToACancelledOrPastShowWarnsAndSaysSo() throws {
        let cancelled = try id(of: "Ola Fría")
        let run = try encore("going", String(cancelled))
        #expect(run.status == 0)
        #expect(run.stdout.contains("Going: Ola Fría"))
        #expect(run.stderr.contains("warning: #\(cancelled) was cancelled; it is in your plans anyway (`encore not-going \(cancelled)` removes it)."))
        let past = try id(of: "Eco")
        let old = try encore("going", String(past), "--user", "bob")
        #expect(old.stderr.contains("warning: #\(past) was on 2026-10-01, in the past"))
        #expect(old.stderr.contains("`encore not-going \(past) --user bob`"))
        // A show that still happens goes in without a word.
        #expect(try encore("going", String(try id(of: "Marea Alta"))).stderr.isEmpty)
    }
}
