import Foundation
import SampleWorld

// encore-sample: writes the deterministic sample world as recorded-looking API responses
// (Songkick JSON by default; any of the other formats with --formats).
// Arguments are parsed by hand so the target depends on SampleWorld (and Foundation) only.

let usage = """
    usage: encore-sample [--events N] [--seed S] [--start YYYY-MM-DD] [--days D] [--per-page P]
                         [--formats F,F,...] [--variations] [--similar] [--out DIR] [--serve PORT]
           encore-sample --scene N
      --events N          events to generate (default 1000)
      --seed S            random seed, an unsigned 64-bit integer (default 2026)
      --start YYYY-MM-DD  first day events may start (default 2026-11-01)
      --days D            length of the window events start in (default 240)
      --per-page P        events per calendar page (default 50)
      --formats F,F,...   formats to write (default songkick-json), or "all":
                          \(SampleFormat.allCases.map(\.rawValue).joined(separator: ", "))
      --variations        Bandsintown lists concerts the way real sources differ (venue spellings,
                          city-centre positions, doors times, "feat." credits, festivals per set)
                          and lookalike concerts (matinees, namesakes, tribute bands, similarly
                          named rooms nearby); Ticketmaster lists them its way (sponsors' names,
                          tour titles, packages, parking passes, per-day festival tickets);
                          labels.tsv then names each record's variations
      --similar           also write similar-artist lists of the most popular artists in
                          ListenBrainz's and Last.fm's shapes (DIR/similar/listenbrainz, DIR/similar/lastfm)
      --out DIR           output directory (default Fixtures/sample)
      --serve PORT        then serve the Songkick, Last.fm and SeatGeek pages written over HTTP on
                          127.0.0.1:PORT with those APIs' URLs and paging (key: "sample-key"),
                          the JSON-LD venue pages as a web site (/venues/, robots.txt) and
                          an iCalendar feed of them (/feeds/gig-guide.ics),
                          and print an encore.toml that crawls them; stop with Ctrl-C
      --scene N           only serve a city's scene of N venue web sites, each on a loopback
                          address of its own (127.0.0.2, 127.0.0.3, …: N hosts) with robots.txt,
                          a sitemap with lastmod, a calendar and JSON-LD event pages; print a
                          venues.txt and an encore.toml that crawl them; stop with Ctrl-C
    Each format goes to its own folder under DIR (replaced). With any format besides
    Songkick's, DIR/labels.tsv says which records of which sources are the same concert.
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
var formats: Set<SampleFormat> = [.songkickJSON]
var servePort: UInt16?
var sceneHosts: Int?
var arguments = CommandLine.arguments.dropFirst()
var writesSimilarArtists = false
while let flag = arguments.popFirst() {
    if flag == "-h" || flag == "--help" {
        print(usage)
        exit(0)
    }
    if flag == "--variations" {
        configuration.realisticVariations = true
        continue
    }
    if flag == "--similar" {
        writesSimilarArtists = true
        continue
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
    case "--scene": sceneHosts = count(value, for: flag, minimum: 1)
    case "--serve":
        guard let port = UInt16(value) else { fail("--serve needs a port number, got '\(value)'") }
        servePort = port
    case "--formats":
        if value == "all" {
            formats = Set(SampleFormat.allCases)
        } else {
            formats = []
            for name in value.split(separator: ",", omittingEmptySubsequences: false) {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                guard let format = SampleFormat(rawValue: trimmed) else { fail("unknown format '\(trimmed)'") }
                formats.insert(format)
            }
        }
    default: fail("unknown option \(flag)")
    }
}

if let sceneHosts {
    do {
        let scene = try VenueScene(venues: sceneHosts)
        let venues = scene.calendarURLs.map(\.absoluteString).joined(separator: "\n")
        print("""
            serving \(sceneHosts) venue sites on 127.0.x.y; save the list as venues.txt beside encore.toml
            # venues.txt
            \(venues)
            # encore.toml
            [[source]]
            name = "scene"
            format = "jsonld"
            urls_file = "venues.txt"
            follow = "http://*/events/*"
            sitemaps = true
            max_pages = \(sceneHosts * 10)
            contact = "you@example.org"
            """)
        fflush(nil)
        while true { sleep(3600) }
    } catch {
        fail("cannot serve the scene: \(error)")
    }
}

let clock = ContinuousClock()
let directory = URL(fileURLWithPath: outputPath, isDirectory: true)
func report(_ what: String, _ summary: WriteSummary, _ elapsed: Duration, records: String = "events") {
    print("\(what): \(summary.events) \(records) in \(summary.files) files (\(summary.bytes) bytes) in \(elapsed)")
}
do {
    let started = clock.now
    let world = SampleWorld(configuration: configuration)
    var total = WriteSummary()
    for format in SampleFormat.allCases where formats.contains(format) {
        let start = clock.now
        let summary = try world.write(format, to: directory)
        report(format.rawValue, summary, clock.now - start)
        total = total + summary
    }
    if writesSimilarArtists {
        let start = clock.now
        let summary = try SimilarArtistsWriter(world: world).write(to: directory)
        report("similar", summary, clock.now - start, records: "lists")
        total = total + summary
    }
    if formats.contains(where: { $0.source != "songkick" }) {
        let start = clock.now
        let summary = try world.writeLabels(for: formats, to: directory)
        report("labels.tsv", summary, clock.now - start, records: "rows")
        total = total + summary
    }
    let elapsed = clock.now - started
    print("wrote \(total.files) files (\(total.bytes) bytes) to \(directory.path) in \(elapsed)")
    if let servePort {
        let server = try SampleAPIServer(corpus: directory, apiKey: "sample-key", port: servePort)
        // Unbuffered from here: the process then serves until killed.
        fflush(nil)
        FileHandle.standardOutput.write(Data("""
            serving on \(server.baseURL.absoluteString); export SONGKICK_API_KEY=sample-key LASTFM_API_KEY=sample-key SEATGEEK_API_KEY=sample-key
            # encore.toml
            \(server.sourcesConfiguration())
            """.utf8))
        while true { sleep(3600) }
    }
} catch {
    FileHandle.standardError.write(Data("encore-sample: \(error)\n".utf8))
    exit(1)
}
