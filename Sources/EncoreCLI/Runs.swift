import ArgumentParser
import Catalog
import Foundation
import Ingest
import Listings

extension Encore {
    struct Runs: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the history of refresh runs, most recent first.")

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        @Flag(help: "Show what each host did in one run (the latest, or --run): requests, 304s, pages, failures, robots.txt, sitemaps.")
        var hosts = false

        @Option(name: .customLong("run"), help: ArgumentHelp("The run whose hosts --hosts shows (default the latest).", valueName: "id"))
        var runID: Int64?

        func validate() throws {
            if runID != nil, !hosts { throw ValidationError("--run goes with --hosts") }
        }

        func run() throws {
            var runs = try global.openCatalog().runs()
            // A run still `running` while no refresh holds the lock was killed without a
            // word (SIGKILL, a crash, a power cut).
            if runs.contains(where: { $0.status == "running" }), !RefreshLock.isHeld(databasePath: global.databasePath) {
                for index in runs.indices where runs[index].status == "running" { runs[index].status = "killed" }
            }
            if hosts { return try HostReport.show(runs, id: runID, json: json) }
            if json { return try Output.json(runs) }
            if runs.isEmpty {
                return Output.line(
                    "No runs recorded: refreshes from the sample listings and `encore ingest` are not runs; "
                        + "`encore refresh --config encore.toml` records one.")
            }
            var rows: [[String]] = [[
                "run", "started", "ended", "status", "source", "requests", "pages ok/same/failed",
                "events new/merged/updated/cancelled/unlisted",
            ]]
            for run in runs {
                for (index, source) in (run.sources.isEmpty ? [SourceRunSummary(name: "-")] : run.sources).enumerated() {
                    rows.append([
                        index == 0 ? "#\(run.id)" : "", index == 0 ? run.startedAt : "", index == 0 ? (run.endedAt ?? "-") : "",
                        index == 0 ? run.status : "", source.name, String(source.requests),
                        "\(source.pagesFetched)/\(source.pagesUnchanged)/\(source.pagesFailed)",
                        "\(source.eventsNew)/\(source.eventsMerged)/\(source.eventsUpdated)/\(source.eventsCancelled)/"
                            + "\(source.eventsUnlisted)",
                    ])
                }
            }
            Output.line(Output.table(rows))
            for run in runs {
                for source in run.sources where !source.disallowedByRobots.isEmpty {
                    Output.line("#\(run.id) \(source.name): not fetched, robots.txt disallows: "
                        + source.disallowedByRobots.joined(separator: ", "))
                }
            }
        }
    }

}

/// `encore runs --hosts`: one line a host of one run, so an operator sees which venue
/// sites broke their pages (and why), which were slow, and what robots.txt and the
/// sitemaps said.
enum HostReport {
    struct Row: Encodable {
        var source: String
        var report: HostRunReport

        func encode(to encoder: any Encoder) throws {
            try report.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(source, forKey: Key(stringValue: "source")!)
        }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    struct Document: Encodable {
        var run: Int64
        var status: String
        var hosts: [Row]
    }

    static func show(_ runs: [RunRecord], id: Int64?, json: Bool) throws {
        guard let run = id.map({ id in runs.first { $0.id == id } }) ?? runs.first else {
            if let id { throw UsageError("no run #\(id); `encore runs` lists them") }
            return Output.line("No runs recorded: `encore refresh --config encore.toml` records one.")
        }
        let rows = run.sources.flatMap { source in source.hosts.map { Row(source: source.name, report: $0) } }
        if json { return try Output.json(Document(run: run.id, status: run.status, hosts: rows)) }
        guard !rows.isEmpty else {
            return Output.line("Run #\(run.id) recorded no hosts (runs before host reports, or nothing was asked).")
        }
        var table: [[String]] = [["source", "host", "requests", "304", "applied", "skipped", "failed", "time", "robots.txt", "sitemap"]]
        for row in rows {
            let report = row.report
            table.append([
                row.source, report.host, String(report.requests), String(report.notModified), String(report.pagesApplied),
                String(report.pagesSkipped), String(report.pagesFailed), String(format: "%.1f s", report.seconds),
                report.robots ?? "-", report.sitemap ?? "-",
            ])
        }
        Output.line("Run #\(run.id) (\(run.status)), \(rows.count) host\(rows.count == 1 ? "" : "s"):")
        Output.line(Output.table(table))
        for row in rows where !row.report.failures.isEmpty {
            let more = row.report.pagesFailed - row.report.failures.count
            Output.line("\(row.report.host) failed: " + row.report.failures.joined(separator: "; ")
                + (more > 0 ? "; and \(more) more" : ""))
        }
    }
}
