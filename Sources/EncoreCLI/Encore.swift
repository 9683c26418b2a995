import ArgumentParser
import Foundation

/// The `encore` command: concerts from every listing source, in one catalog.
public struct Encore: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "encore",
        abstract: "Find concerts from every listing source in one catalog.",
        discussion: """
            Encore ingests event listings (Songkick and more) into one SQLite catalog and answers \
            questions about it: what is on, who plays where, when.

            Exit status: 0 success, 1 some pages failed or nothing matched, 2 usage error.
            """,
        subcommands: [
            Refresh.self, Ingest.self, Near.self, City.self, VenueCommand.self, Metros.self, ArtistCommand.self,
            EventCommand.self, Explain.self, Search.self, Track.self, Untrack.self, Tracked.self, Settings.self,
            Going.self, NotGoing.self, Plans.self, Feed.self, Build.self, Config.self, Stats.self, Sources.self,
        ])

    /// Accepted before the subcommand too (`encore --db x.sqlite stats`); subcommands
    /// declare the same group, and ArgumentParser hands the value down.
    @OptionGroup var global: GlobalOptions

    public init() {}

    /// Runs the command line and exits. Usage errors exit with status 2, per the CLI
    /// contract (ArgumentParser's own default is 64).
    public static func runAndExit(arguments: [String]? = nil) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Foundation.exit(0)
        } catch is ReportedFailure {
            Foundation.exit(1)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure || error is UsageError {
                let message = fullMessage(for: error)
                FileHandle.standardError.write(Data((message + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// A mistake in how the command was called, found after parsing; exits with status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A failure already reported on standard error; exits with status 1.
struct ReportedFailure: Error {}
