import ArgumentParser
import Catalog
import Foundation
import Geo
import Listings

extension Encore {
    struct Discover: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recommend concerts near you by artists like the ones you follow or listen to.",
            discussion: """
                Concerts within your radius of home and tracked cities (or of PLACE, --at, --radius) \
                by artists you do not follow, ranked by similarity × nearness × soonness, each with \
                its reason. Similarity comes from similar-artist lists (Songkick, Last.fm, ListenBrainz) \
                and from the catalog: artists who shared a bill or a festival lineup. `--hide ARTIST` \
                keeps an artist out of your recommendations (`--unhide` brings it back).
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fan: FanOptions

        @Argument(help: ArgumentHelp("A city, or LAT,LNG (default: your home and tracked cities).", valueName: "place"))
        var place: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Look around this coordinate instead.", valueName: "lat,lng"))
        var at: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("How far to look: 50km, 30mi (default: your radius).", valueName: "distance"))
        var radius: String?

        @OptionGroup var window: DateWindowOptions<QueryWindowLength>

        @Option(help: "Show the N best recommendations.")
        var limit: Int = 50

        @Option(help: ArgumentHelp("Never recommend this artist.", valueName: "artist"))
        var hide: String?

        @Option(help: ArgumentHelp("Recommend this artist again.", valueName: "artist"))
        var unhide: String?

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func validate() throws {
            if place != nil, at != nil { throw ValidationError("Give a PLACE or --at LAT,LNG, not both.") }
            if let at, CoordinateExpression.parse(at) == nil {
                throw ValidationError("--at must be LAT,LNG with latitude within -90...90 and longitude within -180...180; got \"\(at)\".")
            }
            if let radius, Distance(parsing: radius) == nil {
                throw ValidationError("--radius must be a positive distance like 50km or 30mi; got \"\(radius)\".")
            }
            if limit < 1 { throw ValidationError("--limit must be at least 1; got \(limit).") }
        }

        func run() throws {
            let catalog = try global.openOrCreateCatalog()
            if let hide {
                let artist = try Tracking.resolve(.artist, hide, in: catalog, today: global.currentDate)
                let added = try catalog.hide(user: fan.name, artist: ArtistReference(id: artist.id, name: artist.name))
                return Output.line(added ? "Hidden from recommendations: \(artist.name)." : "Already hidden: \(artist.name).")
            }
            if let unhide {
                let folded = NameFolding.fold(unhide)
                guard let artist = try catalog.hiddenArtists(user: fan.name).first(where: { NameFolding.fold($0.name) == folded }),
                    try catalog.unhide(user: fan.name, artistID: artist.id)
                else {
                    Output.error("\(fan.name) has not hidden \"\(unhide)\".")
                    throw ReportedFailure()
                }
                return Output.line("Recommending \(artist.name) again.")
            }
            let dates = try window.window(today: global.currentDate)
            var center: Coordinate?
            if let at { center = CoordinateExpression.parse(at) }
            if let place { center = try Places.resolve(place, in: catalog, today: global.currentDate).coordinate }
            let distance = radius.flatMap { Distance(parsing: $0) }
            let recommendations: [Recommendation]
            do {
                recommendations = try catalog.discover(
                    user: fan.name, center: center, radiusKilometres: distance?.kilometres, window: dates,
                    today: global.currentDate, limit: limit)
            } catch CatalogError.noHome(let user) {
                throw UsageError("\(user) has no home set; run `\(fan.command("encore settings --home PLACE"))`, or give a PLACE")
            }
            if json {
                try Output.json(recommendations)
                return try NothingMatched.check(recommendations.isEmpty)
            }
            Output.line("\(recommendations.count) recommendation\(recommendations.count == 1 ? "" : "s"), \(dates.from) to \(dates.to)")
            guard !recommendations.isEmpty else {
                Output.line("Follow artists (`encore track artist NAME`) or import what you listen to (`encore track import FILE`).")
                throw ReportedFailure()
            }
            Output.line(Output.table(recommendations.map { item in
                Output.eventRow(item.event) + [
                    String(format: "%.1f km", item.distanceKilometres), item.artist.name + ": " + item.reason,
                    String(format: "%.2f", item.score),
                ]
            }))
        }
    }

    struct OnSale: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "onsale",
            abstract: "List tickets going on sale soon for artists and venues you follow and cities you track.",
            discussion: """
                Public on-sale and presale times in the next N days (default 14), soonest first, with \
                the ticket link and the time at the venue. Past times and impossible dates are never shown.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fan: FanOptions

        @Option(help: "How many days ahead to look.")
        var days: Int = 14

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func validate() throws {
            if days < 1 || days > 366 { throw ValidationError("--days must be 1 to 366; got \(days).") }
        }

        func run() throws {
            let catalog = try global.openCatalog()
            let today = global.currentDate
            // With --today, the day starts at midnight UTC: runs give the same answer.
            let now = global.today == nil
                ? UTCInstant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
                : UTCInstant(date: today, time: LocalTime(hour: 0, minute: 0)!, utcOffsetSeconds: 0)
            let entries = try catalog.onSales(user: fan.name, now: now, days: days, today: today)
            if json {
                try Output.json(entries)
                return try NothingMatched.check(entries.isEmpty)
            }
            Output.line("\(entries.count) on-sale time\(entries.count == 1 ? "" : "s") in the next \(days) days")
            guard !entries.isEmpty else { throw ReportedFailure() }
            Output.line(Output.table(entries.map { entry in
                let time = String(entry.localTime.description.prefix(5))
                return ["\(entry.localDate) \(time)", entry.timeZone ?? "UTC", entry.status ?? "on sale"]
                    + Output.eventRow(entry.event) + [entry.reason, entry.url ?? ""]
            }))
        }
    }
}
