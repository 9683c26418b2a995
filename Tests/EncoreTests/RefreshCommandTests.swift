import Foundation
import GRDB
import SampleWorld
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `encore refresh` against real servers on 127.0.0.1, run as the nightly job runs it.
@Suite(.serialized)
struct RefreshCommandTests {
    let directory: URL
    let db: String

    init() throws {
        directory = try TestSupport.temporaryDirectory()
        db = directory.appendingPathComponent("encore.sqlite").path
    }

    /// Songkick's calendar from the fixture for every metro area, after `delay` seconds.
    func songkickServer(delay: Double = 0) throws -> LocalHTTPServer {
        let page = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("songkick-json/metro-24426-calendar.json")))
        return try LocalHTTPServer { request in
            request.path.hasSuffix("/calendar.json") ? .init(status: 200, body: page, delay: delay) : .init(status: 404)
        }
    }

    func config(_ sources: [(name: String, base: String, metros: [String])]) throws -> String {
        let text = sources.map { source in
            """
            [[source]]
            name = "\(source.name)"
            format = "songkick-json"
            base_url = "\(source.base)"
            metro_areas = [\(source.metros.map { "\"\($0)\"" }.joined(separator: ", "))]
            requests_per_second = 1000

            """
        }.joined()
        let file = directory.appendingPathComponent("encore-\(UUID().uuidString).toml")
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// Waiting for a server that takes its time must be idle: on Linux's URLSession a
    /// 30 s stall cost 27.5 s of CPU. Measured on child processes, so the other tests'
    /// work does not count, and against the same run with a prompt server, so a slow
    /// machine's start-up does not either.
    @Test func aStalledServerIsAwaitedWithoutBurningCPU() throws {
        func refresh(delay: Double) throws -> MeasuredRun {
            let server = try songkickServer(delay: delay)
            defer { server.stop() }
            let path = try config([("songkick", server.baseURL.absoluteString, ["24426"])])
            let catalog = directory.appendingPathComponent("stall-\(Int(delay)).sqlite").path
            let run = try MeasuredRun.run(["refresh", "--db", catalog, "--config", path, "--no-build"])
            #expect(run.status == 0, "\(run.stderr)")
            return run
        }
        let prompt = try refresh(delay: 0)
        let stalled = try refresh(delay: 4)
        #expect(stalled.wallSeconds >= 4)
        // A busy wait would add most of the 4 s of the stall.
        #expect(
            stalled.cpuSeconds < prompt.cpuSeconds + 2,
            "\(stalled.cpuSeconds) s of CPU in \(stalled.wallSeconds) s; \(prompt.cpuSeconds) s without the stall")
    }

    @Test func refreshLogsJSONLinesWhenAsked() throws {
        let server = try songkickServer()
        defer { server.stop() }
        let port = try HostileServerTests.closedPort()
        let path = try config([
            ("down", "http://127.0.0.1:\(port)", ["1", "2", "3"]),
            ("songkick", server.baseURL.absoluteString, ["24426"]),
        ])
        let out = directory.appendingPathComponent("feeds").path
        let run = try CLIRun.run(
            ["refresh", "--db", db, "--config", path, "--out", out, "--log-format", "json", "--today", "2026-11-22"])
        #expect(run.status == 1, "some pages failed")
        var levels: [String] = []
        for line in (run.stdout + run.stderr).split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let level = object["level"] as? String
            else {
                Issue.record("not a JSON line: \(line)")
                continue
            }
            levels.append(level)
        }
        #expect(levels.filter { $0 == "error" }.count == 1, "one message for the host given up: \(run.stderr)")
        #expect(levels.filter { $0 == "source" }.count == 2)
        #expect(levels.contains("run") && levels.contains("feeds"))
        let summary = run.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.first { $0["source"] as? String == "down" }
        #expect(summary?["pages_failed"] as? Int == 3)
    }

    /// A refresh stopped by SIGTERM records itself as killed before it exits; one killed
    /// by SIGKILL cannot, and is listed as killed once its process no longer holds the
    /// lock. While it runs, it is listed as running.
    @Test(arguments: [SIGTERM, SIGINT, SIGKILL])
    func aKilledRunIsListedAsKilled(signal: Int32) throws {
        let server = try songkickServer(delay: 20)
        defer { server.stop() }
        let path = try config([("songkick", server.baseURL.absoluteString, ["24426"])])
        let process = Process()
        process.executableURL = CLIRun.binary
        process.arguments = ["refresh", "--db", db, "--config", path, "--no-build"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while server.requests.isEmpty, Date() < deadline { usleep(20_000) }
        #expect(try runStatuses().first == "running")

        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        if signal == SIGKILL {
            #expect(process.terminationReason == .uncaughtSignal)
        } else {
            #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal)
            // Recorded, not only shown.
            let recorded = try DatabaseQueue(path: db).read { try String.fetchOne($0, sql: "SELECT status FROM run") }
            #expect(recorded == "killed")
        }
        #expect(try runStatuses() == ["killed"])
        let table = try CLIRun.run(["runs", "--db", db])
        #expect(table.stdout.contains("killed"))
    }

    func runStatuses() throws -> [String] {
        let runs = try CLIRun.run(["runs", "--db", db, "--json"])
        let list = try runs.json() as? [[String: Any]] ?? []
        return list.compactMap { $0["status"] as? String }
    }
}

/// A child process's exit status, output, wall time and CPU time (its own, from `wait4`).
struct MeasuredRun {
    let status: Int32
    let stdout: String
    let stderr: String
    let wallSeconds: Double
    let cpuSeconds: Double

    static func run(_ arguments: [String]) throws -> MeasuredRun {
        let directory = try TestSupport.temporaryDirectory()
        let outPath = directory.appendingPathComponent("stdout").path
        let errPath = directory.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let binary = CLIRun.binary.path
        var environment = ProcessInfo.processInfo.environment
        environment["ENCORE_DB"] = nil
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        let started = Date()
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = Date().timeIntervalSince(started)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        let exited = status & 0x7f == 0
        return MeasuredRun(
            status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            wallSeconds: wall, cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
}
