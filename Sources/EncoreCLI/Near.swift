import ArgumentParser
import Foundation
import Geo
import Listings

extension Encore {
    struct Near: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List upcoming concerts within a radius of a place or a coordinate.",
            discussion: """
                PLACE is a city ("Bilbao", "Columbus, OH", "Madrid, ES"), or LAT,LNG. Use --at for \
                coordinates that start with a minus sign: --at -33.87,151.21. Dates are the venue's \
                local dates; the default window is today to 90 days from now.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var visibility: VisibilityOptions

        @Argument(help: ArgumentHelp("A city, or LAT,LNG.", valueName: "place"))
        var place: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Search around this coordinate instead of a place.", valueName: "lat,lng"))
        var at: String?

        @Option(help: ArgumentHelp("How far to look: 50km, 30mi.", valueName: "distance"))
        var radius = "50km"

        @OptionGroup var window: DateWindowOptions

        @Option(help: "Order by date or distance.")
        var sort: NearbyOrder = .date

        @OptionGroup var page: PageOptions

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func validate() throws {
            if (place == nil) == (at == nil) {
                throw ValidationError("Give a PLACE or --at LAT,LNG (one of them).")
            }
            if let at, CoordinateExpression.parse(at) == nil {
                throw ValidationError(
                    "--at must be LAT,LNG with latitude within -90...90 and longitude within -180...180; got \"\(at)\".")
            }
            guard Distance(parsing: radius) != nil else {
                throw ValidationError("--radius must be a positive distance like 50km or 30mi; got \"\(radius)\".")
            }
        }

        func run() throws {
            let center: ResolvedPlace
            if let at, let coordinate = CoordinateExpression.parse(at) {
                center = ResolvedPlace(label: coordinate.description, coordinate: coordinate, city: nil)
            } else {
                center = try Places.resolve(place!)
            }
            let distance = Distance(parsing: radius)!
            let dates = try window.window(today: global.currentDate)
            let catalog = try visibility.apply(to: global.openCatalog())
            let events = try catalog.events(
                near: center.coordinate, radiusKilometres: distance.kilometres, window: dates, order: sort,
                limit: page.limit, offset: page.offset)
            if json { return try Output.json(events) }
            let count = try page.count(shown: events.count) {
                try catalog.eventCount(near: center.coordinate, radiusKilometres: distance.kilometres, window: dates)
            }
            Output.line("Within \(distance) of \(center.label), \(dates.from) to \(dates.to): \(count)")
            guard !events.isEmpty else { return }
            let unit = distance.unit
            Output.line(Output.table(events.map { nearby in
                let shown = unit == .miles ? nearby.distanceKilometres / kilometresPerMile : nearby.distanceKilometres
                return Output.eventRow(nearby.event) + [String(format: "%.1f %@", shown, unit.rawValue)]
            }))
        }
    }
}

extension NearbyOrder: ExpressibleByArgument {}
