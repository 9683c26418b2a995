import Foundation
import Ingest
import SampleWorld
import Testing

/// Records the waits the fetcher asks for instead of sleeping.
final class SleepRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var delays: [Double] = []
    var recorded: [Double] { lock.withLock { delays } }
    func record(_ seconds: Double) { lock.withLock { delays.append(seconds) } }
}

@Suite(.serialized)
struct HTTPFetcherTests {
    func fetcher(_ recorder: SleepRecorder, secrets: [String] = []) -> HTTPFetcher {
        var policy = FetchPolicy()
        policy.timeout = 2
        return HTTPFetcher(policy: policy, secrets: secrets, sleep: { recorder.record($0) }, jitter: { 0.5 })
    }

    @Test func retriesServerErrorsWithExponentialBackoff() async throws {
        let calls = Counter()
        let server = try LocalHTTPServer { _ in
            calls.increment() <= 2 ? .init(status: [500, 503][calls.value - 1]) : .init(status: 200, body: Data("ok".utf8))
        }
        defer { server.stop() }
        let recorder = SleepRecorder()
        let result = await fetcher(recorder).fetch(server.baseURL.appendingPathComponent("page"), requestsPerSecond: 1000)
        guard case .fetched(let body, _) = result else { Issue.record("expected a page, got \(result)"); return }
        #expect(body == Data("ok".utf8))
        #expect(server.requests.count == 3)
        // Jitter fixed at 0.5 makes the factor 1: delays of 1 s then 2 s.
        #expect(recorder.recorded.filter { $0 >= 0.5 } == [1, 2])
    }

    @Test func honoursRetryAfterOn429() async throws {
        let calls = Counter()
        let server = try LocalHTTPServer { _ in
            calls.increment() == 1 ? .init(status: 429, headers: ["Retry-After": "7"]) : .init(status: 200, body: Data("{}".utf8))
        }
        defer { server.stop() }
        let recorder = SleepRecorder()
        _ = await fetcher(recorder).fetch(server.baseURL, requestsPerSecond: 1000)
        #expect(recorder.recorded.contains(7))
        #expect(server.requests.count == 2)
    }

    @Test func doesNotRetryClientErrorsAndRedactsTheKey() async throws {
        let server = try LocalHTTPServer { _ in .init(status: 403) }
        defer { server.stop() }
        let recorder = SleepRecorder()
        let url = URL(string: "\(server.baseURL)/calendar.json?apikey=s3cr3t-key&page=1")!
        let result = await fetcher(recorder, secrets: ["s3cr3t-key"]).fetch(url, requestsPerSecond: 1000)
        guard case .failed(let failure) = result else { Issue.record("expected a failure"); return }
        #expect(server.requests.count == 1)
        #expect(failure.status == 403)
        #expect(!failure.description.contains("s3cr3t-key"))
        #expect(failure.description.contains("apikey=REDACTED"))
    }

    @Test func conditionalRequestsGet304() async throws {
        let server = try LocalHTTPServer { request in
            request.headers["if-none-match"] == "\"v1\"" ? .init(status: 304) : .init(status: 200, headers: ["ETag": "\"v1\""], body: Data("{}".utf8))
        }
        defer { server.stop() }
        let recorder = SleepRecorder()
        let first = await fetcher(recorder).fetch(server.baseURL, requestsPerSecond: 1000)
        guard case .fetched(_, let validators) = first else { Issue.record("expected a page"); return }
        #expect(validators.etag == "\"v1\"")
        let second = await fetcher(recorder).fetch(server.baseURL, requestsPerSecond: 1000, validators: validators)
        guard case .notModified = second else { Issue.record("expected 304, got \(second)"); return }
    }

    @Test func aServerWithOnlyLastModifiedGets304ForAnUnchangedPage() async throws {
        let stamp = "Mon, 23 Nov 2026 04:00:00 GMT"
        let server = try LocalHTTPServer { request in
            request.headers["if-modified-since"] == stamp
                ? .init(status: 304) : .init(status: 200, headers: ["Last-Modified": stamp], body: Data("{}".utf8))
        }
        defer { server.stop() }
        let recorder = SleepRecorder()
        let first = await fetcher(recorder).fetch(server.baseURL, requestsPerSecond: 1000)
        guard case .fetched(_, let validators) = first else { Issue.record("expected a page"); return }
        #expect(validators.etag == nil && validators.lastModified == stamp)
        let second = await fetcher(recorder).fetch(server.baseURL, requestsPerSecond: 1000, validators: validators)
        guard case .notModified = second else { Issue.record("expected 304, got \(second)"); return }
        #expect(server.requests.last?.headers["if-none-match"] == nil)
    }

    @Test func retriesATruncatedBodyOrAStall() async throws {
        let calls = Counter()
        let server = try LocalHTTPServer { _ in
            switch calls.increment() {
            case 1: return .init(status: 200, body: Data(repeating: 65, count: 1000), truncateAfter: 10)
            case 2: return .init(status: 200, body: Data("late".utf8), delay: 3)
            default: return .init(status: 200, body: Data("ok".utf8))
            }
        }
        defer { server.stop() }
        let result = await fetcher(SleepRecorder()).fetch(server.baseURL, requestsPerSecond: 1000)
        guard case .fetched(let body, _) = result else { Issue.record("expected a page, got \(result)"); return }
        #expect(body == Data("ok".utf8))
        #expect(server.requests.count == 3)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() -> Int { lock.withLock { count += 1; return count } }
}
