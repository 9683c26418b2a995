import Foundation
import SampleWorld

/// Ingest throughput per format on the same world, each into a fresh catalog, then
/// merging a second source into a catalog that already holds the first.
enum FormatBenchmark {
    static let formats = ["songkick-json", "songkick-xml", "bandsintown", "ticketmaster", "lastfm-xml", "lastfm-json", "jsonld"]

    static func run(events: Int, encore: String, sample: String, work: URL, report: inout Report) throws {
        let corpus = work.appendingPathComponent("formats").path
        let generation = try ChildProcess.run(
            sample, ["--events", String(events), "--formats", formats.joined(separator: ","), "--out", corpus])
        guard generation.status == 0 else { throw BenchmarkError("encore-sample --formats failed") }
        var rates: [String: Double] = [:]
        for format in formats {
            let database = work.appendingPathComponent("format-\(format).sqlite").path
            let directory = corpus + "/" + format
            let records = recordCount(format: format, corpus: corpus)
            let run = try ChildProcess.run(encore, ["ingest", "--db", database, "--format", format, directory])
            guard run.status == 0 else { throw BenchmarkError("ingesting \(format) failed with status \(run.status)") }
            rates[format] = Double(records) / run.seconds
            report.figure(
                "\(format) ingest (\(records) records)", String(format: "%.0f records/s", rates[format]!),
                target: "≥ 15000 records/s", met: rates[format]! >= 15_000)
        }
        if let json = rates["songkick-json"], let xml = rates["songkick-xml"] {
            report.figure("XML vs JSON time", String(format: "%.2f×", json / xml), target: "≤ 2×", met: json / xml <= 2)
        }
        // Merging: Last.fm (about 30 % of the world) into the catalog Songkick filled.
        let merged = work.appendingPathComponent("format-songkick-json.sqlite").path
        let records = recordCount(format: "lastfm-xml", corpus: corpus)
        let merge = try ChildProcess.run(encore, ["ingest", "--db", merged, "--format", "lastfm-xml", corpus + "/lastfm-xml"])
        guard merge.status == 0 else { throw BenchmarkError("merging lastfm-xml failed") }
        let rate = Double(records) / merge.seconds
        report.figure("merging an overlapping second source", String(format: "%.0f records/s", rate), target: "≥ 10000 records/s",
                      met: rate >= 10_000)

        // Merge quality at scale: the small sample cannot show what only a big world has
        // (namesake bands, early and late shows, neighbouring rooms with similar names).
        for format in ["bandsintown", "ticketmaster", "jsonld"] {
            let run = try ChildProcess.run(encore, ["ingest", "--db", merged, "--format", format, corpus + "/" + format])
            guard run.status == 0 else { throw BenchmarkError("merging \(format) failed with status \(run.status)") }
        }
        let quality = try MergeScore.measure(catalog: merged, labels: corpus + "/labels.tsv")
        print(String(format: "  merge quality over %d records of five sources: %d of %d same-concert pairs found, %d pairs merged",
                     quality.records, quality.found, quality.actual, quality.predicted))
        report.figure(
            "merge precision / recall, five sources", String(format: "%.4f / %.4f", quality.precision, quality.recall),
            target: "≥ 0.99 / ≥ 0.97", met: quality.precision >= 0.99 && quality.recall >= 0.97)
    }

    /// Records of a format's source in the world's label file.
    static func recordCount(format: String, corpus: String) -> Int {
        let source = format.hasPrefix("songkick") ? "songkick" : format.hasPrefix("lastfm") ? "lastfm" : format
        guard let text = try? String(contentsOfFile: corpus + "/labels.tsv", encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").filter { $0.hasPrefix(source + "\t") }.count
    }
}
