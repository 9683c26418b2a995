import ArgumentParser

extension Encore {
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Count what the catalog holds.")

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func run() throws {
            let stats = try global.openCatalog().stats(today: global.currentDate)
            if json { return try Output.json(stats) }
            var rows = [
                ["events", String(stats.events)],
                ["  upcoming", String(stats.upcomingEvents)],
                ["  cancelled", String(stats.cancelledEvents)],
                ["artists", String(stats.artists)],
                ["venues", String(stats.venues)],
                ["metro areas", String(stats.metroAreas)],
                ["source records", String(stats.sourceRecords)],
            ]
            for (source, count) in stats.sources.sorted(by: { $0.key < $1.key }) {
                rows.append(["  from \(source)", String(count)])
            }
            Output.line(Output.table(rows))
        }
    }
}
