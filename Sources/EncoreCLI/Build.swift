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

        func run() throws {
            let report = try FeedBuild.run(
                catalog: try global.openCatalog(), today: global.currentDate, out: out, reporting: reporting)
            Output.line(FeedBuild.summary(report, out: out))
        }
    }
}

/// The build step shared by `build` and `refresh`.
enum FeedBuild {
    /// On a terminal (unless `--quiet`), a progress line names the part being rendered,
    /// the files so far and the files per second.
    static func run(catalog: CatalogDatabase, today: LocalDate, out: String, reporting: ReportingOptions) throws
        -> FeedBuildReport
    {
        let now = UTCInstant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
        let showsProgress = !reporting.quiet && reporting.logFormat == .text && isatty(STDERR_FILENO) == 1
        let started = Date()
        func show(_ text: String) {
            if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K  building feeds: \(text)".utf8)) }
        }
        // The repository's feeds/ keeps its committed JSON Schemas across builds.
        var staging = try FeedTreeWriter(outputDirectory: URL(fileURLWithPath: out), preserving: ["schema"]).begin()
        try FeedBuilder(source: catalog, today: today, generatedAt: now).build(into: &staging) { part, files in
            let rate = Double(files) / max(Date().timeIntervalSince(started), 0.001)
            show("\(part) (\(files) files, \(Int(rate)) files/s)")
        }
        show("swapping in \(staging.count) files")
        let report = try staging.finish()
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        return report
    }

    static func summary(_ report: FeedBuildReport, out: String) -> String {
        "Built feeds in \(out): \(report.written) written, \(report.unchanged) unchanged, \(report.removed) removed "
            + "(\(report.bytesWritten) bytes written)."
    }
}
