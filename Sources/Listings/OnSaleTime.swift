/// When tickets go on sale, from the text a source gives (`on_sale`): ISO 8601 with an
/// offset or `Z`, a local time (the venue's), or a date alone (the venue's midnight).
/// Impossible dates and times (2026-02-30, 25:00) give nil.
public enum OnSaleTime {
    public static func instant(_ text: String, venueZone: String?) -> UTCInstant? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = LocalDate.number(bytes[0..<4]), let month = LocalDate.number(bytes[5..<7]),
            let day = LocalDate.number(bytes[8..<10]), let date = LocalDate(year: year, month: month, day: day)
        else { return nil }
        var time = LocalTime(hour: 0, minute: 0)!
        var rest = bytes[10...]
        if let separator = rest.first, separator == UInt8(ascii: "T") || separator == UInt8(ascii: " ") {
            rest = rest.dropFirst()
            guard rest.count >= 5, rest[rest.startIndex + 2] == UInt8(ascii: ":"),
                let hour = LocalDate.number(rest.prefix(2)), let minute = LocalDate.number(rest.dropFirst(3).prefix(2))
            else { return nil }
            rest = rest.dropFirst(5)
            var second = 0
            if rest.first == UInt8(ascii: ":") {
                guard let parsed = LocalDate.number(rest.dropFirst().prefix(2)), rest.count >= 3 else { return nil }
                second = parsed
                rest = rest.dropFirst(3)
            }
            if rest.first == UInt8(ascii: ".") { rest = rest.dropFirst().drop { (0x30...0x39).contains($0) } }
            guard let parsed = LocalTime(hour: hour, minute: minute, second: second) else { return nil }
            time = parsed
        }
        if rest.isEmpty {
            guard let venueZone else { return UTCInstant(date: date, time: time, utcOffsetSeconds: 0) }
            return UTCInstant(date: date, time: time, timeZoneIdentifier: venueZone)
        }
        if rest.elementsEqual([UInt8(ascii: "Z")]) { return UTCInstant(date: date, time: time, utcOffsetSeconds: 0) }
        guard let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = rest.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 4, let hours = LocalDate.number(digits.prefix(2)), let minutes = LocalDate.number(digits.suffix(2)),
            hours <= 14, minutes < 60
        else { return nil }
        let offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        return UTCInstant(date: date, time: time, utcOffsetSeconds: offset)
    }
}
