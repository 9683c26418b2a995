import ArgumentParser
import Catalog
import Geo
import Foundation
import Ingest

extension Encore {
    struct Refresh: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Refresh the catalog from every configured source (the nightly job).",
            discussion: """
                Ingests, then builds the static feeds. With no configuration, ingests the sample \
                listings bundled with Encore, so a fresh clone has a catalog to explore. Exit \
                status 1 when any page failed (the feeds are still built from what landed).
                """)

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("A directory of sample listings to use instead of the bundled one.", valueName: "dir"))
        var sample: String?

        @Option(help: ArgumentHelp("Where to write the feeds after ingesting.", valueName: "dir"))
        var out = "feeds"

        @Flag(help: "Ingest only; do not build the feeds.")
        var noBuild = false

        func run() throws {
            let directory = try sample ?? SampleListings.locate()
            Output.line("No sources configured: refreshing from the sample listings in \(SampleListings.display(directory)).")
            let catalog = try global.openCatalog()
            let ingestion = FileIngestion(enrichment: GeoEnrichment(gazetteer: try Gazetteer.bundled()))
            let summary = ingestion.ingest(paths: [directory], into: catalog, progress: IngestReport.progress)
            Output.line("Ingested \(summary.line).")
            if !noBuild {
                let report = try FeedBuild.run(catalog: catalog, today: global.currentDate, out: out)
                Output.line(FeedBuild.summary(report, out: out))
            }
            if !summary.succeeded { throw ReportedFailure() }
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
