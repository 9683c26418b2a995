import ArgumentParser
import Catalog
import Feeds
import Foundation
import Listings

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

        @Option(help: ArgumentHelp("Where to write the feeds.", valueName: "dir"))
        var out = "feeds"

        func run() throws {
            let report = try FeedBuild.run(catalog: try global.openCatalog(), today: global.currentDate, out: out)
            Output.line(FeedBuild.summary(report, out: out))
        }
    }
}

/// The build step shared by `build` and `refresh`.
enum FeedBuild {
    static func run(catalog: CatalogDatabase, today: LocalDate, out: String) throws -> FeedBuildReport {
        let now = UTCInstant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
        let tree = try FeedBuilder(source: catalog, today: today, generatedAt: now).build()
        // The repository's feeds/ keeps its committed JSON Schemas across builds.
        return try FeedTreeWriter(outputDirectory: URL(fileURLWithPath: out), preserving: ["schema"]).write(tree)
    }

    static func summary(_ report: FeedBuildReport, out: String) -> String {
        "Built feeds in \(out): \(report.written) written, \(report.unchanged) unchanged, \(report.removed) removed "
            + "(\(report.bytesWritten) bytes written)."
    }
}
