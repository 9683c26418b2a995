import ArgumentParser
import Catalog
import Feeds
import Foundation
import Listings

extension FeedOrder: ExpressibleByArgument {}

extension Encore {
    struct Going: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark a concert as one you are going to.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fan: FanOptions

        @Argument(help: "The event's catalog id.")
        var id: Int64

        func run() throws {
            let catalog = try global.openOrCreateCatalog()
            do {
                let added = try catalog.addPlan(user: fan.name, eventID: id)
                let event = try catalog.event(id: id)
                let title = event?.title ?? "#\(id)"
                Output.line(added ? "Going: \(title)" : "Already going: \(title)")
                if let event, let warning = Self.warning(for: event, today: global.currentDate) {
                    Output.error("warning: \(warning); it is in your plans anyway (`\(fan.command("encore not-going \(id)"))` removes it).")
                }
            } catch let error as CatalogError {
                Output.error("error: \(error.description)")
                throw ReportedFailure()
            }
        }

        /// Why a plan is unlikely to be what the fan meant: the show was cancelled, or is over.
        static func warning(for event: EventDetail, today: LocalDate) -> String? {
            if event.status == .cancelled { return "#\(event.id) was cancelled" }
            let last = event.endDate ?? event.start.localDate
            if last < today { return "#\(event.id) was on \(last), in the past" }
            return nil
        }
    }

    struct NotGoing: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "not-going", abstract: "Remove a concert from your plans.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fan: FanOptions

        @Argument(help: "The event's catalog id.")
        var id: Int64

        func run() throws {
            guard try global.openCatalog().removePlan(user: fan.name, eventID: id) else {
                Output.error("#\(id) is not in \(fan.name)'s plans; see `\(fan.command("encore plans"))`.")
                throw ReportedFailure()
            }
            Output.line("Removed #\(id) from \(fan.name)'s plans.")
        }
    }

    struct Plans: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the concerts you are going to, soonest first.",
            discussion: """
                Plans on the same evening are flagged, and so are concerts that were cancelled, \
                postponed or moved since you planned them. `--ics` prints an iCalendar file to import \
                into a calendar app.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fan: FanOptions

        @Flag(help: "Show past plans instead, most recent first.")
        var past = false

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        @Flag(help: "Print an iCalendar (RFC 5545) file of the plans.")
        var ics = false

        @Option(help: ArgumentHelp(
            "With --ics: a reminder before each concert, e.g. 3h, 90m, 1d (none for cancelled shows, nor for shows with no announced time).",
            valueName: "time"))
        var remind: String?

        func validate() throws {
            if json && ics { throw ValidationError("Choose one of --json and --ics.") }
            if let remind {
                guard ics else { throw ValidationError("--remind goes with --ics.") }
                guard ICalendar.parseReminder(remind) != nil else {
                    throw ValidationError("--remind must be a duration like 3h, 90m or 1d; got \"\(remind)\".")
                }
            }
        }

        func run() throws {
            let catalog = try global.openCatalog()
            let plans = try catalog.plans(user: fan.name, past: past, today: global.currentDate)
            if json { return try Output.json(plans) }
            if ics {
                let stamp = UTCInstant(date: global.currentDate, time: LocalTime(hour: 0, minute: 0)!, utcOffsetSeconds: 0)
                let calendar = ICalendar.calendar(
                    name: "\(fan.name)'s concerts", events: plans.map(\.event), stamp: stamp,
                    reminderMinutes: remind.flatMap(ICalendar.parseReminder))
                FileHandle.standardOutput.write(Data(calendar.utf8))
                return
            }
            if plans.isEmpty {
                return Output.line(past ? "No past plans." : "No plans yet; mark one with `\(fan.command("encore going EVENT_ID"))`.")
            }
            Output.line(Output.table(plans.map { plan in
                var notes: [String] = []
                if let alert = plan.alert { notes.append(alert.uppercased()) }
                if !plan.conflicts.isEmpty { notes.append("same evening as " + plan.conflicts.map { "#\($0)" }.joined(separator: ", ")) }
                return Output.eventRow(plan.event) + [notes.joined(separator: "; ")]
            }))
        }
    }

    struct Feed: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show your home feed: upcoming concerts within your radius, new ones marked.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fan: FanOptions
        @OptionGroup var window: DateWindowOptions<FeedWindowLength>

        @Option(help: "Order: score (ranked, the default), date, or distance.")
        var sort: FeedOrder = .score

        @Flag(help: "Show each concert's score and its parts (ranked order).")
        var explain = false

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func validate() throws {
            if explain, sort != .score { throw ValidationError("--explain shows the ranked order's score; drop --sort \(sort.rawValue).") }
        }

        func run() throws {
            let catalog = try global.openCatalog()
            let entries: [FeedEntry]
            do {
                entries = try catalog.feed(
                    user: fan.name, window: try window.window(today: global.currentDate), markSeen: true, order: sort)
            } catch CatalogError.noHome(let user) {
                throw UsageError(
                    "\(user) has no home set; run `\(fan.command("encore settings --home PLACE"))` (or track a city)")
            }
            if json {
                try Output.json(entries)
                return try NothingMatched.check(entries.isEmpty)
            }
            let settings = try catalog.settings(user: fan.name)
            // Home and each tracked city: the distances are to the nearest of them.
            let centres = (settings.homeLatitude == nil ? [] : [settings.homeLabel ?? "home"])
                + (try catalog.tracked(user: fan.name).filter { $0.kind == .city }.map(\.name))
            Output.line(
                "\(entries.count) concert\(entries.count == 1 ? "" : "s") within \(Int(settings.radiusKilometres)) km of "
                    + centres.joined(separator: " or ")
                    + " (\(settings.feedMode.rawValue)); \(entries.filter(\.isNew).count) new")
            guard !entries.isEmpty else { throw ReportedFailure() }
            Output.line(Output.table(entries.map { entry in
                [entry.isNew ? "NEW" : ""] + Output.eventRow(entry.event) + [String(format: "%.1f km", entry.distanceKilometres)]
                    + (explain ? [entry.score.map(Self.explanation) ?? ""] : [])
            }))
        }

        /// "6.10 = follow 3 + listening 1.20 + …  (you follow Mavi Vapur)": the parts, as
        /// docs/discovery.md defines them.
        static func explanation(_ score: FeedScore) -> String {
            let parts = [
                ("follow", score.follow), ("listening", score.listening), ("similar", score.similarity),
                ("near", score.distance), ("soon", score.soon), ("popular", score.popularity),
            ].filter { $0.1 > 0 }.map { "\($0.0) \(String(format: "%.2f", $0.1))" }
            return String(format: "%.2f", score.total) + " = " + (parts.isEmpty ? "0" : parts.joined(separator: " + "))
                + (score.because.map { "  (\($0))" } ?? "")
        }
    }
}
