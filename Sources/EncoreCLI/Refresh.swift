import ArgumentParser
import Catalog
import Foundation
import Geo
import Ingest
import Listings
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Encore {
    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Refresh the catalog from every configured source (the nightly job).",
            discussion: """
                Crawls every [[source]] of the configuration (--config, else ./encore.toml when it \
                exists), records the run (`encore runs`), then builds the static feeds. With no \
                configuration, ingests the sample listings bundled with Encore, so a fresh clone has \
                a catalog to explore. Only one refresh writes a catalog at a time; queries keep \
                working during a run.

                Exit status: 0 all pages landed, 1 some pages failed (the rest landed and the feeds \
                were built), 3 could not run (another refresh holds the lock, another build is writing \
                the feeds, an invalid configuration, or an API key variable not set).
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var reporting: ReportingOptions

        @Option(help: ArgumentHelp("The sources configuration (default ./encore.toml when present).", valueName: "path"))
        var config: String?

        @Option(help: ArgumentHelp("A directory of sample listings to use instead of the bundled one.", valueName: "dir"))
        var sample: String?

        @Option(help: ArgumentHelp("Where to write the feeds after ingesting.", valueName: "dir"))
        var out = "feeds"

        @Flag(help: "Ingest only; do not build the feeds.")
        var noBuild = false

        @Flag(help: FeedBuild.publishFansHelp)
        var publishFans = false

        @Option(help: FeedBuild.siteURLHelp)
        var siteURL: String?

        @Option(
            help: ArgumentHelp(
                "The longest Retry-After obeyed; a server asking for more gives up that listing for this run.",
                valueName: "seconds"))
        var maxRetryAfter: Double = FetchPolicy().maxRetryAfter

        func validate() throws {
            guard maxRetryAfter >= 0, maxRetryAfter.isFinite else {
                throw ValidationError("--max-retry-after must be a number of seconds, 0 or more")
            }
        }

        func run() async throws {
            let lock = try RefreshLock.take(databasePath: global.databasePath)
            defer { lock.release() }
            let catalog = try global.openOrCreateCatalog()
            let enrichment = GeoEnrichment(gazetteer: try Gazetteer.bundled())
            let configPath = config ?? (FileManager.default.fileExists(atPath: "encore.toml") ? "encore.toml" : nil)
            let succeeded: Bool
            if let configPath {
                succeeded = try await crawl(configPath: configPath, catalog: catalog, enrichment: enrichment)
            } else {
                let directory = try sample ?? SampleListings.locate()
                if reporting.logFormat == .text {
                    Output.line("No sources configured: refreshing from the sample listings in \(SampleListings.display(directory)).")
                }
                let reporter = IngestReporter(reporting)
                let summary = FileIngestion(enrichment: enrichment).ingest(paths: [directory], into: catalog, progress: reporter.progress)
                reporter.finish(summary)
                succeeded = summary.succeeded
            }
            if !noBuild {
                // Its own connections, which read the catalog once through.
                let report = try FeedBuild.run(
                    catalog: try global.openCatalog(readsOnce: true), today: global.currentDate, out: out, publishFans: publishFans, siteURL: siteURL,
                    reporting: reporting)
                switch reporting.logFormat {
                case .text: Output.line(FeedBuild.summary(report, out: out))
                case .json: Output.line(FeedBuild.jsonSummary(report, out: out))
                }
            }
            if !succeeded { throw ReportedFailure() }
        }

        private func crawl(configPath: String, catalog: CatalogDatabase, enrichment: GeoEnrichment) async throws -> Bool {
            let text: String
            do {
                text = try String(contentsOfFile: configPath, encoding: .utf8)
            } catch {
                throw CouldNotRun("cannot read \(configPath): \(error.localizedDescription)")
            }
            let configuration: SourcesConfiguration
            do {
                configuration = try SourcesConfiguration(parsing: text, file: configPath)
            } catch {
                throw CouldNotRun("\(error)")
            }
            let environment = ProcessInfo.processInfo.environment
            if let unset = configuration.unsetKeyVariables(in: environment, file: configPath).first {
                throw CouldNotRun("\(unset); set it, or remove api_key_env from the source")
            }
            let secrets = configuration.sources.compactMap { $0.apiKeyEnvironmentVariable.flatMap { environment[$0] } }
            var policy = FetchPolicy()
            policy.maxRetryAfter = maxRetryAfter
            policy.maxConnections = configuration.maxConnections
            let fetcher = HTTPFetcher(policy: policy, secrets: secrets)
            let resuming = try catalog.interruptedRun()
            let run = try catalog.startRun()
            let log = RefreshLog(format: reporting.logFormat)
            if let resuming {
                log.info("Resuming run #\(resuming), which did not finish: its finished pages are not fetched again.")
            }
            let tracked = try catalog.trackedArtistNames()
            let similarSeeds = try catalog.followedArtistsForSimilarLists()
            let progress = RunProgress()
            // Stopped by the operator or a scheduler: the run is recorded as killed, with
            // the sources finished so far, before the process exits.
            RunProgress.onTermination { signal in
                // After the run's end is recorded (building the feeds), the signal just
                // ends the process: the build is atomic.
                guard progress.stop() else { Foundation.exit(128 + signal) }
                try? catalog.finishRun(run, status: "killed", sources: progress.summaries)
                log.crawl("error: run #\(run) killed by \(signal == SIGINT ? "SIGINT" : "SIGTERM"); the next refresh resumes it")
                Foundation.exit(128 + signal)
            }
            // Every source at once: each host keeps its own pace (the fetcher's per-host
            // limits), so a slow host holds up only itself; the catalog's one writer
            // applies each page as it arrives, in an order that does not change the result.
            let robots = RobotsCache()
            let sources = configuration.sources.map { source in
                var source = source
                let listed = Set(source.artists.map { $0.lowercased() })
                if source.listsSimilarArtists {
                    source.artists += SimilarArtistTurns.artists(
                        followed: similarSeeds, listBrainzIDsOnly: source.format == "listenbrainz-similar",
                        cap: source.similarArtistsPerRun, today: global.currentDate
                    ).filter { !listed.contains($0.lowercased()) }
                } else {
                    source.artists += tracked.filter { !listed.contains($0.lowercased()) }
                }
                return source
            }
            for source in sources where source.isPageSource {
                for host in PageCrawler.hosts(of: source) { await robots.assign(host.origin, to: source.name) }
            }
            var finished = [SourceRunSummary?](repeating: nil, count: sources.count)
            await withTaskGroup(of: (Int, SourceRunSummary).self) { group in
                for (index, source) in sources.enumerated() {
                    // Every key variable is set: checked before the run started.
                    let key = source.apiKeyEnvironmentVariable.flatMap { environment[$0] }
                    var crawler = SourceCrawler(
                        source: source, apiKey: key, fetcher: fetcher, ingestion: FileIngestion(enrichment: enrichment),
                        state: catalog, today: global.currentDate, runID: run, resuming: resuming)
                    crawler.robots = robots
                    group.addTask { (index, await crawler.crawl(into: catalog) { log.crawl($0) }) }
                }
                for await (index, summary) in group {
                    finished[index] = summary
                    progress.finished(summary)
                }
            }
            // Reported in the configuration's order, whichever finished first.
            let summaries = finished.compactMap { $0 }
            summaries.forEach(log.source)
            let failed = summaries.contains { $0.pagesFailed > 0 }
            // A signal from here on ends the process without a record; one that came
            // first is recording the run as killed, and ends it.
            guard progress.stop() else { while true { pause() } }
            try catalog.finishRun(run, status: failed ? "failed" : "ok", sources: summaries)
            log.run(run, failed: failed)
            return !failed
        }
    }
}

/// What a refresh says as it goes: lines for people, or with `--log-format json` one
/// JSON object per line (`level`: `info`, `error`, `source`, `run`; the build adds `feeds`).
struct RefreshLog: Sendable {
    let format: ReportingOptions.LogFormat

    func info(_ message: String) {
        switch format {
        case .text: Output.line(message)
        case .json: Output.line(IngestReporter.jsonLine(["level": "info", "message": message]))
        }
    }

    /// A line from the crawler: errors (`error: …`) on stderr, the rest on stdout.
    func crawl(_ line: String) {
        let isError = line.hasPrefix("error: ")
        switch format {
        case .text: isError ? Output.error(line) : Output.line(line)
        case .json:
            let message = isError ? String(line.dropFirst("error: ".count)) : line
            let text = IngestReporter.jsonLine(["level": isError ? "error" : "info", "message": message])
            isError ? Output.error(text) : Output.line(text)
        }
    }

    func source(_ summary: SourceRunSummary) {
        switch format {
        case .text:
            Output.line(
                "\(summary.name): \(summary.requests) requests, \(summary.pagesFetched) pages applied, "
                    + "\(summary.pagesUnchanged) unchanged, \(summary.pagesFailed) failed; events: \(summary.eventsNew) new, "
                    + "\(summary.eventsMerged) merged, \(summary.eventsUpdated) updated, \(summary.eventsUnchanged) unchanged, "
                    + "\(summary.eventsCancelled) cancelled, \(summary.eventsUnlisted) unlisted"
                    + (summary.disallowedByRobots.isEmpty ? "" : "; \(summary.disallowedByRobots.count) not fetched (robots.txt)")
                    + IngestSummary.skippedText(summary.skipped))
        case .json:
            Output.line(IngestReporter.jsonLine([
                "level": "source", "source": summary.name, "requests": summary.requests,
                "pages_applied": summary.pagesFetched, "pages_unchanged": summary.pagesUnchanged,
                "pages_failed": summary.pagesFailed, "events_new": summary.eventsNew, "events_merged": summary.eventsMerged,
                "events_updated": summary.eventsUpdated, "events_unchanged": summary.eventsUnchanged,
                "events_cancelled": summary.eventsCancelled, "events_unlisted": summary.eventsUnlisted,
                "disallowed_by_robots": summary.disallowedByRobots, "skipped": summary.skipped,
            ]))
        }
    }

    func run(_ id: Int64, failed: Bool) {
        switch format {
        case .text: Output.line("Run #\(id) \(failed ? "finished with failures" : "finished").")
        case .json: Output.line(IngestReporter.jsonLine(["level": "run", "run": id, "status": failed ? "failed" : "ok"]))
        }
    }
}

/// The sources a run has finished, for the record a signal leaves; and whether the run
/// may still be recorded as killed.
final class RunProgress: Sendable {
    private let state = Mutex<(done: [SourceRunSummary], stopped: Bool)>(([], false))

    var summaries: [SourceRunSummary] { state.withLock { $0.done } }

    func finished(_ summary: SourceRunSummary) { state.withLock { $0.done.append(summary) } }

    /// True the first time: the caller records the run's end, and no one else does.
    func stop() -> Bool {
        state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
    }

    /// Calls `handler` (on another thread) on SIGTERM or SIGINT instead of dying at once,
    /// for the rest of the process; the handler ends it.
    static func onTermination(_ handler: @escaping @Sendable (Int32) -> Void) {
        let sources = [SIGTERM, SIGINT].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { handler(signalNumber) }
            source.resume()
            return source
        }
        installedLock.withLock { installed += sources }
    }

    private static let installedLock = NSLock()
    // nonisolated(unsafe): touched only under `installedLock`; it keeps the sources alive.
    nonisolated(unsafe) private static var installed: [any DispatchSourceSignal] = []
}

/// Only one refresh writes a catalog at a time: an exclusive lock on `<db>.lock`.
enum RefreshLock {
    /// Whether a refresh holds the lock now (asked without taking it for longer than the
    /// question).
    static func isHeld(databasePath: String) -> Bool {
        let descriptor = open(databasePath + ".lock", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else { return true }
        flock(descriptor, LOCK_UN)
        return false
    }

    static func take(databasePath: String) throws -> ExclusiveFileLock {
        let path = databasePath + ".lock"
        do {
            guard let lock = try ExclusiveFileLock(path: path) else {
                throw CouldNotRun("another refresh is already running on \(databasePath) (it holds \(path)); try again when it ends")
            }
            return lock
        } catch let error as LockFileError {
            throw CouldNotRun(error.description)
        }
    }
}

/// Where the bundled sample world lives: `Fixtures/sample` of the Encore checkout.
enum SampleListings {
    static func locate() throws -> String {
        var candidates: [String] = []
        if let fromEnvironment = ProcessInfo.processInfo.environment["ENCORE_SAMPLE_DIR"], !fromEnvironment.isEmpty {
            candidates.append(fromEnvironment)
        }
        candidates.append(FileManager.default.currentDirectoryPath + "/Fixtures/sample")
        // The checkout this binary was built from, wherever it is run.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(checkout.appendingPathComponent("Fixtures/sample").path)
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
        }
        throw UsageError(
            "no sources configured and the bundled sample listings were not found; "
                + "run from the Encore checkout, set ENCORE_SAMPLE_DIR, or pass --sample DIR.")
    }

    /// The path relative to the current directory when inside it, for shorter messages.
    static func display(_ path: String) -> String {
        let current = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(current) ? String(path.dropFirst(current.count)) : path
    }
}
