import ArgumentParser
import Catalog
import Feeds
import Foundation
import Listings

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The catalog is what the feeds read; the conformance lives here, where both are seen.
extension CatalogDatabase: FeedSource {}

extension Encore {
    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the static JSON feeds (metro areas, bands, venues, concerts, fans' plans).",
            discussion: """
                The feeds are plain files any web server or CDN can serve; see feeds/schema/ for their \
                JSON Schemas. Builds are atomic (readers see the previous build until the new one is \
                complete) and incremental (unchanged files are not rewritten, stale ones are removed).
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var reporting: ReportingOptions

        @Option(help: ArgumentHelp("Where to write the feeds.", valueName: "dir"))
        var out = "feeds"

        @Flag(help: "Render every file, not only what changed since the last build.")
        var full = false

        @Flag(help: FeedBuild.publishFansHelp)
        var publishFans = false

        @Option(help: FeedBuild.siteURLHelp)
        var siteURL: String?

        func run() throws {
            let outcome = try FeedBuild.run(
                catalog: try global.openCatalog(readsOnce: true), today: global.currentDate, out: out, full: full,
                publishFans: publishFans, siteURL: siteURL, reporting: reporting)
            switch reporting.logFormat {
            case .text: Output.line(FeedBuild.summary(outcome, out: out))
            case .json: Output.line(FeedBuild.jsonSummary(outcome, out: out))
            }
        }
    }
}

/// The build step shared by `build` and `refresh`.
enum FeedBuild {
    static let siteURLHelp = ArgumentHelp(
        "The site's public address, for sitemap.xml (written only with it).", valueName: "url")
    static let publishFansHelp = ArgumentHelp(
        "Also publish fans' plans and feeds (users/NAME/…): public to anyone who guesses the address, so off by default.")

    /// On a terminal (unless `--quiet`), a progress line names the part being rendered,
    /// the files so far and the files per second.
    static func run(
        catalog: CatalogDatabase, today: LocalDate, out: String, full: Bool = false, publishFans: Bool = false, siteURL: String? = nil,
        reporting: ReportingOptions
    ) throws -> FeedBuildOutcome {
        let now = UTCInstant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
        let showsProgress = !reporting.quiet && reporting.logFormat == .text && isatty(STDERR_FILENO) == 1
        let started = Date()
        func show(_ text: String) {
            if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K  building feeds: \(text)".utf8)) }
        }
        // The repository's feeds/ keeps its committed JSON Schemas across builds.
        let writer = FeedTreeWriter(outputDirectory: URL(fileURLWithPath: out), preserving: ["schema"])
        let outcome: FeedBuildOutcome
        do {
            // Band pages' addresses are given before the build reads, then one snapshot from
            // the first read to the last: an ingest that commits during the build cannot
            // make the tree link what it does not hold.
            try catalog.assignArtistAddresses()
            let snapshot = try catalog.readingOneSnapshot()
            outcome = try FeedBuilder(source: snapshot, today: today, generatedAt: now, publishFans: publishFans, siteURL: siteURL).write(to: writer, full: full) {
                part, files in
                let rate = Double(files) / max(Date().timeIntervalSince(started), 0.001)
                show("\(part) (\(files) files, \(Int(rate)) files/s)")
            }
        } catch let busy as FeedBuildInProgress {
            throw CouldNotRun(busy.description)
        }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        return outcome
    }

    /// The summary as one JSON line (`--log-format json`).
    static func jsonSummary(_ outcome: FeedBuildOutcome, out: String) -> String {
        let report = outcome.report
        return IngestReporter.jsonLine([
            "level": "feeds", "out": out, "written": report.written, "unchanged": report.unchanged,
            "removed": report.removed, "bytes_written": report.bytesWritten, "incremental": outcome.incremental,
        ])
    }

    static func summary(_ outcome: FeedBuildOutcome, out: String) -> String {
        let report = outcome.report
        return "Built feeds in \(out): \(report.written) written, \(report.unchanged) unchanged, \(report.removed) removed "
            + "(\(report.bytesWritten) bytes written). "
            + (outcome.incremental ? "Incremental: rendered what changed since the last build." : "Full build.")
    }
}
