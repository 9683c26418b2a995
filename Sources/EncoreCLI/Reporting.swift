import ArgumentParser
import Foundation
import Ingest
import Listings

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How ingesting commands talk: progress on a terminal, one summary otherwise, JSON lines
/// for machines.
struct ReportingOptions: ParsableArguments {
    enum LogFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Flag(help: "Print only errors and the final summary.")
    var quiet = false

    @Option(name: .customLong("log-format"), help: "text, or json: one JSON object per line.")
    var logFormat: LogFormat = .text
}

/// Reports an ingest as it goes: each failure on stderr when it happens, a progress line
/// (pages, events/s) on a terminal, one summary line at the end.
final class IngestReporter {
    private let options: ReportingOptions
    private let showsProgress: Bool
    private let started = Date()
    private var pages = 0
    private var events = 0

    init(_ options: ReportingOptions) {
        self.options = options
        showsProgress = !options.quiet && options.logFormat == .text && isatty(STDERR_FILENO) == 1
    }

    func progress(_ locator: String, _ result: Result<PageOutcome, IngestError>) {
        pages += 1
        switch result {
        case .success(let outcome):
            events += outcome.eventsNew + outcome.eventsMerged + outcome.eventsUpdated + outcome.eventsUnchanged
            if showsProgress, !outcome.warnings.isEmpty { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            for warning in outcome.warnings {
                switch options.logFormat {
                case .text: Output.error("warning: \(warning)")
                case .json:
                    Output.error(Self.jsonLine([
                        "level": "warning", "locator": warning.locator, "position": warning.position ?? "",
                        "message": warning.description,
                    ]))
                }
            }
        case .failure(let error):
            if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            switch options.logFormat {
            case .text: Output.error("error: \(error)")
            case .json:
                Output.error(Self.jsonLine([
                    "level": "error", "locator": error.locator, "position": error.position ?? "", "message": error.description,
                ]))
            }
        }
        if showsProgress, pages % 10 == 0 {
            let rate = Double(events) / max(Date().timeIntervalSince(started), 0.001)
            FileHandle.standardError.write(Data("\r\u{1B}[K  \(pages) pages, \(events) events, \(Int(rate)) events/s".utf8))
        }
    }

    func finish(_ summary: IngestSummary) {
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        switch options.logFormat {
        case .text: Output.line("Ingested \(summary.line).")
        case .json:
            Output.line(Self.jsonLine([
                "level": "summary", "pages": summary.pages, "pages_applied": summary.pagesApplied,
                "pages_unchanged": summary.pagesUnchanged, "pages_failed": summary.pagesFailed,
                "events_new": summary.eventsNew, "events_merged": summary.eventsMerged,
                "events_updated": summary.eventsUpdated, "events_unchanged": summary.eventsUnchanged,
                "skipped": summary.skipped,
            ]))
        }
    }

    static func jsonLine(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
