import ArgumentParser

extension Encore {
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search artists, venues and metro areas by name, and venues by street or postal code (the last word may be a prefix).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "Words to look for, e.g. \"sala apo\".")
        var text: String

        @Option(parsing: .unconditional, help: "At most this many results.")
        var limit = 20

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func validate() throws {
            if limit < 1 { throw ValidationError("--limit must be at least 1; got \(limit).") }
        }

        func run() throws {
            let hits = try global.openCatalog().search(text, today: global.currentDate, limit: limit)
            if json {
                try Output.json(hits)
                return try NothingMatched.check(hits.isEmpty)
            }
            if hits.isEmpty {
                Output.line("Nothing matches \"\(text)\".")
                throw ReportedFailure()
            }
            Output.line(Output.table(hits.map { hit in
                [hit.kind.rawValue.replacingOccurrences(of: "_", with: " "), "#\(hit.id)", hit.name, hit.place ?? "",
                 "\(hit.upcomingEvents) upcoming"]
            }))
        }
    }
}
