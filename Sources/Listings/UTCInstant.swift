/// An instant, as whole seconds since 1970-01-01T00:00:00Z.
///
/// Kept apart from `Foundation.Date` so that formatting is exact, fast and free of
/// locale or calendar settings: the catalog stores it as `YYYY-MM-DDTHH:MM:SSZ`.
public struct UTCInstant: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let secondsSinceEpoch: Int64

    public init(secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    /// The instant at which a venue's wall clock shows `date` `time`, given the venue's
    /// offset from UTC in seconds (east positive).
    public init(date: LocalDate, time: LocalTime, utcOffsetSeconds: Int) {
        let local = Int64(date.daysSinceEpoch) * 86_400 + Int64(time.secondsSinceMidnight)
        self.init(secondsSinceEpoch: local - Int64(utcOffsetSeconds))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SSZ`.
    public init?(iso text: some StringProtocol) {
        // Bytes, not Characters: this runs for every event a query returns.
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "Z"),
            let year = LocalDate.number(bytes[0..<4]), let month = LocalDate.number(bytes[5..<7]),
            let day = LocalDate.number(bytes[8..<10]), let date = LocalDate(year: year, month: month, day: day),
            let hour = LocalDate.number(bytes[11..<13]), let minute = LocalDate.number(bytes[14..<16]),
            let second = LocalDate.number(bytes[17..<19]), let time = LocalTime(hour: hour, minute: minute, second: second)
        else { return nil }
        self.init(date: date, time: time, utcOffsetSeconds: 0)
    }

    public var date: LocalDate {
        LocalDate(daysSinceEpoch: Int((secondsSinceEpoch - secondsOfDay) / 86_400))
    }

    private var secondsOfDay: Int64 {
        let remainder = secondsSinceEpoch % 86_400
        return remainder < 0 ? remainder + 86_400 : remainder
    }

    public var description: String {
        let s = Int(secondsOfDay)
        let time = LocalTime(hour: s / 3600, minute: s / 60 % 60, second: s % 60)!
        let date = self.date
        guard date.hasFourDigitYear else { return "\(date)T\(time)Z" }
        return String(unsafeUninitializedCapacity: 20) { buffer in
            date.write(into: buffer, at: 0)
            buffer[10] = UInt8(ascii: "T")
            time.write(into: buffer, at: 11)
            buffer[19] = UInt8(ascii: "Z")
            return 20
        }
    }

    public static func < (lhs: UTCInstant, rhs: UTCInstant) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let instant = UTCInstant(iso: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a UTC instant: \(text)"))
        }
        self = instant
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
