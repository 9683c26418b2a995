import Foundation
import SampleWorld

/// Scheduled ingestion over HTTP: `encore refresh --config` crawling a local server that
/// speaks Songkick's and Last.fm's URL schemes and paging, first into an empty catalog,
/// then again with nothing changed (every page answered 304 or recognized as applied).
enum RefreshBenchmark {
    static let apiKey = "bench-key-never-printed"

    static func run(events: Int, encore: String, sample: String, work: URL, report: inout Report) throws {
        let corpus = work.appendingPathComponent("api")
        let generation = try ChildProcess.run(
            sample, ["--events", String(events), "--formats", "songkick-json,lastfm-json", "--out", corpus.path])
        guard generation.status == 0 else { throw BenchmarkError("encore-sample for the API world failed") }
        let server = try SampleAPIServer(corpus: corpus, apiKey: apiKey)
        defer { server.stop() }
        let records = ["songkick-json", "lastfm-json"].map { FormatBenchmark.recordCount(format: $0, corpus: corpus.path) }
            .reduce(0, +)

        let config = work.appendingPathComponent("refresh.toml")
        try server.sourcesConfiguration().write(to: config, atomically: true, encoding: .utf8)
        let database = work.appendingPathComponent("refresh.sqlite").path
        let arguments = ["refresh", "--config", config.path, "--db", database, "--no-build", "--quiet"]
        let environment = ["SONGKICK_API_KEY": apiKey, "LASTFM_API_KEY": apiKey]
        let first = try ChildProcess.run(encore, arguments, environment: environment)
        guard first.status == 0 else { throw BenchmarkError("first refresh failed with status \(first.status)") }
        let second = try ChildProcess.run(encore, arguments, environment: environment)
        guard second.status == 0 else { throw BenchmarkError("second refresh failed with status \(second.status)") }
        print(String(
            format: "  %d events (%d listings from %d Songkick metro areas and %d Last.fm cities): first refresh %.1f s (%.0f listings/s)",
            events, records, server.songkickMetroAreas.count, server.lastFMLocations.count, first.seconds,
            Double(records) / first.seconds))
        let ratio = second.seconds / first.seconds
        report.figure(
            "unchanged second refresh", String(format: "%.1f %% of first (%.2f s)", ratio * 100, second.seconds),
            target: "≤ 20 %", met: ratio <= 0.20)
    }
}
