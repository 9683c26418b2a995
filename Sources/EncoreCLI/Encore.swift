import ArgumentParser
import Foundation
import Listings

/// The `encore` command: concerts from every listing source, in one catalog.
public struct Encore: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "encore",
        abstract: "Find concerts from every listing source in one catalog.",
        discussion: """
            Encore ingests event listings (Songkick and more) into one SQLite catalog and answers \
            questions about it: what is on, who plays where, when.

            Exit status: 0 success, 1 nothing matched (or some pages failed to ingest), 2 usage error \
            (including no catalog to query), 3 could not run (another refresh holds the lock, another \
            build is writing the feeds, or the configuration is invalid).
            """,
        version: EncoreVersion.current,
        subcommands: [
            Refresh.self, Ingest.self, Near.self, City.self, VenueCommand.self, Metros.self, ArtistCommand.self,
            EventCommand.self, Explain.self, Search.self, Track.self, Untrack.self, Tracked.self, Settings.self,
            Going.self, NotGoing.self, Plans.self, Feed.self, Discover.self, OnSale.self, Build.self, Config.self, Runs.self, Stats.self, Sources.self,
        ])

    /// Accepted before the subcommand too (`encore --db x.sqlite stats`); subcommands
    /// declare the same group, and ArgumentParser hands the value down.
    @OptionGroup var global: GlobalOptions

    public init() {}

    /// Runs the command line and exits. Usage errors exit with status 2, per the CLI
    /// contract (ArgumentParser's own default is 64).
    public static func runAndExit(arguments: [String]? = nil) async -> Never {
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch is ReportedFailure {
            Foundation.exit(1)
        } catch let error as NotInCatalog {
            Output.error("error: \(error.description)")
            Foundation.exit(1)
        } catch let error as CouldNotRun {
            Output.error("error: \(error.description)")
            Foundation.exit(3)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure || error is UsageError {
                Output.error(lowercasedPrefix(fullMessage(for: error)))
                Foundation.exit(2)
            }
            // Help, --version and bare exit codes as ArgumentParser does them; any other
            // error with the same "error:" as the rest.
            if code == .success || error is ExitCode { exit(withError: error) }
            Output.error(lowercasedPrefix(fullMessage(for: error)))
            Foundation.exit(code.rawValue)
        }
    }
}

/// Every message starts "error:", as Encore's own do (ArgumentParser writes "Error:").
private func lowercasedPrefix(_ message: String) -> String {
    message.hasPrefix("Error: ") ? "error: " + message.dropFirst("Error: ".count) : message
}

/// A mistake in how the command was called, found after parsing; exits with status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A failure already reported on standard error, or a query that found nothing (its
/// answer already printed); exits with status 1.
struct ReportedFailure: Error {}

/// Something named on the command line is not in the catalog (an artist to track);
/// exits with status 1, like every query that finds nothing.
struct NotInCatalog: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The command could not run at all (another run holds the lock, the configuration is
/// invalid); exits with status 3.
struct CouldNotRun: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
