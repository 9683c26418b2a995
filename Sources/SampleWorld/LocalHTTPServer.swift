import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 for tests and benchmarks: each request is
/// answered by a handler, one connection at a time, and logged. Port 0 picks a free one.
public final class LocalHTTPServer: @unchecked Sendable {
    public struct Request: Sendable {
        public let path: String
        /// Names as sent (case kept); the last value wins.
        public let query: [String: String]
        /// Names lower-cased.
        public let headers: [String: String]
        public let rawTarget: String
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String] = [:]
        public var body: Data = Data()
        /// Seconds to wait before answering (a stalled server).
        public var delay: Double = 0
        /// Send only this many bytes of the body, then close (a truncated response).
        public var truncateAfter: Int?

        public init(
            status: Int, headers: [String: String] = [:], body: Data = Data(), delay: Double = 0, truncateAfter: Int? = nil
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.truncateAfter = truncateAfter
        }
    }

    public let port: UInt16
    private let socketDescriptor: Int32
    private let handler: @Sendable (Request) -> Response
    private let lock = NSLock()
    private var log: [Request] = []
    private var running = true
    /// A benchmark serving hundreds of thousands of requests keeps no log.
    private let logsRequests: Bool

    public init(port: UInt16 = 0, logsRequests: Bool = true, handler: @escaping @Sendable (Request) -> Response) throws {
        self.logsRequests = logsRequests
        self.handler = handler
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socketDescriptor = socketDescriptor
        var reuse: Int32 = 1
        setsockopt(socketDescriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, length) }
        }
        guard bound == 0, listen(socketDescriptor, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        withUnsafeMutablePointer(to: &address) {
            _ = $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        self.port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in self.serve() }
        thread.start()
    }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    public var requests: [Request] { lock.withLock { log } }

    public func stop() {
        lock.withLock { running = false }
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        close(socketDescriptor)
    }

    private func serve() {
        while lock.withLock({ running }) {
            let client = accept(socketDescriptor, nil, nil)
            guard client >= 0 else { continue }
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(Data("\r\n\r\n".utf8)) {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            received.append(contentsOf: buffer[0..<count])
        }
        let head = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return }
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
        var text = "HTTP/1.1 \(response.status) Status\r\nContent-Length: \(response.body.count)\r\nConnection: close\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        var bytes = Data(text.utf8)
        bytes.append(response.truncateAfter.map { response.body.prefix($0) } ?? response.body)
        bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = send(client, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { break }
                sent += count
            }
        }
    }
}
