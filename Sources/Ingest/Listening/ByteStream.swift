import Foundation

/// A file read in fixed chunks, one byte at a time, knowing the line and column of each
/// byte: listening exports reach hundreds of MB, and an error names where it is.
final class ByteStream {
    static let chunkSize = 1 << 20

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let buffer: UnsafeMutablePointer<UInt8>
    private var index = 0
    private var count = 0
    private var memory: [UInt8]?
    /// Bytes read before the buffer's first.
    private var consumedBefore = 0
    private(set) var line = 1
    private var lineStart = 0

    init(path: String) throws(ListeningImportError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw ListeningImportError(file: path, message: "cannot read it: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        ownsDescriptor = true
        buffer = .allocate(capacity: Self.chunkSize)
    }

    /// Bytes already in memory (an API response).
    init(bytes: [UInt8]) {
        descriptor = -1
        ownsDescriptor = false
        buffer = .allocate(capacity: 1)
        memory = bytes
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
        buffer.deallocate()
    }

    /// The byte offset of the next byte.
    var offset: Int { consumedBefore + index }
    /// The column of the next byte, counted in bytes from 1.
    var column: Int { offset - lineStart + 1 }
    var position: String { "line \(line), column \(column)" }

    @inline(__always)
    func peek() -> UInt8? {
        if index < count { return current(index) }
        return refill() ? current(index) : nil
    }

    @inline(__always)
    func next() -> UInt8? {
        guard let byte = peek() else { return nil }
        index += 1
        if byte == 0x0A {
            line += 1
            lineStart = offset
        }
        return byte
    }

    @inline(__always)
    private func current(_ at: Int) -> UInt8 {
        memory.map { $0[at] } ?? buffer[at]
    }

    /// The first bytes, without consuming them: for telling formats apart.
    func head(_ length: Int) -> [UInt8] {
        if let memory { return Array(memory.prefix(length)) }
        if count == 0 { _ = refill() }
        return Array(UnsafeBufferPointer(start: buffer, count: min(count, length)))
    }

    private func refill() -> Bool {
        if let memory {
            if count == 0, !memory.isEmpty {
                count = memory.count
                return true
            }
            return false
        }
        consumedBefore += count
        index = 0
        count = 0
        while true {
            let got = read(descriptor, buffer, Self.chunkSize)
            if got < 0, errno == EINTR { continue }
            count = max(0, got)
            return count > 0
        }
    }
}

/// A listening export that could not be read: the file, where in it, and what was wrong.
public struct ListeningImportError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var position: String?
    public var message: String

    public init(file: String, position: String? = nil, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    public var description: String {
        "\(file)" + (position.map { ": at \($0)" } ?? "") + ": \(message)"
    }
}
