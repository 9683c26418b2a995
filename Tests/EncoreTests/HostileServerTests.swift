import Foundation
import Ingest
import SampleWorld
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Servers as an operator's worst night brings them, real on 127.0.0.1: the fetcher must
/// end every exchange in bounded time, memory and CPU.
@Suite(.serialized)
struct HostileServerTests {
    func fetcher(_ recorder: SleepRecorder, _ change: (inout FetchPolicy) -> Void = { _ in }) -> HTTPFetcher {
        var policy = FetchPolicy()
        policy.timeout = 5
        change(&policy)
        return HTTPFetcher(policy: policy, sleep: { recorder.record($0) }, jitter: { 0.5 })
    }

    /// A server that never sends its headers is given up on each attempt at the policy's
    /// timeout, and the message says so (it said "NSURLErrorDomain error -1001").
    @Test func aServerThatSendsNoHeadersTimesOutWithAMessageThatSaysSo() async throws {
        let server = try LocalHTTPServer { _ in .init(status: 200, delay: 3) }
        defer { server.stop() }
        let result = await fetcher(SleepRecorder()) {
            $0.timeout = 0.5
            $0.maxAttempts = 2
        }.fetch(server.baseURL, requestsPerSecond: 1000)
        guard case .failed(let failure) = result else { Issue.record("expected a failure, got \(result)"); return }
        #expect(failure.kind == .gaveUp)
        #expect(failure.description.hasSuffix(": timed out after 1 s (2 attempts)"), "\(failure)")
    }

    @Test func aRetryAfterPastTheCapFailsTheURLAtOnceInsteadOfWaiting() async throws {
        let server = try LocalHTTPServer { _ in .init(status: 429, headers: ["Retry-After": "100000"]) }
        defer { server.stop() }
        let recorder = SleepRecorder()
        let result = await fetcher(recorder).fetch(server.baseURL, requestsPerSecond: 1000)
        guard case .failed(let failure) = result else { Issue.record("expected a failure, got \(result)"); return }
        #expect(failure.kind == .waitTooLong)
        #expect(failure.description.contains("27 h 46 min"), "\(failure)")
        #expect(server.requests.count == 1)
        #expect(recorder.recorded.allSatisfy { $0 < 1 }, "waited \(recorder.recorded)")
    }

    @Test func theCapIsConfigurableAndAWaitWithinItIsObeyed() async throws {
        let calls = Counter()
        let server = try LocalHTTPServer { _ in
            calls.increment() == 1 ? .init(status: 429, headers: ["Retry-After": "600"]) : .init(status: 200, body: Data("{}".utf8))
        }
        defer { server.stop() }
        let recorder = SleepRecorder()
        let result = await fetcher(recorder) { $0.maxRetryAfter = 900 }.fetch(server.baseURL, requestsPerSecond: 1000)
        guard case .fetched = result else { Issue.record("expected a page, got \(result)"); return }
        #expect(recorder.recorded.contains(600))
    }

    @Test func retryAfterOn503IsObeyedAndCapped() async throws {
        let calls = Counter()
        let server = try LocalHTTPServer { request in
            if request.path == "/forever" { return .init(status: 503, headers: ["Retry-After": "86400"]) }
            return calls.increment() == 1
                ? .init(status: 503, headers: ["Retry-After": "7"]) : .init(status: 200, body: Data("{}".utf8))
        }
        defer { server.stop() }
        let recorder = SleepRecorder()
        let result = await fetcher(recorder).fetch(server.baseURL.appendingPathComponent("soon"), requestsPerSecond: 1000)
        guard case .fetched = result else { Issue.record("expected a page, got \(result)"); return }
        // 7 s as asked, not the backoff's 1 s.
        #expect(recorder.recorded.filter { $0 >= 0.5 } == [7])

        let forever = await fetcher(recorder).fetch(server.baseURL.appendingPathComponent("forever"), requestsPerSecond: 1000)
        guard case .failed(let failure) = forever else { Issue.record("expected a failure, got \(forever)"); return }
        #expect(failure.kind == .waitTooLong && failure.status == 503)
        #expect(server.requests.filter { $0.path == "/forever" }.count == 1)
    }

    @Test func aRedirectLoopIsNotRetried() async throws {
        let server = try LocalHTTPServer { request in .init(status: 302, headers: ["Location": request.rawTarget]) }
        defer { server.stop() }
        let recorder = SleepRecorder()
        let result = await fetcher(recorder).fetch(server.baseURL.appendingPathComponent("loop"), requestsPerSecond: 1000)
        guard case .failed(let failure) = result else { Issue.record("expected a failure, got \(result)"); return }
        #expect(failure.kind == .permanent)
        #expect(failure.reason.contains("redirect"), "\(failure)")
        #expect(failure.attempts == 1)
        // The request and 10 redirects, once (it was 5 × 21).
        #expect(server.requests.count <= 11, "\(server.requests.count) requests")
    }

    @Test func aRedirectOnTheSameHostIsFollowedAndOneToAnotherHostIsNot() async throws {
        let elsewhere = try LocalHTTPServer { _ in .init(status: 200, body: Data("elsewhere".utf8)) }
        defer { elsewhere.stop() }
        let server = try LocalHTTPServer { request in
            switch request.path {
            case "/old": .init(status: 301, headers: ["Location": "/new"])
            case "/new": .init(status: 200, body: Data("new".utf8))
            default: .init(status: 302, headers: ["Location": "http://localhost:\(elsewhere.port)/away"])
            }
        }
        defer { server.stop() }
        let recorder = SleepRecorder()
        let moved = await fetcher(recorder).fetch(server.baseURL.appendingPathComponent("old"), requestsPerSecond: 1000)
        guard case .fetched(let body, _) = moved else { Issue.record("expected a page, got \(moved)"); return }
        #expect(body == Data("new".utf8))

        let away = await fetcher(recorder).fetch(server.baseURL.appendingPathComponent("away"), requestsPerSecond: 1000)
        guard case .failed(let failure) = away else { Issue.record("expected a failure, got \(away)"); return }
        #expect(failure.kind == .permanent && failure.attempts == 1)
        #expect(failure.reason.contains("redirected to another host (http://localhost:\(elsewhere.port)/away)"), "\(failure)")
        #expect(elsewhere.requests.isEmpty)
    }

    /// The body is counted as it arrives and reading stops at the limit, whether or not
    /// its length is announced: the server cannot send much more than the limit (socket
    /// buffers aside), so what the client holds stays bounded.
    @Test(arguments: [true, false])
    func aBodyPastTheLimitIsStoppedAsItArrives(announced: Bool) async throws {
        let server = try LocalHTTPServer { _ in .init(status: 200, generatedLength: 1 << 30, announcesLength: announced) }
        defer { server.stop() }
        let recorder = SleepRecorder()
        let result = await fetcher(recorder) { $0.maxBodyBytes = 1 << 20 }.fetch(server.baseURL, requestsPerSecond: 1000)
        guard case .failed(let failure) = result else { Issue.record("expected a failure, got \(result)"); return }
        #expect(failure.kind == .tooLarge, "\(failure)")
        #expect(server.requests.count == 1)
        // Give the server a moment to notice the closed connection.
        try await Task.sleep(for: .milliseconds(200))
        #expect(server.bodyBytesSent < 32 << 20, "the server sent \(server.bodyBytesSent) bytes")
    }

    @Test func aBodyWithinTheLimitArrivesWhole() async throws {
        let server = try LocalHTTPServer { _ in .init(status: 200, generatedLength: 3 << 20, announcesLength: false) }
        defer { server.stop() }
        let result = await fetcher(SleepRecorder()) { $0.maxBodyBytes = 4 << 20 }.fetch(server.baseURL, requestsPerSecond: 1000)
        guard case .fetched(let body, _) = result else { Issue.record("expected a page, got \(result)"); return }
        #expect(body.count == 3 << 20)
    }

    @Test func aHostRefusingConnectionsIsAbandonedAfterAFewAttempts() async throws {
        let port = try Self.closedPort()
        let transport = CountingTransport()
        let recorder = SleepRecorder()
        let fetcher = HTTPFetcher(transport: transport, sleep: { recorder.record($0) }, jitter: { 0.5 })
        var failures: [FetchFailure] = []
        for page in 1...6 {
            let url = URL(string: "http://127.0.0.1:\(port)/calendar.json?page=\(page)")!
            guard case .failed(let failure) = await fetcher.fetch(url, requestsPerSecond: 1000) else {
                Issue.record("expected a failure")
                return
            }
            failures.append(failure)
        }
        // Three connections in a row failed: not asked again this run.
        #expect(transport.calls == 3)
        #expect(failures.allSatisfy { $0.kind == .hostAbandoned })
        #expect(failures[0].reason.contains("127.0.0.1:\(port) failed 3 connections in a row"), "\(failures[0])")
        #expect(failures.dropFirst().allSatisfy { $0.attempts == 0 })
        #expect(recorder.recorded.filter { $0 >= 0.5 } == [1, 2])
        // Another host is still asked.
        let server = try LocalHTTPServer { _ in .init(status: 200, body: Data("{}".utf8)) }
        defer { server.stop() }
        guard case .fetched = await fetcher.fetch(server.baseURL, requestsPerSecond: 1000) else {
            Issue.record("expected a page")
            return
        }
    }

    /// The transport keeps connections alive, as URLSession did: a crawl of thousands of
    /// pages must not pay a TLS handshake a page.
    @Test func pagesOfACrawlShareOneConnection() async throws {
        let server = try LocalHTTPServer { request in .init(status: 200, body: Data(request.path.utf8)) }
        defer { server.stop() }
        let fetcher = HTTPFetcher(sleep: { _ in }, jitter: { 0 })
        for page in 1...5 {
            guard case .fetched(let body, _) = await fetcher.fetch(
                server.baseURL.appendingPathComponent("page-\(page)"), requestsPerSecond: 1000)
            else {
                Issue.record("expected a page")
                return
            }
            #expect(body == Data("/page-\(page)".utf8))
        }
        #expect(server.connectionsAccepted == 1)
    }

    /// A port nothing listens on: bound, then closed.
    static func closedPort() throws -> UInt16 {
        let server = try LocalHTTPServer { _ in .init(status: 200) }
        let port = server.port
        server.stop()
        return port
    }
}

/// The production transport, counting its exchanges.
final class CountingTransport: HTTPTransport, @unchecked Sendable {
    private let inner = CurlTransport()
    private let counter = Counter()
    var calls: Int { counter.value }

    func get(_ url: URL, headers: [String: String], timeout: Double, maxBodyBytes: Int) async throws -> HTTPResponse {
        _ = counter.increment()
        return try await inner.get(url, headers: headers, timeout: timeout, maxBodyBytes: maxBodyBytes)
    }
}
