import ArgumentParser
import Foundation
import Listings

extension Encore {
    struct City: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every concert in a destination's metro area, day by day.",
            discussion: """
                For trips: `encore city Madrid --from 2027-04-15 --to 2027-04-17`. The metro areas \
                of a place are those linked to its city, or centred within 30 km of it.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var visibility: VisibilityOptions

        @Argument(help: ArgumentHelp(
            "A city (\"Madrid\", \"Columbus, OH\"), LAT,LNG, or a metro area's #ID as `search` prints it.", valueName: "place"))
        var place: String

        @OptionGroup var window: DateWindowOptions<QueryWindowLength>

        @OptionGroup var page: PageOptions

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        /// How far a metro area's centre may be from the place and still be its metro.
        static let metroRadiusKilometres = 30.0

        func run() throws {
            let dates = try window.window(today: global.currentDate)
            let catalog = try visibility.apply(to: global.openCatalog())
            let label: String
            let metros: [Int64]
            if let id = Output.catalogID(place) {
                // A metro area's id, as `search` and `metros` print it.
                guard let metro = try catalog.metroArea(id: id) else {
                    throw NotInCatalog("no metro area \(place) in the catalog; see `encore metros` or `encore search NAME`")
                }
                label = [metro.name, metro.region, metro.country].compactMap { $0 }.joined(separator: ", ")
                metros = [id]
            } else {
                let resolved = try Places.resolve(place, in: catalog, today: global.currentDate)
                label = resolved.label
                metros = try catalog.metroAreaIDs(
                    geonameID: resolved.city?.geonameID, center: resolved.coordinate, radiusKilometres: Self.metroRadiusKilometres)
            }
            let events = try catalog.events(inMetroAreas: metros, window: dates, limit: page.limit, offset: page.offset)
            if json {
                try Output.json(events)
                return try NothingMatched.check(events.isEmpty)
            }
            let count = try page.count(shown: events.count) { try catalog.eventCount(inMetroAreas: metros, window: dates) }
            Output.line("\(label), \(dates.from) to \(dates.to): \(count)")
            if metros.isEmpty {
                Output.line("No metro area in the catalog near \(label); try `encore near \"\(place)\"` or `encore metros`.")
            } else if events.isEmpty {
                NothingMatched.notePast(dates, today: global.currentDate)
            }
            var day: LocalDate?
            var rows: [[String]] = []
            for event in events {
                // A festival that began before the trip is listed on its first day.
                let shown = max(event.start.localDate, dates.from)
                if shown != day {
                    if !rows.isEmpty { Output.line(Output.table(rows)) }
                    rows = []
                    day = shown
                    Output.line()
                    Output.line(Self.heading(for: shown))
                }
                var row = Array(Output.eventRow(event).dropFirst(2)) + ["#\(event.id)"]
                if let note = Self.dayOf(event, on: shown) { row[2] += " (\(note))" }
                rows.append(row)
            }
            if !rows.isEmpty { Output.line(Output.table(rows)) }
            try NothingMatched.check(events.isEmpty)
        }

        /// "day 2 of 3" for an event of several days shown on a day after its first.
        static func dayOf(_ event: EventDetail, on date: LocalDate) -> String? {
            let start = event.start.localDate
            guard date > start, let end = event.endDate, end > start else { return nil }
            return "day \(date.daysSinceEpoch - start.daysSinceEpoch + 1) of \(end.daysSinceEpoch - start.daysSinceEpoch + 1)"
        }

        /// "Thursday 15 April 2027", in English whatever the locale, for stable output.
        static func heading(for date: LocalDate) -> String {
            let weekdays = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
            let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                          "October", "November", "December"]
            let weekday = weekdays[((date.daysSinceEpoch % 7) + 7) % 7]
            return "\(weekday) \(date.day) \(months[date.month - 1]) \(date.year)"
        }
    }
}
