import Foundation
import SampleWorld

/// Ingest throughput per format on the same world, each into a fresh catalog, then
/// merging a second source into a catalog that already holds the first.
enum FormatBenchmark {
    static let formats = ["songkick-json", "songkick-xml", "bandsintown", "ticketmaster", "lastfm-xml", "lastfm-json", "jsonld"]

    /// Each figure is the median of this many runs, taken in rounds over all formats: a
    /// shared machine's speed drifts by a third over minutes, and one run of each format
    /// measured the phase it fell in as much as the format.
    static let rounds = 3

    static func run(events: Int, encore: String, sample: String, work: URL, report: inout Report) throws {
        let corpus = work.appendingPathComponent("formats").path
        let generation = try ChildProcess.run(
            sample, ["--events", String(events), "--formats", formats.joined(separator: ","), "--variations", "--out", corpus])
        guard generation.status == 0 else { throw BenchmarkError("encore-sample --formats failed") }
        // The first round's catalogs are kept: Songkick's is the one merged into below.
        func catalog(_ format: String, round: Int) -> String {
            work.appendingPathComponent("format-\(format)\(round == 0 ? "" : "-again").sqlite").path
        }
        var seconds: [String: [Double]] = [:]
        for round in 0..<rounds {
            for format in formats {
                let database = catalog(format, round: round)
                try removeCatalog(database)
                let run = try ChildProcess.run(encore, ["ingest", "--db", database, "--format", format, corpus + "/" + format])
                guard run.status == 0 else { throw BenchmarkError("ingesting \(format) failed with status \(run.status)") }
                seconds[format, default: []].append(run.seconds)
                if round > 0 { try removeCatalog(database) }
            }
        }
        var rates: [String: Double] = [:]
        for format in formats {
            let records = recordCount(format: format, corpus: corpus)
            rates[format] = Double(records) / median(seconds[format]!)
            report.figure(
                "\(format) ingest (\(records) records)", String(format: "%.0f records/s", rates[format]!),
                target: "≥ 15000 records/s", met: rates[format]! >= 15_000)
        }
        print("  ingest seconds per format, \(rounds) rounds: "
            + formats.map { "\($0) " + seconds[$0]!.map { String(format: "%.2f", $0) }.joined(separator: "/") }
                .joined(separator: ", "))
        if let json = rates["songkick-json"], let xml = rates["songkick-xml"] {
            report.figure("XML vs JSON time", String(format: "%.2f×", json / xml), target: "≤ 2×", met: json / xml <= 2)
        }
        // Merging: Last.fm (about 30 % of the world) into a copy of the catalog Songkick
        // filled, each round.
        let songkick = catalog("songkick-json", round: 0)
        let merged = work.appendingPathComponent("format-merged.sqlite").path
        let records = recordCount(format: "lastfm-xml", corpus: corpus)
        var mergeSeconds: [Double] = []
        for round in 0..<rounds {
            let copy = round == 0 ? merged : work.appendingPathComponent("format-merged-again.sqlite").path
            try removeCatalog(copy)
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: songkick + suffix) {
                try FileManager.default.copyItem(atPath: songkick + suffix, toPath: copy + suffix)
            }
            let merge = try ChildProcess.run(encore, ["ingest", "--db", copy, "--format", "lastfm-xml", corpus + "/lastfm-xml"])
            guard merge.status == 0 else { throw BenchmarkError("merging lastfm-xml failed") }
            mergeSeconds.append(merge.seconds)
            if round > 0 { try removeCatalog(copy) }
        }
        let rate = Double(records) / median(mergeSeconds)
        print("  merge seconds, \(rounds) rounds: " + mergeSeconds.map { String(format: "%.2f", $0) }.joined(separator: "/"))
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
        for line in quality.variationReport { print("    " + line) }
        report.figure(
            "merge precision / recall, five sources", String(format: "%.4f / %.4f", quality.precision, quality.recall),
            target: "≥ 0.99 / ≥ 0.97", met: quality.precision >= 0.99 && quality.recall >= 0.97)
    }

    static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    /// Deletes a catalog file and its write-ahead log, if there.
    static func removeCatalog(_ path: String) throws {
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.removeItem(atPath: file)
        }
    }

    /// Records of a format's source in the world's label file.
    static func recordCount(format: String, corpus: String) -> Int {
        let source = format.hasPrefix("songkick") ? "songkick" : format.hasPrefix("lastfm") ? "lastfm" : format
        guard let text = try? String(contentsOfFile: corpus + "/labels.tsv", encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").filter { $0.hasPrefix(source + "\t") }.count
    }
}
