import Catalog
import Foundation
import Ingest
import Listings

/// `encore track import FILE...`: every file is read before anything is followed, so a
/// file that fails leaves the fan's lists as they were.
struct ListeningImport {
    let files: [String]
    let top: Int
    let minPlays: Int
    let dryRun: Bool
    let json: Bool
    let fan: FanOptions

    /// How many listened artists are remembered beyond those followed: enough to seed
    /// recommendations ("because you listen to …") and rank the feed.
    static let remembered = 500

    func run(catalog: CatalogDatabase) throws {
        var tally = ListeningTally()
        for file in files {
            do {
                try tally.read(file: file)
            } catch {
                throw UsageError("\(error.description); nothing was imported")
            }
        }
        let ranked = tally.ranked(limit: max(top, Self.remembered), minimumPlays: max(1, minPlays))
        let matches = try catalog.importListening(user: fan.name, ranked: ranked, top: top, dryRun: dryRun)
        if json { return try Output.json(matches) }
        for summary in tally.files {
            Output.line("\(summary.file): \(summary.kind.rawValue), \(summary.records) record\(summary.records == 1 ? "" : "s")")
        }
        func count(_ outcome: ListeningMatch.Outcome) -> Int { matches.filter { $0.outcome == outcome }.count }
        let verb = dryRun ? "Would follow" : "Followed"
        Output.line(
            "\(verb) \(count(.followed)); already followed \(count(.alreadyFollowed)); not in the catalog yet "
                + "\(count(.notInCatalog))\(dryRun ? "" : " (followed by name: a refresh looks for them)") "
                + "of the top \(matches.count) artist\(matches.count == 1 ? "" : "s") \(fan.name) listens to.")
        guard !matches.isEmpty else { return }
        Output.line(Output.table([["#", "artist", "plays", "time", ""]] + matches.enumerated().map { index, match in
            let minutes = match.listened.millisecondsPlayed / 60_000
            let note: String
            switch match.outcome {
            case .followed: note = (dryRun ? "would follow " : "followed ") + match.artists.map { "#\($0.id) \($0.name)" }.joined(separator: ", ")
            case .alreadyFollowed: note = "already followed"
            case .notInCatalog: note = "not in the catalog yet"
            }
            return [String(index + 1), match.listened.name, String(match.listened.plays), minutes > 0 ? "\(minutes / 60) h \(minutes % 60) min" : "", note]
        }))
    }
}
