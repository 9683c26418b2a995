import Catalog
import Foundation
import Geo
import Listings

/// Radius and metro-area queries on a large catalog, in process, against the same
/// queries answered by a brute-force scan in the same run.
enum GeoBenchmark {
    static func run(database: String, encore: String, report: inout Report) throws {
        let catalog = try CatalogDatabase(path: database)
        let metros = try catalog.metroAreas(today: LocalDate(iso: "2026-11-01")!)
            .filter { $0.latitude != nil && $0.longitude != nil }
        guard !metros.isEmpty else { throw BenchmarkError("the catalog has no metro areas with coordinates") }
        // Query centres: metro centres nudged a few km, so results are realistic.
        var random = SplitMix(seed: 7)
        let centres = (0..<200).map { index -> (Coordinate, Int64) in
            let metro = metros[index % metros.count]
            return (Coordinate(
                latitude: metro.latitude! + random.uniform(-0.05, 0.05),
                longitude: metro.longitude! + random.uniform(-0.05, 0.05)), metro.metroArea.id)
        }
        let start = LocalDate(iso: "2027-01-10")!
        let window = DateWindow(from: start, to: start.adding(days: 30))!
        // Answers are pages of 50, soonest first (Songkick's and Bandsintown's page size):
        // a dense metro has thousands of concerts a month, and nobody reads them at once.
        let pageSize = 50

        // One untimed pass first: the figures are for a catalog in use (pages in the OS
        // cache, statements prepared), not for the first query after a reboot.
        for (centre, metro) in centres {
            _ = try catalog.events(near: centre, radiusKilometres: 50, window: window, limit: pageSize)
            _ = try catalog.events(inMetroAreas: [metro], window: window, limit: pageSize, offset: 0)
        }
        // Three timed rounds, each query kind on its own (counting between timed queries
        // would time the page after a much larger scan); medians are over all rounds.
        let rounds = 3
        var nearTimes: [Double] = []
        for _ in 0..<rounds {
            for (centre, _) in centres {
                let began = DispatchTime.now().uptimeNanoseconds
                _ = try catalog.events(near: centre, radiusKilometres: 50, window: window, limit: pageSize)
                nearTimes.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
            }
        }
        var matches = 0
        for (centre, _) in centres {
            matches += try catalog.eventCount(near: centre, radiusKilometres: 50, window: window)
        }
        var fullTimes: [Double] = []
        for (centre, _) in centres.prefix(50) {
            let began = DispatchTime.now().uptimeNanoseconds
            _ = try catalog.events(near: centre, radiusKilometres: 50, window: window)
            fullTimes.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
        }
        var cityTimes: [Double] = []
        for _ in 0..<rounds {
            for (_, metro) in centres {
                let began = DispatchTime.now().uptimeNanoseconds
                _ = try catalog.events(inMetroAreas: [metro], window: window, limit: pageSize, offset: 0)
                cityTimes.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
            }
        }
        var scanTimes: [Double] = []
        for (centre, _) in centres.prefix(20) {
            let began = DispatchTime.now().uptimeNanoseconds
            _ = try catalog.eventsByScan(near: centre, radiusKilometres: 50, window: window, limit: pageSize)
            scanTimes.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
        }
        let near = Percentiles(nearTimes)
        let full = Percentiles(fullTimes)
        let city = Percentiles(cityTimes)
        let scan = Percentiles(scanTimes)
        print("  \(centres.count) queries (× \(rounds) rounds) around \(metros.count) metro areas; \(matches / centres.count) events match a `near` query on average, the first \(pageSize) are returned")
        report.figure("near 50 km / 30 days: median", String(format: "%.2f ms", near.median), target: "≤ 2 ms", met: near.median <= 2)
        report.figure("near 50 km / 30 days: p99", String(format: "%.2f ms", near.p99), target: "≤ 10 ms", met: near.p99 <= 10)
        print(String(format: "       near, every match in full detail: median %.1f ms, p99 %.1f ms", full.median, full.p99))
        report.figure("city (metro area) / 30 days: median", String(format: "%.2f ms", city.median), target: "≤ 2 ms", met: city.median <= 2)
        report.figure("city (metro area) / 30 days: p99", String(format: "%.2f ms", city.p99), target: "≤ 10 ms", met: city.p99 <= 10)
        let ratio = scan.median / near.median
        report.figure(
            "brute-force scan / R*Tree (median)", String(format: "%.0f× (%.1f ms)", ratio, scan.median), target: "≥ 100×",
            met: ratio >= 100)

        var processTimes: [Double] = []
        for (centre, _) in centres.prefix(15) {
            let run = try ChildProcess.run(encore, [
                "near", "--db", database, "--at", "\(centre.latitude),\(centre.longitude)", "--from", window.from.description,
                "--to", window.to.description, "--limit", String(pageSize), "--json",
            ])
            // 1 is an answer too: nothing in that window.
            guard run.status == 0 || run.status == 1 else { throw BenchmarkError("encore near failed with status \(run.status)") }
            processTimes.append(run.seconds * 1000)
        }
        let process = Percentiles(processTimes)
        report.figure(
            "`encore near --at --limit 50` process: median", String(format: "%.0f ms", process.median), target: "≤ 100 ms",
            met: process.median <= 100)
    }
}

struct Percentiles {
    let median: Double
    let p99: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        median = sorted[sorted.count / 2]
        p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    }
}

/// SplitMix64, for reproducible query centres.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) / Double(1 << 53)
    }
}
