/// A calendar date as printed on a ticket: no time zone, no instant.
///
/// Encore compares events by the venue's local date (a 23:30 show in Madrid on the
/// 17th is on the 17th wherever the fan is), so dates are plain values, validated on
/// construction: `2026-02-30` does not exist.
public struct LocalDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A date, or nil when it does not exist in the proleptic Gregorian calendar.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...LocalDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` exactly.
    public init?(iso text: some StringProtocol) {
        guard let date = Array(text.utf8).withUnsafeBufferPointer({ LocalDate(isoUTF8: $0) }) else { return nil }
        self = date
    }

    /// Parses `YYYY-MM-DD` from UTF-8 bytes (a database column, say) without making a String.
    public init?(isoUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let y = Self.number(bytes[0..<4]), let m = Self.number(bytes[5..<7]),
            let d = Self.number(bytes[8..<10])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The date `days` days later (or earlier, when negative).
    public func adding(days: Int) -> LocalDate {
        LocalDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    public var description: String {
        // Dates are printed for every row an ingest writes and every event a feed
        // renders; written into one inline string, they allocate nothing.
        guard hasFourDigitYear else { return Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2) }
        return String(unsafeUninitializedCapacity: 10) { buffer in
            write(into: buffer, at: 0)
            return 10
        }
    }

    /// Years 0...9999 print as four digits; others (from far-off day counts) as they are.
    var hasFourDigitYear: Bool { (0...9999).contains(year) }

    /// Writes `YYYY-MM-DD` into `buffer[offset..<offset + 10]`; needs ``hasFourDigitYear``.
    func write(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        Self.writeFields((year, month, day), firstWidth: 4, separator: UInt8(ascii: "-"), into: buffer, at: offset)
    }

    /// Writes `first-SS-TT` (a date) or `first:SS:TT` (a time): the first field
    /// `firstWidth` digits, the others two.
    static func writeFields(
        _ fields: (Int, Int, Int), firstWidth: Int, separator: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>,
        at offset: Int
    ) {
        writeDigits(fields.0, count: firstWidth, into: buffer, at: offset)
        buffer[offset + firstWidth] = separator
        writeDigits(fields.1, count: 2, into: buffer, at: offset + firstWidth + 1)
        buffer[offset + firstWidth + 3] = separator
        writeDigits(fields.2, count: 2, into: buffer, at: offset + firstWidth + 4)
    }

    /// Writes the last `count` decimal digits of a non-negative `value`, zero-padded.
    static func writeDigits(_ value: Int, count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        var rest = value
        for index in (offset..<offset + count).reversed() {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(iso: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// ASCII decimal digits, and nothing else, as a number (no sign, no spaces).
    public static func number(_ digits: some Collection<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
