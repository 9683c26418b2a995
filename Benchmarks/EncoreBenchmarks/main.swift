import Foundation

/// Encore's benchmarks, run against release builds of the real binaries:
///
///     swift build -c release && .build/release/encore-bench [--events 200000] [--check]
///
/// Each figure is printed with its target; baselines are measured in the same run, so
/// ratios do not depend on the machine. `--check` exits 1 when a target is missed.
struct Options {
    var events = 200_000
    var check = false
    var keep = false
    /// An existing catalog for the geo queries, instead of generating and ingesting one.
    var catalog: String?
    /// Benchmarks to run; all when empty.
    var only: Set<String> = []
    static let parts: Set<String> = ["ingest", "geo", "formats", "feeds", "refresh", "crawl", "discovery"]

    func runs(_ part: String) -> Bool { only.isEmpty || only.contains(part) }

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--events":
                guard let value = iterator.next().flatMap(Int.init), value > 0 else {
                    throw BenchmarkError("--events takes a positive number")
                }
                events = value
            case "--check": check = true
            case "--keep": keep = true
            case "--catalog":
                guard let value = iterator.next() else { throw BenchmarkError("--catalog takes a path") }
                catalog = value
            case "--only":
                guard let value = iterator.next() else { throw BenchmarkError("--only takes a list of parts") }
                only = Set(value.split(separator: ",").map(String.init))
                guard only.isSubset(of: Self.parts) else {
                    throw BenchmarkError("--only takes \(Self.parts.sorted().joined(separator: ", "))")
                }
            case "-h", "--help":
                print("""
                    usage: encore-bench [--events N] [--only PART,...] [--check] [--keep]
                      --events N      corpus size (default 200000; the refresh benchmark uses at most 100000)
                      --only PARTS    some of: ingest, geo, formats, feeds, refresh, crawl, discovery (geo, feeds, discovery need ingest)
                      --check         exit 1 when a target is missed
                      --keep          keep the generated corpora and catalogs
                      --catalog PATH  run the geo queries on this catalog (a copy of one kept with
                                      --keep) instead of generating and ingesting a corpus
                    """)
                exit(0)
            default: throw BenchmarkError("unknown argument \(argument); see --help")
            }
        }
        if catalog != nil, only != ["geo"] {
            throw BenchmarkError("--catalog goes with --only geo")
        }
    }
}

struct Report {
    private(set) var missed: [String] = []

    mutating func figure(_ name: String, _ value: String, target: String, met: Bool) {
        let mark = met ? "ok  " : "MISS"
        print("  \(mark) \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(value.padding(toLength: 28, withPad: " ", startingAt: 0)) target \(target)")
        if !met { missed.append(name) }
    }
}

func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }

func runBenchmarks() throws -> Int32 {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let encore = binaries.appendingPathComponent("encore").path
    let sample = binaries.appendingPathComponent("encore-sample").path
    for binary in [encore, sample] where !FileManager.default.isExecutableFile(atPath: binary) {
        throw BenchmarkError("\(binary) is missing: run `swift build -c release` first")
    }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("encore-bench-\(getpid())")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { if !options.keep { try? FileManager.default.removeItem(at: work) } }

    print("Encore benchmarks: \(options.events) events, \(ProcessInfo.processInfo.activeProcessorCount) cores")
    var report = Report()
    if let catalog = options.catalog {
        print("Geo queries (in process, release build) on \(catalog):")
        try GeoBenchmark.run(database: catalog, encore: encore, report: &report)
    } else if options.runs("ingest") || options.runs("geo") || options.runs("feeds") || options.runs("discovery") {
        try runIngestBenchmarks(options, encore: encore, sample: sample, work: work, report: &report)
    }
    if options.runs("formats") {
        print("Formats (whole `encore ingest` processes, same world):")
        try FormatBenchmark.run(events: options.events, encore: encore, sample: sample, work: work, report: &report)
    }
    if options.runs("refresh") {
        print("Scheduled refresh over HTTP (whole `encore refresh --config` processes):")
        try RefreshBenchmark.run(
            events: min(options.events, 100_000), encore: encore, sample: sample, work: work, report: &report)
    }

    if options.runs("crawl") {
        print("A night's crawl of a scene (whole `encore refresh` processes, venue sites on 127.0.x.y):")
        try CrawlBenchmark.run(encore: encore, work: work, report: &report)
    }

    if report.missed.isEmpty {
        print("All targets met.")
        return 0
    }
    print("Missed: \(report.missed.joined(separator: ", "))")
    return options.check ? 1 : 0
}

/// Songkick ingest of the generated corpus, then the geo queries and feed builds on the
/// catalog it made.
func runIngestBenchmarks(_ options: Options, encore: String, sample: String, work: URL, report: inout Report) throws {
    let corpus = work.appendingPathComponent("corpus").path
    let database = work.appendingPathComponent("bench.sqlite").path
    let generation = try ChildProcess.run(sample, ["--events", String(options.events), "--out", corpus])
    guard generation.status == 0 else { throw BenchmarkError("encore-sample failed with status \(generation.status)") }
    print(String(format: "  generated the corpus in %.1f s", generation.seconds))

    print("Ingestion (songkick-json, whole `encore ingest` process):")
    let first = try ChildProcess.run(encore, ["ingest", "--db", database, corpus])
    guard first.status == 0 else { throw BenchmarkError("first ingest failed with status \(first.status)") }
    let second = try ChildProcess.run(encore, ["ingest", "--db", database, corpus])
    guard second.status == 0 else { throw BenchmarkError("second ingest failed with status \(second.status)") }
    let eventsPerSecond = Double(options.events) / first.seconds
    report.figure(
        "first ingest throughput", String(format: "%.0f events/s", eventsPerSecond), target: "≥ 20000 events/s",
        met: eventsPerSecond >= 20_000)
    report.figure(
        "first ingest peak RSS", megabytes(first.peakResidentBytes), target: "≤ 300 MB",
        met: first.peakResidentBytes <= 300 * 1_048_576)
    let speedup = first.seconds / second.seconds
    report.figure(
        "unchanged re-ingest speed-up", String(format: "%.1f× (%.2f s)", speedup, second.seconds), target: "≥ 3×",
        met: speedup >= 3)
    let size = (try? FileManager.default.attributesOfItem(atPath: database)[.size] as? Int) ?? 0
    print("  catalog size \(megabytes(size)); first ingest \(String(format: "%.2f", first.seconds)) s (\(first.cpu))")

    if options.runs("geo") {
        print("Geo queries (in process, release build):")
        try GeoBenchmark.run(database: database, encore: encore, report: &report)
    }
    if options.runs("discovery") {
        print("Discovery (whole `encore` processes):")
        try DiscoveryBenchmark.runImport(encore: encore, work: work, report: &report)
        try DiscoveryBenchmark.runQueries(
            database: database, encore: encore, sample: sample, events: options.events, work: work, report: &report)
    }
    if options.runs("feeds") {
        print("Static feeds (whole `encore build` process):")
        try FeedBenchmark.run(
            database: database, encore: encore, corpus: corpus, events: options.events, work: work, report: &report)
    }
}

do {
    exit(try runBenchmarks())
} catch {
    FileHandle.standardError.write(Data("encore-bench: \(error)\n".utf8))
    exit(2)
}
