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
    /// Bytes given whole (no file to read more from).
    private let inMemory: Bool
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
        inMemory = false
        buffer = .allocate(capacity: Self.chunkSize)
    }

    /// Bytes already in memory (an API response).
    init(bytes: [UInt8]) {
        descriptor = -1
        ownsDescriptor = false
        inMemory = true
        buffer = .allocate(capacity: max(1, bytes.count))
        buffer.initialize(from: bytes, count: bytes.count)
        count = bytes.count
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
        if index < count { return buffer[index] }
        return refill() ? buffer[index] : nil
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

    /// As ``skipToQuoteOrEscape()``, keeping the bytes passed.
    func append(untilQuoteOrEscapeInto bytes: inout [UInt8]) -> UInt8? {
        while true {
            let start = index
            while index < count {
                let byte = buffer[index]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }
                index += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer + start, count: index - start))
            if index < count { return buffer[index] }
            guard refill() else { return nil }
        }
    }

    /// Skips to the next `"`, `\\` or control character (not consumed) and returns it;
    /// nil at the end. The inside of a JSON string: no line breaks to count.
    func skipToQuoteOrEscape() -> UInt8? {
        while true {
            while index < count {
                let byte = buffer[index]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 { return byte }
                index += 1
            }
            guard refill() else { return nil }
        }
    }

    /// The first bytes, without consuming them: for telling formats apart.
    func head(_ length: Int) -> [UInt8] {
        if count == 0 { _ = refill() }
        return Array(UnsafeBufferPointer(start: buffer, count: min(count, length)))
    }

    private func refill() -> Bool {
        if inMemory { return false }
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
