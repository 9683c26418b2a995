import ArgumentParser
import Listings

extension Encore {
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show which source records make up an event, and why they were merged.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The event's catalog id.")
        var id: Int64

        @Flag(help: "Print JSON instead of text.")
        var json = false

        /// `  #12 Title [sources]: the rule`.
        static func line(_ miss: MergeExplanation.NearMiss) -> String {
            "  #\(miss.eventID) \(miss.title) [\(miss.sources.joined(separator: ", "))]: \(miss.keptApartBecause)"
        }

        func run() throws {
            guard let explanation = try global.openCatalog().explain(eventID: id) else {
                Output.error("No event #\(id) in the catalog.")
                throw ReportedFailure()
            }
            if json { return try Output.json(explanation) }
            Output.line("#\(id) \(explanation.event.title)")
            Output.line("Place: " + PlaceExplanation.of(explanation.event))
            var lastHeading = ""
            for record in explanation.records {
                let heading: String
                switch record.kind {
                case "event": heading = "Event #\(record.entityID)"
                case "venue": heading = "Venue #\(record.entityID) \(explanation.event.venue?.name ?? "")"
                default:
                    let name = explanation.event.lineup.first { $0.artistID == record.entityID }?.name ?? ""
                    heading = "Artist #\(record.entityID) \(name)"
                }
                if heading != lastHeading {
                    Output.line()
                    Output.line(heading)
                    lastHeading = heading
                }
                // The merge's time when it came after the record's first sighting (an
                // artist merged when a later bill named both).
                let how = record.reason.map { reason in
                    let later = record.mergedAt.flatMap { $0 == record.firstSeen ? nil : " \($0)" } ?? ""
                    return "merged\(later): \(reason)"
                } ?? "created the row"
                Output.line("  \(record.source) \(record.sourceID)  first seen \(record.firstSeen)  (\(how))")
            }
            // Listings an operator might take for this concert, and why they stay apart.
            if !explanation.nearMisses.isEmpty {
                Output.line()
                Output.line("Not merged (same day, within 250 m)")
                for miss in explanation.nearMisses {
                    Output.line(Self.line(miss))
                }
            }
            if let miss = explanation.festivalNearMiss {
                Output.line()
                Output.line("Nearest festival, not joined")
                Output.line(Self.line(miss))
            }
        }
    }
}
