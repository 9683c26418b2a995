/// A wall-clock time at the venue (doors or show), without a zone.
public struct LocalTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int
    public let second: Int

    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else {
            return nil
        }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Parses `HH:MM` or `HH:MM:SS`.
    public init?(iso text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 5 || bytes.count == 8, bytes[2] == UInt8(ascii: ":"),
            let h = LocalDate.number(bytes[0..<2]), let m = LocalDate.number(bytes[3..<5])
        else { return nil }
        var s = 0
        if bytes.count == 8 {
            guard bytes[5] == UInt8(ascii: ":"), let parsed = LocalDate.number(bytes[6..<8]) else {
                return nil
            }
            s = parsed
        }
        self.init(hour: h, minute: m, second: s)
    }

    public var secondsSinceMidnight: Int { hour * 3600 + minute * 60 + second }

    public var description: String {
        String(unsafeUninitializedCapacity: 8) { buffer in
            write(into: buffer, at: 0)
            return 8
        }
    }

    /// Writes `HH:MM:SS` into `buffer[offset..<offset + 8]`.
    func write(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        LocalDate.writeFields((hour, minute, second), firstWidth: 2, separator: UInt8(ascii: ":"), into: buffer, at: offset)
    }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool {
        lhs.secondsSinceMidnight < rhs.secondsSinceMidnight
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let time = LocalTime(iso: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a time: \(text)"))
        }
        self = time
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
