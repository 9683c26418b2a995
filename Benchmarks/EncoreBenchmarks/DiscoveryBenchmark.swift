import Catalog
import Foundation
import GRDB

/// Issue 49's bounds: importing a 200 MB extended streaming history (peak RSS against an
/// empty import's, time against Python's `json` reading the same file), and `discover`
/// and the ranked `feed` against `near` with the same radius and window, whole processes.
enum DiscoveryBenchmark {
    /// A generated extended streaming history of about `megabytes` MB: 30,000 artists,
    /// a few played far more than the rest, one row in twenty a podcast (no artist).
    static func writeHistory(to path: String, megabytes: Int) throws {
        guard let file = FileHandle(forWritingAtPath: path) ?? {
            FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }() else { throw BenchmarkError("cannot write \(path)") }
        defer { try? file.close() }
        var state: UInt64 = 49
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var chunk = "["
        var written = 0
        var first = true
        while written < megabytes << 20 {
            let row = next()
            let artist = Int(Double(30_000) * pow(Double(row % 1_000_000) / 1_000_000, 3))
            let podcast = row % 20 == 0
            let name = podcast ? "null" : "\"Artist \(artist) & the Ünïcode Band\""
            chunk += (first ? "\n" : ",\n") + """
                {"ts":"2024-06-15T10:30:00Z","username":"bench","platform":"linux","ms_played":\(row % 300_000),\
                "conn_country":"ES","ip_addr_decrypted":null,"user_agent_decrypted":null,\
                "master_metadata_track_name":\(podcast ? "null" : "\"Track \(row % 977)\""),\
                "master_metadata_album_artist_name":\(name),"master_metadata_album_album_name":\(podcast ? "null" : "\"Album\""),\
                "spotify_track_uri":"spotify:track:0aaaaaaaaaaaaaaaaaaaaa","episode_name":\(podcast ? "\"Episode\"" : "null"),\
                "episode_show_name":null,"spotify_episode_uri":null,"reason_start":"trackdone","reason_end":"trackdone",\
                "shuffle":false,"skipped":null,"offline":false,"offline_timestamp":0,"incognito_mode":false}
                """
            first = false
            if chunk.utf8.count > 1 << 20 {
                file.write(Data(chunk.utf8))
                written += chunk.utf8.count
                chunk = ""
            }
        }
        file.write(Data((chunk + "\n]\n").utf8))
    }

    static func runImport(encore: String, work: URL, report: inout Report) throws {
        let history = work.appendingPathComponent("Streaming_History_Audio_bench.json").path
        let empty = work.appendingPathComponent("Streaming_History_Audio_empty.json").path
        let database = work.appendingPathComponent("listening.sqlite").path
        try writeHistory(to: history, megabytes: 200)
        try "[]\n".write(toFile: empty, atomically: true, encoding: .utf8)
        let size = (try FileManager.default.attributesOfItem(atPath: history)[.size] as? Int) ?? 0
        print("  generated a \(megabytes(size)) extended streaming history")
        let script = "import json, sys\nwith open(sys.argv[1], 'rb') as f: json.load(f)"
        var encoreTimes: [Double] = []
        var pythonTimes: [Double] = []
        var emptyPeak = Int.max
        var fullPeak = 0
        for _ in 0..<3 {
            let nothing = try ChildProcess.run(encore, ["track", "import", "--dry-run", "--db", database, empty])
            guard nothing.status == 0 else { throw BenchmarkError("empty import failed with status \(nothing.status)") }
            emptyPeak = min(emptyPeak, nothing.peakResidentBytes)
            let full = try ChildProcess.run(encore, ["track", "import", "--dry-run", "--db", database, history])
            guard full.status == 0 else { throw BenchmarkError("import failed with status \(full.status)") }
            encoreTimes.append(full.seconds)
            fullPeak = max(fullPeak, full.peakResidentBytes)
            let python = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, history])
            guard python.status == 0 else { throw BenchmarkError("python3 failed with status \(python.status)") }
            pythonTimes.append(python.seconds)
        }
        let encoreTime = median(encoreTimes)
        let pythonTime = median(pythonTimes)
        report.figure(
            "import 200 MB history: time vs python json", String(format: "%.2f s vs %.2f s (%.2f×)", encoreTime, pythonTime, encoreTime / pythonTime),
            target: "≤ 1× python", met: encoreTime <= pythonTime)
        report.figure(
            "import 200 MB history: peak RSS over empty", "\(megabytes(fullPeak - emptyPeak)) (\(megabytes(fullPeak)))",
            target: "≤ 100 MB", met: fullPeak - emptyPeak <= 100 << 20)
    }

    /// 100 followed artists (those with the most shows), home at the busiest venue,
    /// similar lists from `encore-sample --similar`; medians of 5 alternated runs.
    static func runQueries(database: String, encore: String, sample: String, events: Int, work: URL, report: inout Report) throws {
        let similar = work.appendingPathComponent("similar-corpus").path
        let generation = try ChildProcess.run(sample, ["--events", String(events), "--similar", "--out", similar])
        guard generation.status == 0 else { throw BenchmarkError("encore-sample --similar failed") }
        let lists = try ChildProcess.run(encore, ["ingest", "--db", database, similar + "/similar"])
        guard lists.status == 0 else { throw BenchmarkError("ingesting similar lists failed with status \(lists.status)") }
        let queue = try DatabaseQueue(path: database)
        let (names, centre) = try queue.read { db -> ([String], (Double, Double)) in
            let names = try String.fetchAll(db, sql: """
                SELECT a.name FROM artist a JOIN lineup l ON l.artist_id = a.id GROUP BY a.id ORDER BY COUNT(*) DESC, a.id LIMIT 100
                """)
            let row = try Row.fetchOne(db, sql: """
                SELECT v.latitude, v.longitude FROM venue v JOIN event e ON e.venue_id = v.id
                WHERE v.latitude IS NOT NULL GROUP BY v.id ORDER BY COUNT(*) DESC, v.id LIMIT 1
                """)!
            return (names, (row[0], row[1]))
        }
        let list = work.appendingPathComponent("followed.txt").path
        try names.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let at = String(format: "%.5f,%.5f", centre.0, centre.1)
        for setup in [
            ["settings", "--db", database, "--user", "bench", "--home", at, "--radius", "50km"],
            ["track", "artist", "--db", database, "--user", "bench", "--from-file", list],
        ] {
            let run = try ChildProcess.run(encore, setup)
            guard run.status == 0 || run.status == 1 else { throw BenchmarkError("\(setup[0]) failed with status \(run.status)") }
        }
        let window = ["--to", "+180d"]
        let commands: [(String, [String])] = [
            ("near", ["near", "--db", database, "--at", at, "--radius", "50km", "--json"] + window),
            ("discover", ["discover", "--db", database, "--user", "bench", "--json"] + window),
            ("feed", ["feed", "--db", database, "--user", "bench", "--json"] + window),
        ]
        var times: [String: [Double]] = [:]
        for round in 0..<6 {
            for (name, arguments) in commands {
                let run = try ChildProcess.run(encore, arguments)
                guard run.status == 0 || run.status == 1 else { throw BenchmarkError("\(name) failed with status \(run.status)") }
                if round > 0 { times[name, default: []].append(run.seconds) }
            }
        }
        let near = median(times["near"]!)
        for name in ["discover", "feed"] {
            let time = median(times[name]!)
            report.figure(
                "\(name) (100 followed) vs near, 50 km", String(format: "%.3f s vs %.3f s (%.2f×)", time, near, time / near),
                target: "≤ 2× near", met: time <= 2 * near)
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
