import CCurl
import Foundation

/// HTTP over libcurl's easy interface: each exchange blocks a thread of its own in
/// `curl_easy_perform`, which waits in `poll`, so a stalled server costs no CPU (Linux's
/// `URLSession` spun on its socket's write readiness, busy for as long as the stall).
///
/// - **Bounded memory.** The body is counted as it arrives and the transfer is stopped at
///   the limit (at once when `Content-Length` announces more), so no response holds more
///   than `maxBodyBytes` in memory, compressed or not.
/// - **Redirects** are followed (10 at most, to http and https only, on the host asked); a
///   loop is reported as ``TransportError/Kind/tooManyRedirects``, and a redirect to
///   another host is not followed (``TransportError/Kind/redirectedElsewhere``): the
///   other host's robots.txt was never read, and an API key in the URL is for the host asked.
/// - **Connections** are kept alive: idle easy handles, each with its connection cache,
///   are reused by the next exchange.
/// - **Cancellation** (the fetcher's deadline, a cancelled task) stops the transfer within
///   a second: libcurl asks the progress callback at least that often.
// @unchecked: the idle handles are touched only under `lock`.
public final class CurlTransport: HTTPTransport, @unchecked Sendable {
    /// `curl_global_init`, once per process, before any handle.
    private static let globalSetUp: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    private let lock = NSLock()
    private var idle: [UnsafeMutableRawPointer] = []
    /// Handles kept for reuse (with their connections); a crawl of many hosts opens more,
    /// up to `max_connections` at once, and lets the extra ones go.
    private let maximumIdle = 4

    public init() {
        _ = Self.globalSetUp
    }

    deinit {
        for handle in idle { curl_easy_cleanup(handle) }
    }

    public func get(_ url: URL, headers: [String: String], timeout: Double, maxBodyBytes: Int) async throws -> HTTPResponse {
        let exchange = Exchange(url: url, limit: maxBodyBytes)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                // A thread of its own: the exchange blocks it, which the tasks' cooperative
                // threads must never be.
                let thread = Thread { [self] in
                    continuation.resume(with: Result { try perform(url, headers: headers, timeout: timeout, exchange) })
                }
                thread.name = "encore-http"
                thread.start()
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    private func takeHandle() -> UnsafeMutableRawPointer? {
        if let handle = lock.withLock({ idle.popLast() }) { return handle }
        return curl_easy_init()
    }

    /// Back to the pool with its options cleared; its open connections stay for the next.
    private func giveBack(_ handle: UnsafeMutableRawPointer) {
        curl_easy_reset(handle)
        let kept = lock.withLock {
            guard idle.count < maximumIdle else { return false }
            idle.append(handle)
            return true
        }
        if !kept { curl_easy_cleanup(handle) }
    }

    private func perform(_ url: URL, headers: [String: String], timeout: Double, _ exchange: Exchange) throws -> HTTPResponse {
        guard let handle = takeHandle() else { throw TransportError(.other, "libcurl could not start a transfer") }
        defer { giveBack(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            list = curl_slist_append(list, "\(name): \(value)")
        }
        defer { curl_slist_free_all(list) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        let milliseconds = Int(max(0.001, timeout) * 1000)

        _ = url.absoluteString.withCString { encore_curl_set_pointer(handle, CURLOPT_URL, UnsafeMutableRawPointer(mutating: $0)) }
        _ = "http,https".withCString { encore_curl_set_pointer(handle, CURLOPT_PROTOCOLS_STR, UnsafeMutableRawPointer(mutating: $0)) }
        _ = "http,https".withCString {
            encore_curl_set_pointer(handle, CURLOPT_REDIR_PROTOCOLS_STR, UnsafeMutableRawPointer(mutating: $0))
        }
        // Every encoding libcurl can decode; the limit counts decoded bytes.
        _ = "".withCString { encore_curl_set_pointer(handle, CURLOPT_ACCEPT_ENCODING, UnsafeMutableRawPointer(mutating: $0)) }
        _ = encore_curl_set_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list))
        _ = encore_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer))
        _ = encore_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = encore_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        _ = encore_curl_set_long(handle, CURLOPT_MAXREDIRS, 10)
        _ = encore_curl_set_long(handle, CURLOPT_TIMEOUT_MS, milliseconds)
        _ = encore_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(milliseconds, 10_000))
        _ = encore_curl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(exchange.limit))
        _ = encore_curl_set_write_function(handle, writeBody)
        _ = encore_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
        _ = encore_curl_set_header_function(handle, writeHeader)
        _ = encore_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
        _ = encore_curl_set_prereq_function(handle, connected)
        _ = encore_curl_set_pointer(handle, CURLOPT_PREREQDATA, context)
        _ = encore_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
        _ = encore_curl_set_progress_function(handle, progress)
        _ = encore_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context)

        let code = curl_easy_perform(handle)
        let detail = errorBuffer.pointee == 0 ? String(cString: curl_easy_strerror(code)) : String(cString: errorBuffer)
        switch code {
        case CURLE_OK:
            var status = 0
            _ = encore_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
            return HTTPResponse(status: status, headers: exchange.headers, body: exchange.body)
        case CURLE_FILESIZE_EXCEEDED:
            throw TransportError(.bodyTooLarge, "body larger than \(exchange.limit) bytes")
        case CURLE_WRITE_ERROR where exchange.tooLarge:
            throw TransportError(.bodyTooLarge, "body larger than \(exchange.limit) bytes (stopped reading there)")
        case CURLE_WRITE_ERROR where exchange.refusedRedirect != nil:
            throw TransportError(
                .redirectedElsewhere,
                "redirected to another host (\(exchange.refusedRedirect!.absoluteString)); not followed: ask that URL instead")
        case CURLE_ABORTED_BY_CALLBACK:
            throw CancellationError()
        case CURLE_TOO_MANY_REDIRECTS:
            throw TransportError(.tooManyRedirects, "too many HTTP redirects")
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST:
            throw TransportError(.cannotConnect, detail)
        case CURLE_OPERATION_TIMEDOUT:
            throw TransportError(exchange.isConnected ? .timedOut : .cannotConnect, detail)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_PEER_FAILED_VERIFICATION:
            throw TransportError(.permanent, detail)
        default:
            throw TransportError(.other, detail)
        }
    }
}

/// Why an exchange ended without a response.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No connection: refused, unreachable, a name that does not resolve, a connect
        /// timeout.
        case cannotConnect
        case timedOut
        /// The body passed the limit; reading stopped there.
        case bodyTooLarge
        /// A redirect loop or chain longer than 10: asking again gives the same.
        case tooManyRedirects
        /// A redirect to a host other than the one asked, which is not followed.
        case redirectedElsewhere
        /// A malformed URL, an unsupported scheme, a certificate that does not verify.
        case permanent
        /// Anything else: resets, truncated bodies.
        case other
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// Whether asking again could give another answer.
    public var isRetryable: Bool {
        switch kind {
        case .cannotConnect, .timedOut, .other: true
        case .bodyTooLarge, .tooManyRedirects, .redirectedElsewhere, .permanent: false
        }
    }
}

/// What one exchange gathered so far; reached from libcurl's callbacks through their
/// context pointer, on the exchange's thread only (but ``cancel()``).
// @unchecked: its fields are written on the exchange's thread only; `cancelled` is under `lock`.
private final class Exchange: @unchecked Sendable {
    let limit: Int
    let host: String?
    /// The URL the response being read answers (it moves with each redirect followed).
    var url: URL
    var status = 0
    var body = Data()
    var headers: [String: String] = [:]
    var tooLarge = false
    var refusedRedirect: URL?
    var isConnected = false
    private let lock = NSLock()
    private var cancelled = false

    init(url: URL, limit: Int) {
        self.url = url
        self.host = url.host?.lowercased()
        self.limit = limit
    }

    /// Whether libcurl may follow a redirect to `location`: on the host asked only.
    func mayFollow(_ location: String) -> Bool {
        guard let target = URL(string: location, relativeTo: url)?.absoluteURL else { return true }
        guard target.host?.lowercased() == host else {
            refusedRedirect = target
            return false
        }
        url = target
        return true
    }

    func cancel() { lock.withLock { cancelled = true } }
    var isCancelled: Bool { lock.withLock { cancelled } }
}

private func exchange(_ context: UnsafeMutableRawPointer?) -> Exchange {
    Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
}

/// Appends a piece of the body; returning less than was given stops the transfer.
private let writeBody: curl_write_callback = { pointer, size, count, context in
    let exchange = exchange(context)
    let length = size * count
    guard exchange.body.count + length <= exchange.limit else {
        exchange.tooLarge = true
        return 0
    }
    if let pointer, length > 0 {
        pointer.withMemoryRebound(to: UInt8.self, capacity: length) { exchange.body.append($0, count: length) }
    }
    return length
}

/// One header line; a status line starts the headers of another response (after a
/// redirect or a `100 Continue`). Returning less than was given stops the transfer: a
/// redirect's `Location` on another host.
private let writeHeader: curl_write_callback = { pointer, size, count, context in
    let exchange = exchange(context)
    let length = size * count
    guard let pointer, length > 0 else { return length }
    let line = pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") {
        exchange.headers = [:]
        exchange.status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        if name == "location", (300..<400).contains(exchange.status), !exchange.mayFollow(value) { return 0 }
        if exchange.headers[name] == nil { exchange.headers[name] = value }
    }
    return length
}

private let connected: curl_prereq_callback = { context, _, _, _, _ in
    exchange(context).isConnected = true
    return CURL_PREREQFUNC_OK
}

/// Nonzero stops the transfer: the task waiting for it was cancelled.
private let progress: curl_xferinfo_callback = { context, _, _, _, _ in
    exchange(context).isCancelled ? 1 : 0
}
