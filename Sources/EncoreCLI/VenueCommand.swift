import ArgumentParser
import Listings

extension Encore {
    struct VenueCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "venue",
            abstract: "Show a venue's page: address, coordinates, metro area and upcoming concerts.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var visibility: VisibilityOptions

        @Argument(help: "The venue's name (or the start of it), or #ID as `search` prints it.")
        var name: String

        @Option(name: .customLong("in"), help: ArgumentHelp("Prefer the venue nearest this place.", valueName: "place"))
        var place: String?

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            let catalog = try visibility.apply(to: global.openCatalog())
            let center = try place.map { try Places.resolve($0, in: catalog, today: global.currentDate) }
            let requested = Output.catalogID(name)
            let matches = requested == nil ? try catalog.venues(named: name, near: center?.coordinate) : []
            guard let id = requested ?? matches.first?.id, let page = try catalog.venuePage(id: id, today: global.currentDate)
            else {
                Output.error(
                    requested != nil
                        ? "No venue \(name) in the catalog. Try `encore search NAME`."
                        : "No venue named \"\(name)\" in the catalog. Try `encore search \(name)`.")
                throw ReportedFailure()
            }
            if json { return try Output.json(page) }
            Output.line(page.venue.name)
            var rows: [[String]] = []
            let address = [page.venue.street, page.venue.postalCode, page.venue.city, page.venue.region, page.venue.country]
                .compactMap { $0 }
            if !address.isEmpty { rows.append(["Address", address.joined(separator: ", ")]) }
            if let coordinate = page.venue.coordinate {
                rows.append(["Coordinates", coordinate.description + (page.venue.coordinatesApproximate ? " (approximate)" : "")])
            }
            if let zone = page.venue.timeZone { rows.append(["Time zone", zone]) }
            if let metro = page.metroArea { rows.append(["Metro area", metro.name]) }
            Output.line(Output.table(rows))
            if matches.count > 1 {
                Output.line(
                    "Also matching (`encore venue #ID`): "
                        + matches.dropFirst().prefix(5).map { "\($0.name) (\($0.city ?? "?")) #\($0.id)" }.joined(separator: ", "))
            }
            Output.line()
            Output.line(page.events.isEmpty ? "Upcoming events: none." : "Upcoming events (\(page.events.count)):")
            if !page.events.isEmpty { Output.line(Output.table(page.events.map(Output.eventRow))) }
        }
    }
}
