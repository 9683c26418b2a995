import ArgumentParser
import Foundation
import Geo

extension Encore {
    struct Metros: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List metro areas with their upcoming-concert counts.")

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Only metro areas near this place, nearest first.", valueName: "place"))
        var near: String?

        // Unconditional: "-5km" is a bad distance to report, not an option.
        @Option(parsing: .unconditional, help: ArgumentHelp("With --near: how far to look.", valueName: "distance"))
        var radius = "200km"

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func validate() throws {
            guard Distance(parsing: radius) != nil else {
                throw ValidationError("--radius must be a positive distance like 200km or 100mi; got \"\(radius)\".")
            }
        }

        func run() throws {
            let catalog = try global.openCatalog()
            let center = try near.map { try Places.resolve($0, in: catalog, today: global.currentDate) }
            let metros = try catalog.metroAreas(
                near: center?.coordinate, radiusKilometres: center == nil ? nil : Distance(parsing: radius)!.kilometres,
                today: global.currentDate)
            if json {
                try Output.json(metros)
                return try NothingMatched.check(metros.isEmpty)
            }
            if metros.isEmpty {
                Output.line("No metro areas" + (center.map { " near \($0.label)" } ?? "") + ".")
                throw ReportedFailure()
            }
            Output.line(Output.table(metros.map { metro in
                var row = ["#\(metro.metroArea.id)", metro.metroArea.name,
                           [metro.metroArea.region, metro.metroArea.country].compactMap { $0 }.joined(separator: ", "),
                           "\(metro.upcomingEvents) upcoming"]
                if let distance = metro.distanceKilometres { row.append(String(format: "%.0f km", distance)) }
                return row
            }))
        }
    }
}
