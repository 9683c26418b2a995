import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange, as the fetcher sees it.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// Sends requests; injected so tests can count calls and production uses URLSession.
public protocol HTTPTransport: Sendable {
    func get(_ url: URL, headers: [String: String], timeout: Double) async throws -> HTTPResponse
}

/// `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    public func get(_ url: URL, headers: [String: String], timeout: Double) async throws -> HTTPResponse {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }
}

/// How hard to try, and how long to wait.
public struct FetchPolicy: Sendable {
    public var maxAttempts = 5
    /// First retry delay, doubled each time, with jitter, capped at `maxDelay`.
    public var baseDelay = 1.0
    public var maxDelay = 60.0
    public var timeout = 30.0
    public var maxBodyBytes = 20 * 1024 * 1024

    public init() {}
}

/// What a server said last time, for conditional requests.
public struct CacheValidators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// The outcome of fetching one URL.
public enum FetchResult: Sendable {
    case fetched(Data, CacheValidators)
    /// 304: the page has not changed since the validators were issued.
    case notModified
    case failed(FetchFailure)
}

/// Why a URL could not be fetched, with the key already removed from the URL.
public struct FetchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var url: String
    public var status: Int?
    public var attempts: Int
    public var reason: String

    public var description: String {
        "\(url): \(reason)" + (status.map { " (HTTP \($0))" } ?? "") + " after \(attempts) attempt\(attempts == 1 ? "" : "s")"
    }
}

/// Fetches pages politely and stubbornly: per-host rate limits, retries with
/// exponential backoff and jitter on 5xx, timeouts and resets, `Retry-After` on 429, no
/// retry on other 4xx, conditional requests, a body size cap. Secrets (API keys) are
/// replaced by `REDACTED` in every URL it reports.
public struct HTTPFetcher: Sendable {
    public let transport: any HTTPTransport
    public let policy: FetchPolicy
    public let limiter: HostRateLimiter
    public let secrets: [String]
    /// Injected so tests need not wait and can check the delays asked for.
    public let sleep: @Sendable (Double) async -> Void
    /// A number in 0..<1, injected for reproducible jitter.
    public let jitter: @Sendable () -> Double

    public init(
        transport: any HTTPTransport = URLSessionTransport(), policy: FetchPolicy = FetchPolicy(),
        limiter: HostRateLimiter = HostRateLimiter(), secrets: [String] = [],
        sleep: @escaping @Sendable (Double) async -> Void = { seconds in
            try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
        },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.transport = transport
        self.policy = policy
        self.limiter = limiter
        self.secrets = secrets.filter { !$0.isEmpty }
        self.sleep = sleep
        self.jitter = jitter
    }

    /// The URL as it may appear in logs, errors and the run log.
    public func redacted(_ text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "REDACTED") }
    }

    /// - Parameter headers: sent instead of the defaults of the same name (a page source's
    ///   User-Agent names its operator).
    public func fetch(
        _ url: URL, requestsPerSecond: Double, validators: CacheValidators? = nil, headers extra: [String: String] = [:]
    ) async -> FetchResult {
        var headers = ["Accept": "application/json, application/xml;q=0.9, */*;q=0.1", "User-Agent": "Encore/1 (concert aggregator)"]
        headers.merge(extra) { _, new in new }
        if let etag = validators?.etag { headers["If-None-Match"] = etag }
        if let modified = validators?.lastModified { headers["If-Modified-Since"] = modified }
        var attempt = 0
        var lastReason = ""
        var lastStatus: Int?
        while attempt < policy.maxAttempts {
            attempt += 1
            await limiter.wait(host: url.host ?? "", requestsPerSecond: requestsPerSecond, sleep: sleep)
            let response: HTTPResponse
            do {
                response = try await withDeadline(policy.timeout) { [transport, policy, headers] in
                    try await transport.get(url, headers: headers, timeout: policy.timeout)
                }
            } catch {
                lastReason = redacted("network error: \(error.localizedDescription)")
                lastStatus = nil
                await sleep(backoff(attempt))
                continue
            }
            switch response.status {
            case 200..<300:
                guard response.body.count <= policy.maxBodyBytes else {
                    return .failed(failure(url, response.status, attempt, "body larger than \(policy.maxBodyBytes) bytes"))
                }
                return .fetched(
                    response.body,
                    CacheValidators(etag: response.headers["etag"], lastModified: response.headers["last-modified"]))
            case 304:
                return .notModified
            case 429:
                lastReason = "rate limited"
                lastStatus = 429
                await sleep(Self.retryAfter(response.headers["retry-after"]) ?? backoff(attempt))
            case 500..<600:
                lastReason = "server error"
                lastStatus = response.status
                await sleep(backoff(attempt))
            default:
                return .failed(failure(url, response.status, attempt, "the server refused the request"))
            }
        }
        return .failed(failure(url, lastStatus, attempt, lastReason.isEmpty ? "gave up" : lastReason))
    }

    /// Runs `operation`, giving up after `seconds` of wall time: a stalled server must
    /// not hold a nightly run (URLSession's own timeout only notices idle connections).
    private func withDeadline<T: Sendable>(
        _ seconds: Double, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                throw URLError(.timedOut)
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// `baseDelay × 2^(attempt-1)`, capped, scaled by a jitter factor in 0.5..<1.5 so
    /// that many clients retrying at once spread out.
    func backoff(_ attempt: Int) -> Double {
        let exponential = min(policy.maxDelay, policy.baseDelay * pow(2, Double(attempt - 1)))
        return exponential * (0.5 + jitter())
    }

    /// `Retry-After` in seconds or as an HTTP date.
    static func retryAfter(_ value: String?) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }

    private func failure(_ url: URL, _ status: Int?, _ attempts: Int, _ reason: String) -> FetchFailure {
        FetchFailure(url: redacted(url.absoluteString), status: status, attempts: attempts, reason: reason)
    }
}

/// Spaces requests to each host so a source's `requests_per_second` is never exceeded.
public actor HostRateLimiter {
    private var nextAllowed: [String: ContinuousClock.Instant] = [:]

    public init() {}

    func wait(host: String, requestsPerSecond: Double, sleep: @Sendable (Double) async -> Void) async {
        let clock = ContinuousClock()
        let now = clock.now
        let interval = Duration.seconds(1 / max(requestsPerSecond, 0.001))
        let slot = max(now, nextAllowed[host] ?? now)
        nextAllowed[host] = slot + interval
        let delay = slot - now
        if delay > .zero {
            let (seconds, attoseconds) = delay.components
            await sleep(Double(seconds) + Double(attoseconds) / 1e18)
        }
    }
}
