/// A stable 64-bit FNV-1a hash, for noticing that a record or page has not changed.
///
/// Swift's `Hasher` is seeded per process, so it cannot be stored; this one gives the
/// same value on every run and machine. It is not a cryptographic hash: it only guards
/// against re-applying identical content, never against an adversary.
public struct ContentHasher: Sendable {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func combine(bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { combine(buffer: UnsafeRawBufferPointer($0)) }
        if handled != nil { return }
        for byte in bytes {
            state ^= UInt64(byte)
            state &*= 0x0000_0100_0000_01b3
        }
    }

    /// The fast path: a tight loop over contiguous bytes (whole pages are hashed).
    public mutating func combine(buffer: UnsafeRawBufferPointer) {
        var state = self.state
        for byte in buffer {
            state ^= UInt64(byte)
            state &*= 0x0000_0100_0000_01b3
        }
        self.state = state
    }

    public mutating func combine(_ text: String?) {
        guard let text else { return combine(tag: 0) }
        combine(tag: 1)
        var utf8 = text
        utf8.withUTF8 { combine(bytes: $0) }
        combine(tag: 0xff)
    }

    public mutating func combine(_ value: Int?) {
        guard let value else { return combine(tag: 0) }
        combine(tag: 2)
        withUnsafeBytes(of: Int64(value).littleEndian) { combine(bytes: $0) }
    }

    public mutating func combine(_ value: Double?) {
        guard let value else { return combine(tag: 0) }
        combine(tag: 3)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { combine(bytes: $0) }
    }

    public mutating func combine(_ value: Bool) {
        combine(tag: value ? 4 : 5)
    }

    private mutating func combine(tag: UInt8) {
        combine(bytes: CollectionOfOne(tag))
    }

    /// The hash as 16 lower-case hex digits.
    public var hexDigest: String {
        let hex = String(state, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension ContentHasher {
    /// The hash of a byte buffer, as hex.
    public static func hexDigest(of bytes: some Sequence<UInt8>) -> String {
        var hasher = ContentHasher()
        hasher.combine(bytes: bytes)
        return hasher.hexDigest
    }
}
