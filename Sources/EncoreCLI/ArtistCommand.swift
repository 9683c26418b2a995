import ArgumentParser
import Listings

extension Encore {
    struct ArtistCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "artist",
            abstract: "Show an artist's page: upcoming (or past) events in date order.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var visibility: VisibilityOptions

        @Argument(help: "The artist's name (case, accents and punctuation do not matter), or #ID as `search` prints it.")
        var name: String

        @Flag(help: "Show past events instead of upcoming ones.")
        var past = false

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func run() throws {
            let catalog = try visibility.apply(to: global.openCatalog())
            let today = global.currentDate
            if let id = Output.catalogID(name) {
                guard let page = try catalog.artistPage(artistID: id, past: past, today: today) else {
                    Output.error("No artist #\(id) in the catalog. Try `encore search NAME`.")
                    throw ReportedFailure()
                }
                return try show(page, namesakes: [])
            }
            let matches = try catalog.artists(named: name, today: today)
            guard let artist = matches.first, let page = try catalog.artistPage(artistID: artist.id, past: past, today: today)
            else {
                let suggestions = try catalog.artistSuggestions(for: name)
                var message = "No artist named \"\(name)\" in the catalog."
                if !suggestions.isEmpty {
                    message += " Did you mean: " + suggestions.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
                }
                Output.error(message)
                throw ReportedFailure()
            }
            try show(page, namesakes: Array(matches.dropFirst()))
        }

        private func show(_ page: ArtistPage, namesakes: [ArtistSummary]) throws {
            if json { return try Output.json(page) }
            Output.line(page.artist.name + (page.artist.musicBrainzID.map { "  (MusicBrainz \($0))" } ?? ""))
            if !namesakes.isEmpty {
                let others = namesakes.map { "#\($0.id)" }.joined(separator: ", ")
                Output.line("Other artists with this name (`encore artist #ID`): \(others)")
            }
            Output.line()
            let heading = past ? "Past events" : "Upcoming events"
            if page.events.isEmpty {
                Output.line("\(heading): none.")
            } else {
                Output.line("\(heading) (\(page.events.count)):")
                Output.line(Output.table(page.events.map(Output.eventRow)))
            }
            if !page.similar.isEmpty {
                Output.line()
                Output.line("Similar artists: " + page.similar.prefix(10).map(\.name).joined(separator: ", "))
            }
        }
    }
}
