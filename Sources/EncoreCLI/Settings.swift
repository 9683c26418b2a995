import ArgumentParser
import Geo
import Listings

extension FeedMode: ExpressibleByArgument {}

extension Encore {
    struct Settings: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or change a fan's home, maximum distance and what her feed shows.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fan: FanOptions

        @Option(help: ArgumentHelp("Where she lives: a city or LAT,LNG.", valueName: "place"))
        var home: String?

        // Unconditional: "-5km" is a bad distance to report, not an option.
        @Option(parsing: .unconditional, help: ArgumentHelp("Maximum distance for her feed: 40km, 25mi.", valueName: "distance"))
        var radius: String?

        @Option(help: "What her feed shows: all, tracked or tracked-artists.")
        var feed: FeedMode?

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func validate() throws {
            if let radius, Distance(parsing: radius) == nil {
                throw ValidationError("--radius must be a positive distance like 40km or 25mi; got \"\(radius)\".")
            }
        }

        func run() throws {
            let catalog = try global.openOrCreateCatalog()
            let place = try home.map { try Places.resolve($0, in: catalog, today: global.currentDate) }
            let settings = try catalog.updateSettings(
                user: fan.name, home: place.map { ($0.label, $0.coordinate) },
                radiusKilometres: radius.flatMap { Distance(parsing: $0)?.kilometres }, feedMode: feed)
            if json { return try Output.json(settings) }
            let home = settings.homeLabel.map { label in
                "\(label) (\(Coordinate(latitude: settings.homeLatitude!, longitude: settings.homeLongitude!)))"
            } ?? "not set"
            Output.line(Output.table([
                ["Profile", settings.user], ["Home", home],
                ["Radius", Distance(settings.radiusKilometres, .kilometres).description],
                ["Feed shows", settings.feedMode.rawValue],
            ]))
        }
    }
}
