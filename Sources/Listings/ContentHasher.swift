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
        let handled: Void? = text.utf8.withContiguousStorageIfAvailable { combine(buffer: UnsafeRawBufferPointer($0)) }
        if handled == nil {
            var copy = text
            copy.withUTF8 { combine(buffer: UnsafeRawBufferPointer($0)) }
        }
        combine(tag: 0xff)
    }

    public mutating func combine(_ value: Int?) {
        guard let value else { return combine(tag: 0) }
        combine(tag: 2)
        combine(littleEndian: UInt64(bitPattern: Int64(value)))
    }

    public mutating func combine(_ value: Double?) {
        guard let value else { return combine(tag: 0) }
        combine(tag: 3)
        combine(littleEndian: value.bitPattern)
    }

    public mutating func combine(_ value: Bool) {
        combine(tag: value ? 4 : 5)
    }

    private mutating func combine(tag: UInt8) {
        state ^= UInt64(tag)
        state &*= 0x0000_0100_0000_01b3
    }

    /// The eight bytes of `value`, least significant first.
    private mutating func combine(littleEndian value: UInt64) {
        var state = self.state
        for shift in stride(from: 0, to: 64, by: 8) {
            state ^= (value >> UInt64(shift)) & 0xff
            state &*= 0x0000_0100_0000_01b3
        }
        self.state = state
    }

    /// The hash as 16 lower-case hex digits.
    public var hexDigest: String {
        let state = self.state
        return String(unsafeUninitializedCapacity: 16) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for index in 0..<16 {
                let nibble = Int((state >> UInt64(60 - 4 * index)) & 0xf)
                buffer[index] = digits.utf8Start[nibble]
            }
            return 16
        }
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
