import Foundation
import SampleWorld

// encore-sample: writes the deterministic sample world as recorded-looking Songkick JSON.
// Arguments are parsed by hand so the target depends on SampleWorld (and Foundation) only.

let usage = """
    usage: encore-sample [--events N] [--seed S] [--start YYYY-MM-DD] [--days D] [--per-page P] [--out DIR]
      --events N          events to generate (default 1000)
      --seed S            random seed, an unsigned 64-bit integer (default 2026)
      --start YYYY-MM-DD  first day events may start (default 2026-11-01)
      --days D            length of the window events start in (default 240)
      --per-page P        events per calendar page (default 50)
      --out DIR           output directory (default Fixtures/sample)
    The same arguments always give byte-identical files.
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("encore-sample: \(message)\n\(usage)\n".utf8))
    exit(2)
}

func count(_ text: String, for flag: String, minimum: Int) -> Int {
    guard let value = Int(text), value >= minimum else { fail("\(flag) needs an integer of at least \(minimum), got '\(text)'") }
    return value
}

var configuration = SampleWorld.Configuration()
var outputPath = "Fixtures/sample"
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    if flag == "-h" || flag == "--help" {
        print(usage)
        exit(0)
    }
    guard let value = arguments.popFirst() else { fail("\(flag) needs a value") }
    switch flag {
    case "--events": configuration.eventCount = count(value, for: flag, minimum: 0)
    case "--seed":
        guard let seed = UInt64(value) else { fail("--seed needs an unsigned 64-bit integer, got '\(value)'") }
        configuration.seed = seed
    case "--start":
        guard let start = SampleDate(iso8601: value) else { fail("--start needs a date as YYYY-MM-DD, got '\(value)'") }
        configuration.start = start
    case "--days": configuration.days = count(value, for: flag, minimum: 1)
    case "--per-page": configuration.eventsPerPage = count(value, for: flag, minimum: 1)
    case "--out": outputPath = value
    default: fail("unknown option \(flag)")
    }
}

let clock = ContinuousClock()
let started = clock.now
let directory = URL(fileURLWithPath: outputPath, isDirectory: true)
do {
    let world = SampleWorld(configuration: configuration)
    let summary = try world.writeSongkickJSON(to: directory)
    let elapsed = clock.now - started
    print("wrote \(summary.events) events in \(summary.files) files (\(summary.bytes) bytes) to \(directory.path) in \(elapsed)")
} catch {
    FileHandle.standardError.write(Data("encore-sample: \(error)\n".utf8))
    exit(1)
}
