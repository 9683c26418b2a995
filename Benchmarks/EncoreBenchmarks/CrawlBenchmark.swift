import Foundation
import SampleWorld

/// A night's crawl of a whole scene (issue 48): venue sites served by ``VenueScene``, each
/// on a loopback address of its own, crawled by whole `encore refresh --config` processes
/// at `requests_per_second = 1`: robots.txt, a calendar and four event pages a host (six
/// requests, 5 s for one host alone). Politeness is read from the servers' logs.
enum CrawlBenchmark {
    struct Night {
        var measurement: ChildProcess.Measurement
        /// Each server's requests of the last night, by path.
        var requests: [[String]]
        /// The shortest time between two requests one server received, over all nights.
        var gap: Duration?
    }

    static func run(encore: String, work: URL, report: inout Report) throws {
        let one = try night(hosts: 1, subnet: 100, encore: encore, work: work)
        let five = try night(hosts: 5, subnet: 110, encore: encore, work: work)
        let twenty = try night(hosts: 20, subnet: 120, encore: encore, work: work)
        let many = try night(hosts: 500, subnet: 130, encore: encore, work: work)
        let base = one.measurement.seconds
        print(String(format: "  one host alone: %.2f s (6 requests at 1 a second)", base))
        report.figure(
            "20 hosts ÷ one host", String(format: "%.2f× (%.2f s)", twenty.measurement.seconds / base, twenty.measurement.seconds),
            target: "≤ 2×", met: twenty.measurement.seconds <= 2 * base)
        report.figure(
            "500 hosts ÷ one host", String(format: "%.2f× (%.2f s)", many.measurement.seconds / base, many.measurement.seconds),
            target: "≤ 3×", met: many.measurement.seconds <= 3 * base)
        let gap = [one, five, twenty, many].compactMap(\.gap).min() ?? .zero
        report.figure(
            "shortest gap a server saw (its own log)", String(format: "%.4f s", gap.seconds), target: "≥ 1 s",
            met: gap >= .seconds(1))
        let extra = many.measurement.peakResidentBytes - five.measurement.peakResidentBytes
        report.figure(
            "peak RSS, 500 hosts − 5 hosts",
            "\(megabytes(extra)) (\(megabytes(five.measurement.peakResidentBytes)) → \(megabytes(many.measurement.peakResidentBytes)))",
            target: "≤ 50 MB", met: extra <= 50 * 1_048_576)
        let asked = many.requests.map(\.count).reduce(0, +)
        print("  500 hosts: \(asked) requests, \(many.requests.filter { $0.count == 6 }.count) hosts asked 6 times")

        // An unchanged night with sitemaps' lastmod: robots.txt, the sitemap, and pages only
        // if their lastmod is newer than their last fetch.
        let sitemapped = try night(hosts: 20, subnet: 160, encore: encore, work: work, sitemaps: true, nights: 2)
        let beyond = sitemapped.requests.map { paths in paths.filter { $0 != "/robots.txt" && $0 != "/sitemap.xml" }.count }
        report.figure(
            "lastmod night, requests beyond the sitemap",
            "at most \(beyond.max() ?? 0) a host (20 hosts)", target: "≤ 1", met: (beyond.max() ?? 0) <= 1)
    }

    /// Crawls `hosts` venue sites `nights` times into one catalog; the last night's
    /// measurement and each server's requests of that night.
    static func night(
        hosts: Int, subnet: Int, encore: String, work: URL, sitemaps: Bool = false, nights: Int = 1
    ) throws -> Night {
        var options = VenueScene.Options()
        options.subnet = subnet
        let scene = try VenueScene(venues: hosts, options: options)
        defer { scene.stop() }
        let folder = work.appendingPathComponent("scene-\(hosts)-\(subnet)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let venues = "# the scene's venue calendars\n" + scene.calendarURLs.map(\.absoluteString).joined(separator: "\n") + "\n"
        try venues.write(to: folder.appendingPathComponent("venues.txt"), atomically: true, encoding: .utf8)
        let config = """
            [[source]]
            name = "scene"
            format = "jsonld"
            urls_file = "venues.txt"
            follow = "http://127.0.*/events/*"
            requests_per_second = 1
            max_pages = 100000
            contact = "bench@example.org"
            \(sitemaps ? "sitemaps = true" : "")
            """
        let configPath = folder.appendingPathComponent("encore.toml")
        try config.write(to: configPath, atomically: true, encoding: .utf8)
        let database = folder.appendingPathComponent("catalog.sqlite").path
        var measurement: ChildProcess.Measurement?
        var before: [Int] = []
        for _ in 0..<nights {
            before = scene.servers.map(\.requests.count)
            measurement = try ChildProcess.run(encore, ["refresh", "--config", configPath.path, "--db", database, "--no-build", "--quiet"])
            guard measurement?.status == 0 else { throw BenchmarkError("refresh of \(hosts) hosts failed: \(measurement!.status)") }
        }
        let requests = zip(scene.servers, before).map { server, count in server.requests.dropFirst(count).map(\.path) }
        return Night(measurement: measurement!, requests: requests, gap: scene.shortestGap)
    }
}

extension Duration {
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
