import ArgumentParser
import Foundation
import Ingest

extension Encore {
    struct Config: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Work with the sources configuration (encore.toml).", subcommands: [Check.self])

        struct Check: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Validate a configuration file, naming the line of any mistake.",
                discussion: """
                    Checks the environment too: a source whose API key variable is not set is an \
                    error. Exit status 0 when refresh could run with the file, 3 when it could not.
                    """)

            @Option(help: ArgumentHelp("The file to check (default ./encore.toml).", valueName: "path"))
            var config = "encore.toml"

            func run() throws {
                let text: String
                do {
                    text = try String(contentsOfFile: config, encoding: .utf8)
                } catch {
                    Output.error("error: cannot read \(config): \(error.localizedDescription)")
                    throw ExitCode(3)
                }
                do {
                    let parsed = try SourcesConfiguration(parsing: text, file: config)
                    let unset = parsed.unsetKeyVariables(in: ProcessInfo.processInfo.environment, file: config)
                    // Bad lines of a urls_file, each by its file and line: a refresh would skip them.
                    let badLines = parsed.sources.flatMap(\.urlListProblems)
                    guard unset.isEmpty, badLines.isEmpty else {
                        for error in unset { Output.error("error: \(error)") }
                        for problem in badLines { Output.error("error: \(problem)") }
                        throw ExitCode(3)
                    }
                    let names = parsed.sources.map { "\($0.name) (\($0.format))" }.joined(separator: ", ")
                    Output.line("\(config): \(parsed.sources.count) source\(parsed.sources.count == 1 ? "" : "s") OK: \(names)")
                } catch {
                    Output.error("error: \(error)")
                    throw ExitCode(3)
                }
            }
        }
    }
}
