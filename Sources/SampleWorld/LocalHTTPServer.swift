import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (or another loopback address, 127.0.0.x, so that
/// many servers are many hosts) for tests and benchmarks: each request is answered by a
/// handler and logged. Port 0 picks a free one.
///
/// Like the real APIs' servers, it keeps connections open for the next request (unless
/// the client says `Connection: close`) and serves each connection on a thread of its
/// own: a client that opens another while one is idle, or retries while a stalled answer
/// is still sleeping, is answered at once.
// @unchecked: its mutable state is touched only under `lock`.
public final class LocalHTTPServer: @unchecked Sendable {
    public struct Request: Sendable {
        public let path: String
        /// Names as sent (case kept); the last value wins.
        public let query: [String: String]
        /// Names lower-cased.
        public let headers: [String: String]
        public let rawTarget: String
        /// When its head arrived: the server's own log of how fast a client asks.
        public var received = ContinuousClock.now
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String] = [:]
        public var body: Data = Data()
        /// Seconds to wait before answering (a stalled server).
        public var delay: Double = 0
        /// Send only this many bytes of the body, then close (a truncated response).
        public var truncateAfter: Int?
        /// A body of this many bytes (`a`), made as it is sent, instead of `body`: a
        /// server sending more than any client should read.
        public var generatedLength: Int?
        /// Whether `Content-Length` announces the generated body (else it is sent chunked).
        public var announcesLength = true

        public init(
            status: Int, headers: [String: String] = [:], body: Data = Data(), delay: Double = 0, truncateAfter: Int? = nil,
            generatedLength: Int? = nil, announcesLength: Bool = true
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.truncateAfter = truncateAfter
            self.generatedLength = generatedLength
            self.announcesLength = announcesLength
        }
    }

    public let port: UInt16
    /// The address it listens on.
    public let address: String
    private let socketDescriptor: Int32
    private let handler: @Sendable (Request) -> Response
    private let lock = NSLock()
    private var log: [Request] = []
    private var running = true
    /// Open client connections, shut down by ``stop()``.
    private var clients = Set<Int32>()
    private var acceptedCount = 0
    private var bodyBytes = 0
    /// A benchmark serving hundreds of thousands of requests keeps no log.
    private let logsRequests: Bool

    public init(
        port: UInt16 = 0, address: String = "127.0.0.1", logsRequests: Bool = true,
        handler: @escaping @Sendable (Request) -> Response
    ) throws {
        self.address = address
        let listenAddress = address
        self.logsRequests = logsRequests
        self.handler = handler
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socketDescriptor = socketDescriptor
        var reuse: Int32 = 1
        setsockopt(socketDescriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(listenAddress)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, length) }
        }
        guard bound == 0, listen(socketDescriptor, 64) == 0 else {
            close(socketDescriptor)
            throw POSIXError(.EADDRINUSE)
        }
        withUnsafeMutablePointer(to: &address) {
            _ = $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        self.port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in self.serve() }
        thread.start()
    }

    public var baseURL: URL { URL(string: "http://\(address):\(port)")! }

    public var requests: [Request] { lock.withLock { log } }

    /// Connections accepted so far: fewer than requests when clients keep them open.
    public var connectionsAccepted: Int { lock.withLock { acceptedCount } }

    /// Body bytes the clients accepted so far (a client that stops reading stops this).
    public var bodyBytesSent: Int { lock.withLock { bodyBytes } }

    public func stop() {
        lock.withLock {
            running = false
            // Wakes the connection threads waiting for a next request; each closes its
            // own. Under the lock, where they close them: a descriptor closed, and perhaps
            // reused by another socket of the process, is never shut down here.
            for client in clients { shutdown(client, Int32(SHUT_RDWR)) }
        }
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        close(socketDescriptor)
    }

    private func serve() {
        while lock.withLock({ running }) {
            let client = accept(socketDescriptor, nil, nil)
            guard client >= 0 else { continue }
            let accepted = lock.withLock {
                guard running else { return false }
                clients.insert(client)
                acceptedCount += 1
                return true
            }
            guard accepted else {
                close(client)
                continue
            }
            Thread { [self] in
                serveConnection(client)
                lock.withLock {
                    clients.remove(client)
                    close(client)
                }
            }.start()
        }
    }

    /// Answers the requests of one connection in order, until either side closes it.
    private func serveConnection(_ client: Int32) {
        var received = Data()
        while lock.withLock({ running }), handle(client, &received) {}
    }

    /// Reads one request from `received` and the socket, and answers it.
    /// - Returns: whether the connection stays open for another.
    private func handle(_ client: Int32, _ received: inout Data) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        var end = received.range(of: separator)
        while end == nil {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            received.append(contentsOf: buffer[0..<count])
            end = received.range(of: separator)
        }
        // GET requests have no body: what follows the head is the next request.
        let head = String(decoding: received[..<end!.lowerBound], as: UTF8.self)
        received = Data(received[end!.upperBound...])
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return false }
        let target = String(requestLine[1])
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let components = URLComponents(string: target)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let request = Request(path: components?.path ?? target, query: query, headers: headers, rawTarget: target)
        if logsRequests { lock.withLock { log.append(request) } }
        let response = handler(request)
        if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
        // A truncated answer can only end by closing the connection.
        let keepsOpen = response.truncateAfter == nil && headers["connection"]?.lowercased() != "close"
        let chunked = response.generatedLength != nil && !response.announcesLength
        var text = "HTTP/1.1 \(response.status) Status\r\n"
            + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: \(response.generatedLength ?? response.body.count)\r\n")
            + "Connection: \(keepsOpen ? "keep-alive" : "close")\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        if response.generatedLength == nil {
            // Head and body in one write, as servers do: two would wait for the delayed
            // acknowledgement of the first on a kept-alive connection.
            var bytes = Data(text.utf8)
            let body = response.truncateAfter.map { response.body.prefix($0) } ?? response.body
            bytes.append(body)
            guard sendAll(client, bytes) else { return false }
            lock.withLock { bodyBytes += body.count }
        } else if let length = response.generatedLength {
            guard sendAll(client, Data(text.utf8)) else { return false }
            // Made a piece at a time: memory stays flat whatever the length.
            let piece = Data(repeating: UInt8(ascii: "a"), count: 64 * 1024)
            var left = length
            while left > 0 {
                let count = min(left, piece.count)
                let bytes = chunked ? Data("\(String(count, radix: 16))\r\n".utf8) + piece.prefix(count) + Data("\r\n".utf8) : piece.prefix(count)
                guard sendAll(client, bytes) else { return false }
                lock.withLock { bodyBytes += count }
                left -= count
            }
            if chunked { guard sendAll(client, Data("0\r\n\r\n".utf8)) else { return false } }
        }
        return keepsOpen
    }

    /// Sends all of `bytes`; false when the client went away.
    private func sendAll(_ client: Int32, _ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = send(client, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { return false }
                sent += count
            }
            return true
        }
    }
}
