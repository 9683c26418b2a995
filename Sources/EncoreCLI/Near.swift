import ArgumentParser
import Catalog
import Foundation
import Geo
import Listings

extension Encore {
    struct Near: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List upcoming concerts within a radius of a place or a coordinate, or inside a map area.",
            discussion: """
                PLACE is a city ("Bilbao", "Columbus, OH", "Madrid, ES"), or LAT,LNG. Use --at for \
                coordinates that start with a minus sign: --at -33.87,151.21. --bbox \
                SOUTH,WEST,NORTH,EAST lists the concerts at venues inside a map's visible area \
                instead (WEST greater than EAST spans the antimeridian). Dates are the venue's \
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

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Search inside this map area instead: south,west,north,east in degrees.", valueName: "s,w,n,e"))
        var bbox: String?

        // Unconditional: "-5km" is a bad distance to report, not an option.
        @Option(parsing: .unconditional, help: ArgumentHelp("How far to look: 50km, 30mi (default: 50km).", valueName: "distance"))
        var radius: String?

        @OptionGroup var window: DateWindowOptions<QueryWindowLength>

        @Option(help: "Order by date or distance.")
        var sort: NearbyOrder = .date

        @OptionGroup var page: PageOptions

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func validate() throws {
            if [place, at, bbox].compactMap({ $0 }).count != 1 {
                throw ValidationError("Give a PLACE, --at LAT,LNG or --bbox SOUTH,WEST,NORTH,EAST (one of them).")
            }
            if let at, CoordinateExpression.parse(at) == nil {
                throw ValidationError(
                    "--at must be LAT,LNG with latitude within -90...90 and longitude within -180...180; got \"\(at)\".")
            }
            if let bbox {
                guard BoxExpression.parse(bbox) != nil else {
                    throw ValidationError(
                        "--bbox must be SOUTH,WEST,NORTH,EAST with latitudes within -90...90, SOUTH at most NORTH, and "
                            + "longitudes within -180...180; got \"\(bbox)\".")
                }
                if radius != nil { throw ValidationError("--radius goes with a PLACE or --at; --bbox is an area already.") }
                if sort == .distance { throw ValidationError("--sort distance needs a PLACE or --at to measure from.") }
            }
            if let radius, Distance(parsing: radius) == nil {
                throw ValidationError("--radius must be a positive distance like 50km or 30mi; got \"\(radius)\".")
            }
        }

        func run() throws {
            let dates = try window.window(today: global.currentDate)
            let catalog = try visibility.apply(to: global.openCatalog())
            if let bbox, let box = BoxExpression.parse(bbox) {
                return try listInside(box, label: bbox, dates: dates, catalog: catalog)
            }
            let center: ResolvedPlace
            if let at, let coordinate = CoordinateExpression.parse(at) {
                center = ResolvedPlace(label: coordinate.description, coordinate: coordinate, city: nil)
            } else {
                center = try Places.resolve(place!, in: catalog, today: global.currentDate)
            }
            let distance = Distance(parsing: radius ?? "50km")!
            let events = try catalog.events(
                near: center.coordinate, radiusKilometres: distance.kilometres, window: dates, order: sort,
                limit: page.limit, offset: page.offset)
            if json {
                try Output.json(events)
                return try NothingMatched.check(events.isEmpty)
            }
            let count = try page.count(shown: events.count) {
                try catalog.eventCount(near: center.coordinate, radiusKilometres: distance.kilometres, window: dates)
            }
            Output.line("Within \(distance) of \(center.label), \(dates.from) to \(dates.to): \(count)")
            guard !events.isEmpty else {
                NothingMatched.notePast(dates, today: global.currentDate)
                throw ReportedFailure()
            }
            let unit = distance.unit
            Output.line(Output.table(events.map { nearby in
                let shown = unit == .miles ? nearby.distanceKilometres / kilometresPerMile : nearby.distanceKilometres
                return Output.eventRow(nearby.event) + [String(format: "%.1f %@", shown, unit.rawValue)]
            }))
        }

        /// `--bbox`: the concerts at the venues inside a map area, soonest first.
        private func listInside(_ box: BoundingBox, label: String, dates: DateWindow, catalog: CatalogDatabase) throws {
            let events = try catalog.events(in: box, window: dates, limit: page.limit, offset: page.offset)
            if json {
                try Output.json(events)
                return try NothingMatched.check(events.isEmpty)
            }
            let count = try page.count(shown: events.count) { try catalog.eventCount(in: box, window: dates) }
            let venues = try catalog.venueCount(in: box)
            Output.line(
                "Inside \(label) (south,west,north,east), \(dates.from) to \(dates.to): \(count) at "
                    + "\(venues) venue\(venues == 1 ? "" : "s") with coordinates")
            guard !events.isEmpty else {
                NothingMatched.notePast(dates, today: global.currentDate)
                throw ReportedFailure()
            }
            Output.line(Output.table(events.map(Output.eventRow)))
        }
    }
}

extension NearbyOrder: ExpressibleByArgument {}
