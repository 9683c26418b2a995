import Foundation

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

/// Sends requests; injected so tests can count calls and production uses ``CurlTransport``.
public protocol HTTPTransport: Sendable {
    /// - Throws: a ``TransportError`` (a body past `maxBodyBytes` is one: the transport
    ///   stops reading there), or `CancellationError`.
    func get(_ url: URL, headers: [String: String], timeout: Double, maxBodyBytes: Int) async throws -> HTTPResponse
}

/// How hard to try, and how long to wait.
public struct FetchPolicy: Sendable {
    public var maxAttempts = 5
    /// First retry delay, doubled each time, with jitter, capped at `maxDelay`.
    public var baseDelay = 1.0
    public var maxDelay = 60.0
    public var timeout = 30.0
    public var maxBodyBytes = 20 * 1024 * 1024
    /// The longest `Retry-After` obeyed (429, 503 and other 5xx). A server asking for a
    /// longer wait is not asked again for that URL this run: the nightly job must end.
    public var maxRetryAfter = 300.0
    /// Connection failures in a row (refused, unreachable, connect timeouts) after which
    /// a host is not asked again this run.
    public var hostFailureLimit = 3
    /// Requests in flight at once across every host (`max_connections`): the operator's
    /// own bandwidth, whatever the number of hosts.
    public var maxConnections = 16

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
    public enum Kind: Sendable, Equatable {
        /// Retried as often as the policy allows (server errors, resets, timeouts).
        case gaveUp
        /// A 4xx answer other than 429: asking again gives the same.
        case refused
        /// A redirect loop or to another host, a malformed URL, a certificate that does not verify.
        case permanent
        /// The body passed the size limit (reading stopped there).
        case tooLarge
        /// The server asked to wait longer than ``FetchPolicy/maxRetryAfter``.
        case waitTooLong
        /// The host failed ``FetchPolicy/hostFailureLimit`` connections in a row; it is
        /// not asked again this run.
        case hostAbandoned
    }

    public var url: String
    public var status: Int?
    /// Requests made for this URL (0 when its host had been abandoned already).
    public var attempts: Int
    public var reason: String
    public var kind: Kind = .gaveUp

    public var description: String {
        "\(url): \(reason)" + (status.map { " (HTTP \($0))" } ?? "")
            + (attempts == 0 ? "" : " (\(attempts) attempt\(attempts == 1 ? "" : "s"))")
    }
}

/// Fetches pages politely and stubbornly, within bounds: per-host rate limits, retries
/// with exponential backoff and jitter on 5xx, timeouts and resets, `Retry-After` on 429
/// and 5xx (up to ``FetchPolicy/maxRetryAfter``; a longer one fails the URL at once), no
/// retry on other 4xx nor on permanent failures (redirect loops), conditional requests,
/// a body size cap enforced as the body arrives, and a host that fails
/// ``FetchPolicy/hostFailureLimit`` connections in a row is not asked again this run.
/// Secrets (API keys) are replaced by `REDACTED` in every URL it reports, in every
/// spelling (``SecretRedaction``).
public struct HTTPFetcher: Sendable {
    public let transport: any HTTPTransport
    public let policy: FetchPolicy
    public let limiter: HostRateLimiter
    /// Requests in flight: per host (one unless a source allows more) and in all.
    public let connections: ConnectionGate
    /// Consecutive connection failures per host, shared by every fetch of a run.
    public let hosts: HostHealth
    public let secrets: [String]
    /// Every spelling of ``secrets``.
    public let redaction: SecretRedaction
    /// Injected so tests need not wait and can check the delays asked for.
    public let sleep: @Sendable (Double) async -> Void
    /// A number in 0..<1, injected for reproducible jitter.
    public let jitter: @Sendable () -> Double

    public init(
        transport: any HTTPTransport = CurlTransport(), policy: FetchPolicy = FetchPolicy(),
        limiter: HostRateLimiter = HostRateLimiter(), hosts: HostHealth = HostHealth(), secrets: [String] = [],
        sleep: @escaping @Sendable (Double) async -> Void = { seconds in
            try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
        },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.transport = transport
        self.policy = policy
        self.limiter = limiter
        connections = ConnectionGate(limit: policy.maxConnections)
        self.hosts = hosts
        self.secrets = secrets.filter { !$0.isEmpty }
        redaction = SecretRedaction(secrets)
        self.sleep = sleep
        self.jitter = jitter
    }

    /// The URL as it may appear in logs, errors and the run log.
    public func redacted(_ text: String) -> String {
        redaction.redact(text)
    }

    /// A page as it may be stored: sources echo their key in the links they list
    /// (Bandsintown's `app_id`).
    public func redacted(_ page: Data) -> Data {
        redaction.isEmpty ? page : redaction.redact(page)
    }

    /// - Parameters:
    ///   - headers: sent instead of the defaults of the same name (a page source's
    ///     User-Agent names its operator).
    ///   - perHost: requests of this host in flight at once (a source's `connections_per_host`).
    public func fetch(
        _ url: URL, requestsPerSecond: Double, validators: CacheValidators? = nil, headers extra: [String: String] = [:],
        perHost: Int = 1
    ) async -> FetchResult {
        // The host's slot is held through retries and their backoff: one request in flight
        // per host means its retries too.
        let gateHost = url.host?.lowercased() ?? ""
        await connections.enter(host: gateHost, limit: perHost)
        let result = await fetchHoldingHost(url, requestsPerSecond: requestsPerSecond, validators: validators, headers: extra)
        await connections.leave(host: gateHost)
        return result
    }

    private func fetchHoldingHost(
        _ url: URL, requestsPerSecond: Double, validators: CacheValidators?, headers extra: [String: String]
    ) async -> FetchResult {
        var headers = ["Accept": "application/json, application/xml;q=0.9, */*;q=0.1", "User-Agent": "Encore/1 (concert aggregator)"]
        headers.merge(extra) { _, new in new }
        if let etag = validators?.etag { headers["If-None-Match"] = etag }
        if let modified = validators?.lastModified { headers["If-Modified-Since"] = modified }
        let host = Self.hostName(url)
        if let abandoned = await hosts.abandonment(of: host) {
            return .failed(failure(url, nil, 0, abandoned, .hostAbandoned))
        }
        var attempt = 0
        var lastReason = ""
        var lastStatus: Int?
        while attempt < policy.maxAttempts {
            attempt += 1
            let rateHost = url.host?.lowercased() ?? ""
            await limiter.wait(host: rateHost, requestsPerSecond: requestsPerSecond, sleep: sleep)
            // A connection of the global cap only for the exchange itself, never while
            // waiting for the host's turn.
            await connections.connect()
            let response: HTTPResponse
            let exchange: Result<HTTPResponse, any Error>
            do {
                exchange = .success(try await withDeadline(policy.timeout) { [transport, policy, headers] in
                    try await transport.get(url, headers: headers, timeout: policy.timeout, maxBodyBytes: policy.maxBodyBytes)
                })
            } catch {
                exchange = .failure(error)
            }
            await connections.disconnect()
            // The host's pace counts from this answer: however long the cap made the
            // request wait, or the network took to deliver it, the next one reaches the
            // server at least a whole interval after it.
            await limiter.answered(host: rateHost, requestsPerSecond: requestsPerSecond)
            do {
                response = try exchange.get()
            } catch let error as TransportError {
                lastStatus = nil
                lastReason =
                    error.kind == .timedOut
                    ? "timed out after \(Self.duration(policy.timeout))" : redacted("network error: \(error.message)")
                switch error.kind {
                case .bodyTooLarge:
                    return .failed(failure(url, nil, attempt, redacted(error.message), .tooLarge))
                case .tooManyRedirects, .redirectedElsewhere, .permanent:
                    return .failed(failure(url, nil, attempt, redacted(error.message), .permanent))
                case .cannotConnect:
                    let failures = await hosts.connectionFailed(host)
                    if failures >= policy.hostFailureLimit {
                        let reason = redacted(
                            "\(host) failed \(failures) connections in a row (last: \(error.message)); "
                                + "not asking it again this run")
                        await hosts.abandon(host, reason: reason)
                        return .failed(failure(url, nil, attempt, reason, .hostAbandoned))
                    }
                case .timedOut, .other:
                    await hosts.connected(host)
                }
                if attempt < policy.maxAttempts { await sleep(backoff(attempt)) }
                continue
            } catch {
                lastReason = redacted("network error: \(error.localizedDescription)")
                lastStatus = nil
                if attempt < policy.maxAttempts { await sleep(backoff(attempt)) }
                continue
            }
            await hosts.connected(host)
            switch response.status {
            case 200..<300:
                guard response.body.count <= policy.maxBodyBytes else {
                    return .failed(failure(url, response.status, attempt, "body larger than \(policy.maxBodyBytes) bytes", .tooLarge))
                }
                return .fetched(
                    response.body,
                    CacheValidators(etag: response.headers["etag"], lastModified: response.headers["last-modified"]))
            case 304:
                return .notModified
            case 429, 500..<600:
                lastReason = response.status == 429 ? "rate limited" : "server error"
                lastStatus = response.status
                var delay = backoff(attempt)
                if let asked = Self.retryAfter(response.headers["retry-after"]) {
                    guard asked <= policy.maxRetryAfter else {
                        return .failed(failure(
                            url, response.status, attempt,
                            "the server asked to wait \(Self.duration(asked)) before asking again (Retry-After), "
                                + "more than the \(Self.duration(policy.maxRetryAfter)) allowed",
                            .waitTooLong))
                    }
                    delay = asked
                }
                if attempt < policy.maxAttempts { await sleep(delay) }
            default:
                return .failed(failure(url, response.status, attempt, "the server refused the request", .refused))
            }
        }
        return .failed(failure(url, lastStatus, attempt, lastReason.isEmpty ? "gave up" : lastReason, .gaveUp))
    }

    /// `host:port`, as the run's host bookkeeping names a server.
    static func hostName(_ url: URL) -> String {
        (url.host ?? "") + (url.port.map { ":\($0)" } ?? "")
    }

    /// `42 s`, `5 min`, `27 h 46 min`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 120 { return "\(whole) s" }
        let minutes = whole / 60
        if minutes < 120 { return "\(minutes) min" }
        return "\(minutes / 60) h \(minutes % 60) min"
    }

    /// Runs `operation`, giving up after `seconds` of wall time: a stalled server must
    /// not hold a nightly run, whatever the transport's own timeout notices.
    private func withDeadline<T: Sendable>(
        _ seconds: Double, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                throw TransportError(.timedOut, "timed out after \(Self.duration(seconds))")
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

    private func failure(_ url: URL, _ status: Int?, _ attempts: Int, _ reason: String, _ kind: FetchFailure.Kind) -> FetchFailure {
        FetchFailure(url: redacted(url.absoluteString), status: status, attempts: attempts, reason: reason, kind: kind)
    }
}

/// Spaces requests to each host so a source's `requests_per_second`, and the host's
/// robots.txt `Crawl-delay`, whichever is slower, are never exceeded.
public actor HostRateLimiter {
    private var nextAllowed: [String: ContinuousClock.Instant] = [:]
    private var crawlDelays: [String: Double] = [:]

    public init() {}

    /// The host's robots.txt, just read, asks for at least `seconds` between requests:
    /// the next request waits that long after it too.
    public func setCrawlDelay(_ seconds: Double, host: String) {
        let host = host.lowercased()
        crawlDelays[host] = seconds
        let now = ContinuousClock().now
        nextAllowed[host] = max(nextAllowed[host] ?? now, now + .seconds(seconds))
    }

    /// The `Crawl-delay` obeyed for `host`, if its robots.txt gave one.
    public func crawlDelay(host: String) -> Double? { crawlDelays[host.lowercased()] }

    private func interval(_ host: String, _ requestsPerSecond: Double) -> Duration {
        .seconds(max(1 / max(requestsPerSecond, 0.001), crawlDelays[host] ?? 0))
    }

    /// `host` answered now: its next request waits a whole interval from here.
    func answered(host: String, requestsPerSecond: Double) {
        let now = ContinuousClock().now
        nextAllowed[host] = max(nextAllowed[host] ?? now, now + interval(host, requestsPerSecond))
    }

    func wait(host: String, requestsPerSecond: Double, sleep: @Sendable (Double) async -> Void) async {
        let clock = ContinuousClock()
        let now = clock.now
        let interval = interval(host, requestsPerSecond)
        let slot = max(now, nextAllowed[host] ?? now)
        nextAllowed[host] = slot + interval
        let delay = slot - now
        if delay > .zero {
            let (seconds, attoseconds) = delay.components
            await sleep(Double(seconds) + Double(attoseconds) / 1e18)
        }
    }
}

/// How many requests are in flight: per host (each request says how many its host may
/// have) and in all (``FetchPolicy/maxConnections``). Waiters are served in order.
public actor ConnectionGate {
    public let limit: Int
    private var connected = 0
    private var connectWaiters: [CheckedContinuation<Void, Never>] = []
    private var perHost: [String: Int] = [:]
    private var hostWaiters: [String: [(limit: Int, waiter: CheckedContinuation<Void, Never>)]] = [:]

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    func enter(host: String, limit: Int) async {
        if perHost[host, default: 0] < max(1, limit) {
            perHost[host, default: 0] += 1
            return
        }
        await withCheckedContinuation { hostWaiters[host, default: []].append((max(1, limit), $0)) }
    }

    func leave(host: String) {
        if var waiting = hostWaiters[host], !waiting.isEmpty {
            // The slot passes straight to the next waiter.
            let next = waiting.removeFirst()
            hostWaiters[host] = waiting.isEmpty ? nil : waiting
            next.waiter.resume()
            return
        }
        perHost[host, default: 1] -= 1
        if perHost[host] == 0 { perHost[host] = nil }
    }

    func connect() async {
        if connected < limit {
            connected += 1
            return
        }
        await withCheckedContinuation { connectWaiters.append($0) }
    }

    func disconnect() {
        if !connectWaiters.isEmpty {
            connectWaiters.removeFirst().resume()
        } else {
            connected -= 1
        }
    }
}

/// Which hosts answer: consecutive connection failures per host, and the hosts given up
/// for the rest of the run (a server that is down must not cost every listing its retries).
public actor HostHealth {
    private var failures: [String: Int] = [:]
    private var abandoned: [String: String] = [:]

    public init() {}

    /// Why `host` is not asked any more, or nil.
    public func abandonment(of host: String) -> String? { abandoned[host] }

    /// Counts a failed connection; returns the failures in a row.
    func connectionFailed(_ host: String) -> Int {
        failures[host, default: 0] += 1
        return failures[host]!
    }

    func connected(_ host: String) { failures[host] = nil }

    func abandon(_ host: String, reason: String) { abandoned[host] = reason }
}
