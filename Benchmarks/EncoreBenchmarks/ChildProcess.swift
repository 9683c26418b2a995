import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to completion and measures it as the operating system sees it:
/// wall-clock time, the child's CPU time in user space and in the kernel, and its peak
/// resident set size (from `wait4`).
struct ChildProcess {
    struct Measurement {
        let status: Int32
        let seconds: Double
        let userSeconds: Double
        let systemSeconds: Double
        let peakResidentBytes: Int

        /// "user 1.21 s, system 2.11 s": a build whose kernel share grows is paying for
        /// the pages it writes, not for rendering.
        var cpu: String { String(format: "user %.2f s, system %.2f s", userSeconds, systemSeconds) }
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], quiet: Bool = true)
        throws -> Measurement
    {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if quiet { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }

        let start = DispatchTime.now().uptimeNanoseconds
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw BenchmarkError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchmarkError("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        // Linux reports ru_maxrss in kilobytes.
        func cpuSeconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Measurement(
            status: exitStatus, seconds: seconds, userSeconds: cpuSeconds(usage.ru_utime),
            systemSeconds: cpuSeconds(usage.ru_stime), peakResidentBytes: Int(usage.ru_maxrss) * 1024)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
