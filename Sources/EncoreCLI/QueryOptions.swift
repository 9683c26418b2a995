import ArgumentParser
import Catalog
import Foundation
import Geo
import Ingest
import Listings

/// How many days after `--from` a window ends when `--to` is not given; a type, so the
/// help text can say the number each command uses.
protocol DefaultWindowLength {
    static var days: Int { get }
}

/// Queries (`near`, `city`): about three months.
enum QueryWindowLength: DefaultWindowLength {
    static let days = 90
}

/// A fan's feed: half a year, since it is read less often than a query is typed.
enum FeedWindowLength: DefaultWindowLength {
    static let days = 180
}

/// `--from` / `--to` as fans type them: `2027-04-15`, `today`, `+30d`, `fri` (see
/// `DateExpression`).
struct DateWindowOptions<Length: DefaultWindowLength>: ParsableArguments {
    @Option(help: ArgumentHelp(
        "First day, venue-local: YYYY-MM-DD, today, tomorrow, +Nd, or a weekday (fri: the next one) (default: today).",
        valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp(
        "Last day, venue-local: as --from; a weekday is the first on or after --from (default: from + \(Length.days) days).",
        valueName: "date"))
    var to: String?

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, DateExpression.resolve(value, today: LocalDate(daysSinceEpoch: 0)) == nil {
                throw ValidationError(
                    "\(name) must be YYYY-MM-DD, today, tomorrow, +Nd (like +30d) or a weekday (like fri); got \"\(value)\".")
            }
        }
    }

    /// The window, or a usage error when `--from` is after `--to`.
    func window(today: LocalDate) throws -> DateWindow {
        let start = from.flatMap { DateExpression.resolve($0, today: today) } ?? today
        let end = to.flatMap { DateExpression.resolve($0, today: today, onOrAfter: start) } ?? start.adding(days: Length.days)
        guard let window = DateWindow(from: start, to: end) else {
            throw UsageError("--from (\(start)) is after --to (\(end)); swap them or widen the window.")
        }
        return window
    }
}

/// Parses `LAT,LNG` (spaces allowed), checking ranges.
enum CoordinateExpression {
    static func parse(_ text: String) -> Coordinate? {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        return Coordinate.validated(latitude: latitude, longitude: longitude)
    }
}

/// Parses a map area as `SOUTH,WEST,NORTH,EAST` (the order of OpenStreetMap's and most
/// map libraries' bounds). WEST greater than EAST is a box across the antimeridian.
enum BoxExpression {
    static func parse(_ text: String) -> BoundingBox? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let south = parts[0], let west = parts[1], let north = parts[2], let east = parts[3],
            (-90.0...90).contains(south), (-90.0...90).contains(north), south <= north,
            (-180.0...180).contains(west), (-180.0...180).contains(east)
        else { return nil }
        return BoundingBox(minLatitude: south, maxLatitude: north, minLongitude: west, maxLongitude: east)
    }
}

/// `--all`: include events that no source lists any more (the listing lifecycle hides them).
struct VisibilityOptions: ParsableArguments {
    @Flag(help: "Include events no source lists any more (hidden by default).")
    var all = false

    func apply(to catalog: CatalogDatabase) -> CatalogDatabase {
        var catalog = catalog
        catalog.includesUnlisted = all
        return catalog
    }
}

/// `--limit` / `--offset`: one page of a long answer (a dense city has thousands of
/// concerts a month). Without `--limit` every match is listed.
struct PageOptions: ParsableArguments {
    // Unconditional, so "--limit -1" reaches validate() instead of reading as an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("List at most N events (default: all).", valueName: "n"))
    var limit: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Skip the first N events, for the next page.", valueName: "n"))
    var offset = 0

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1; got \(limit).") }
        if offset < 0 { throw ValidationError("--offset must be 0 or more; got \(offset).") }
    }

    var isPaged: Bool { limit != nil || offset > 0 }

    /// "1538 events (showing 1–50; next page: --offset 50)": how many match, and which
    /// of them this page shows. `total` is asked for only when the answer is paged.
    func count(shown: Int, total: () throws -> Int) rethrows -> String {
        guard isPaged else { return "\(shown) event\(shown == 1 ? "" : "s")" }
        let total = try total()
        var text = "\(total) event\(total == 1 ? "" : "s") ("
        if shown == 0 {
            text += "none past --offset \(offset)"
        } else {
            text += "showing \(offset + 1)–\(offset + shown)"
            if offset + shown < total { text += "; next page: --offset \(offset + shown)" }
        }
        return text + ")"
    }
}

/// The exit status of a query: 1 when it found nothing, after its answer (`[]`, "0 events")
/// is printed, so scripts can test it as they test grep.
enum NothingMatched {
    static func check(_ isEmpty: Bool) throws {
        if isEmpty { throw ReportedFailure() }
    }

    /// For an empty answer about days before today: the catalog has the past only from
    /// what it ingested, so old dates are usually empty, and "0 events" alone misleads.
    static func notePast(_ window: DateWindow, today: LocalDate) {
        guard window.from < today else { return }
        Output.line("The catalog holds no past events there (it has past concerts only from listings it ingested).")
    }
}
