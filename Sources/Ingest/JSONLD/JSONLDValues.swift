import Foundation
import Listings

/// Text as JSON-LD pages write it: HTML entities left in by templates, IRIs for terms.
enum JSONLDText {
    /// `Rock &amp; Roll` → `Rock & Roll`; trims and collapses white space; nil when empty.
    static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        return isClean(text) ? text : cleanedCharacterByCharacter(text)
    }

    /// What ``clean(_:)`` gives for text that is not clean already.
    static func cleanedCharacterByCharacter(_ text: String) -> String? {
        var result = ""
        var pendingSpace = false
        for character in decodeEntities(text) {
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(character)
            }
        }
        return result.isEmpty ? nil : result
    }

    /// Most values need nothing done: no entities, control characters, or white space
    /// other than single inner spaces, and are checked by their scalars rather than
    /// cleaned character by character, which showed in the time to read a page.
    private static func isClean(_ text: String) -> Bool {
        var previous: UInt32 = 0x20
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                if value < 0x20 || value == 0x26 || value == 0x7F { return false }
                if value == 0x20, previous == 0x20 { return false }
            } else if value < 0xA0 || isWhiteSpaceBeyondASCII(value)
                || previous == 0x20 && (scalar.properties.isGraphemeExtend || scalar.properties.generalCategory == .spacingMark
                    || value == 0x200D || value == 0x0E33 || value == 0x0EB3)
            {
                // C1 controls, white space, and what would make one character of a space
                // (which `Character.isWhitespace` then counts as white space): extenders,
                // spacing marks (Thai and Lao SARA AM among them), the zero-width joiner.
                return false
            }
            previous = value
        }
        return previous != 0x20
    }

    /// Unicode's White_Space beyond ASCII (a closed set: U+0085, U+00A0, U+1680,
    /// U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
    private static func isWhiteSpaceBeyondASCII(_ value: UInt32) -> Bool {
        switch value {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// The local name of a schema.org term or type: `MusicEvent` from `MusicEvent`,
    /// `schema:MusicEvent`, `http://schema.org/MusicEvent` or `https://schema.org/MusicEvent/`.
    static func localName(_ term: String) -> String {
        // By scalars, not characters: every term of every node passes here.
        var term = Substring(term.trimmingWhitespace()).unicodeScalars
        while term.last == "/" { term = term.dropLast() }
        if let separator = term.lastIndex(where: { $0 == "/" || $0 == "#" || $0 == ":" }) {
            term = term[term.index(after: separator)...]
        }
        return String(term)
    }

    /// `SoldOut` → `sold out`, `InStock` → `in stock`.
    static func words(_ camelCase: String) -> String {
        var result = ""
        var previousWasLower = false
        for character in camelCase {
            if character.isUppercase, previousWasLower { result.append(" ") }
            if character == "_" || character == "-" {
                result.append(" ")
                previousWasLower = false
                continue
            }
            result.append(contentsOf: character.lowercased())
            previousWasLower = character.isLowercase || character.isNumber
        }
        return result
    }

    /// Decodes `&amp;`, `&#39;`, `&#x27;`, `&quot;` and the other common named entities
    /// that templates leave inside JSON-LD strings. Unknown entities are left as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
                result.append("&")
                rest = after
                continue
            }
            let name = after[..<semicolon]
            if let decoded = entity(name) {
                result += decoded
                rest = after[after.index(after: semicolon)...]
            } else {
                result.append("&")
                rest = after
            }
        }
        result += rest
        return result
    }

    private static func entity(_ name: Substring) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = digits.allSatisfy(\.isASCII) ? UInt32(digits) : nil
            }
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            return String(Character(scalar))
        }
        return namedEntities[String(name)]
    }

    private static let namedEntities: [String: String] = {
        var table: [String: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
            "ndash": "\u{2013}", "mdash": "\u{2014}", "hellip": "\u{2026}", "lsquo": "\u{2018}",
            "rsquo": "\u{2019}", "sbquo": "\u{201A}", "ldquo": "\u{201C}", "rdquo": "\u{201D}",
            "bdquo": "\u{201E}", "laquo": "\u{00AB}", "raquo": "\u{00BB}", "copy": "\u{00A9}",
            "reg": "\u{00AE}", "trade": "\u{2122}", "euro": "\u{20AC}", "pound": "\u{00A3}",
            "yen": "\u{00A5}", "cent": "\u{00A2}", "middot": "\u{00B7}", "bull": "\u{2022}",
            "deg": "\u{00B0}", "times": "\u{00D7}", "shy": "", "szlig": "\u{00DF}", "iexcl": "\u{00A1}",
            "iquest": "\u{00BF}",
        ]
        // Accented letters: `&eacute;` é, `&Eacute;` É, and so on.
        let accents: [(String, [Character: String])] = [
            ("acute", ["a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú", "y": "ý"]),
            ("grave", ["a": "à", "e": "è", "i": "ì", "o": "ò", "u": "ù"]),
            ("circ", ["a": "â", "e": "ê", "i": "î", "o": "ô", "u": "û"]),
            ("uml", ["a": "ä", "e": "ë", "i": "ï", "o": "ö", "u": "ü", "y": "ÿ"]),
            ("tilde", ["a": "ã", "n": "ñ", "o": "õ"]),
            ("ring", ["a": "å"]),
            ("cedil", ["c": "ç"]),
            ("slash", ["o": "ø"]),
        ]
        for (suffix, letters) in accents {
            for (letter, accented) in letters {
                table["\(letter)\(suffix)"] = accented
                table["\(letter.uppercased())\(suffix)"] = accented.uppercased()
            }
        }
        table["aelig"] = "æ"
        table["AElig"] = "Æ"
        return table
    }()
}

/// A start or end as JSON-LD pages write it.
struct JSONLDDateTime: Sendable, Equatable {
    var date: LocalDate
    var time: LocalTime?
    /// East-positive offset from UTC when the text gave one (`Z`, `-06:00`, `-0600`).
    var utcOffsetSeconds: Int?

    /// As Encore stores a start: a UTC time (`Z`) is the instant, not the venue's clock.
    var eventStart: EventStart {
        var start = EventStart(localDate: date, localTime: time, timeZone: nil, utc: instant)
        start.awaitsVenueZone = utcOffsetSeconds == 0 && time != nil
        return start
    }

    /// The instant, when both a time and an offset were given.
    var instant: UTCInstant? {
        guard let time, let utcOffsetSeconds else { return nil }
        return UTCInstant(date: date, time: time, utcOffsetSeconds: utcOffsetSeconds)
    }

    struct Problem: Error {
        let detail: String
    }

    /// Reads ISO 8601 and the unambiguous ways real pages get it wrong.
    ///
    /// Accepted: `2024-11-23`, `2024-11-23T20:30`, `2024-11-23T20:30:00`, with fractions
    /// of a second, with `Z`, `+01:00`, `+0100` or `+01`, a space instead of `T`,
    /// one-digit months, days and hours, and 12-hour clocks (`2024-11-23T8:30PM:00` is
    /// 20:30, `2024-11-23T8:30 p.m.`). Refused: dates that do not exist (2026-02-30),
    /// times out of range, contradictions (`20:30 AM`), a bare one-digit hour, other
    /// date orders (`11/23/2024` could be either day or month first) and anything left over.
    static func parse(_ text: String) throws(Problem) -> JSONLDDateTime {
        let trimmed = text.trimmingWhitespace()
        let bytes = Array(trimmed.utf8)
        var index = 0
        let notISO = Problem(detail: "\"\(trimmed)\" is not an ISO 8601 date or date-time (YYYY-MM-DDTHH:MM:SS)")

        func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func number(maxDigits: Int) -> (value: Int, digits: Int)? {
            var value = 0
            var digits = 0
            while digits < maxDigits, let byte = peek(), (48...57).contains(byte) {
                value = value * 10 + Int(byte - 48)
                digits += 1
                index += 1
            }
            return digits == 0 ? nil : (value, digits)
        }
        func skipSpaces() {
            while peek() == UInt8(ascii: " ") { index += 1 }
        }
        func lower(_ byte: UInt8?) -> UInt8? { byte.map { (65...90).contains($0) ? $0 + 32 : $0 } }
        /// `am`, `pm`, `a.m.`, `p.m.` (any case, optionally after spaces): true for pm.
        func meridiem() -> Bool? {
            let saved = index
            skipSpaces()
            guard let first = lower(peek()), first == UInt8(ascii: "a") || first == UInt8(ascii: "p") else {
                index = saved
                return nil
            }
            if lower(peek(1)) == UInt8(ascii: "m") {
                index += 2
            } else if peek(1) == UInt8(ascii: "."), lower(peek(2)) == UInt8(ascii: "m"), peek(3) == UInt8(ascii: ".") {
                index += 4
            } else {
                index = saved
                return nil
            }
            if let next = lower(peek()), (97...122).contains(next) {  // "amsterdam" is not a meridiem
                index = saved
                return nil
            }
            return first == UInt8(ascii: "p")
        }

        guard let year = number(maxDigits: 4), year.digits == 4, peek() == UInt8(ascii: "-") else { throw notISO }
        index += 1
        guard let month = number(maxDigits: 2), peek() == UInt8(ascii: "-") else { throw notISO }
        index += 1
        guard let day = number(maxDigits: 2) else { throw notISO }
        if let byte = peek(), (48...57).contains(byte) { throw notISO }
        guard let date = LocalDate(year: year.value, month: month.value, day: day.value) else {
            let written = "\(year.value)-\(twoDigits(month.value))-\(twoDigits(day.value))"
            throw Problem(detail: "\"\(trimmed)\" is not a date: \(written) does not exist")
        }
        guard let separator = peek() else { return JSONLDDateTime(date: date) }
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " ") else {
            throw notISO
        }
        index += 1
        skipSpaces()
        if peek() == nil { return JSONLDDateTime(date: date) }  // "2024-11-23T": the date alone is clear

        guard let hour = number(maxDigits: 2) else { throw notISO }
        var minute = 0
        var hasMinutes = false
        if peek() == UInt8(ascii: ":") {
            index += 1
            guard let parsed = number(maxDigits: 2), parsed.digits == 2 else { throw notISO }
            minute = parsed.value
            hasMinutes = true
        }
        var isPM = meridiem()
        var second = 0
        if peek() == UInt8(ascii: ":") {
            guard hasMinutes else { throw notISO }
            index += 1
            guard let parsed = number(maxDigits: 2), parsed.digits == 2 else { throw notISO }
            second = parsed.value
        }
        if peek() == UInt8(ascii: "."), let next = peek(1), (48...57).contains(next) {
            index += 1
            while let byte = peek(), (48...57).contains(byte) { index += 1 }
        }
        if isPM == nil { isPM = meridiem() }
        skipSpaces()
        var offset: Int?
        if let sign = peek() {
            if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
                index += 1
                offset = 0
            } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                index += 1
                guard let hours = number(maxDigits: 2), hours.digits == 2 else { throw notISO }
                var minutes = 0
                if peek() == UInt8(ascii: ":") { index += 1 }
                if let parsed = number(maxDigits: 2) {
                    guard parsed.digits == 2 else { throw notISO }
                    minutes = parsed.value
                }
                guard hours.value <= 14, minutes < 60 else {
                    throw Problem(detail: "\"\(trimmed)\" has an impossible UTC offset")
                }
                offset = (hours.value * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
            }
        }
        guard index == bytes.count else { throw notISO }

        var hour24 = hour.value
        if let isPM {
            switch (hour.value, isPM) {
            case (1...11, true): hour24 = hour.value + 12
            case (12, false): hour24 = 0
            case (0...12, _): break
            case (13...23, true): break  // "20:30 PM": redundant, not ambiguous
            default: throw Problem(detail: "\"\(trimmed)\" is not a time: \(hour.value) \(isPM ? "PM" : "AM") is contradictory")
            }
        } else if !hasMinutes && hour.digits < 2 {
            throw Problem(detail: "\"\(trimmed)\" has an hour without minutes or AM/PM")
        }
        guard let time = LocalTime(hour: hour24, minute: minute, second: second) else {
            throw Problem(detail: "\"\(trimmed)\" is not a time: \(hour24):\(twoDigits(minute)) is out of range")
        }
        return JSONLDDateTime(date: date, time: time, utcOffsetSeconds: offset)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 && value >= 0 ? "0\(value)" : String(value)
    }
}

/// Prices as pages write them: numbers, or text such as `"20"`, `"$1,250.00"`,
/// `"12,50 €"`, `"Free"`, `"20 - 35"`.
enum JSONLDPrice {
    struct Parsed: Equatable {
        var low: Double
        var high: Double
        /// A currency the text names unambiguously (`€`, `£`, `USD`), if any.
        var currency: String?
    }

    struct Problem: Error {
        let detail: String
    }

    /// Nil for text without a number (empty, `TBA`, `see website`): no price given.
    ///
    /// Separators: with both `,` and `.`, the last one is the decimal point and the other
    /// must group thousands in threes; a lone `,` is a decimal comma unless exactly three
    /// digits follow it (`1,250` is 1250: prices do not have three decimals); a lone `.`
    /// is a decimal point, as schema.org requires. `$` alone names no currency (US,
    /// Canada, Australia...).
    static func parse(_ text: String) throws(Problem) -> Parsed? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        // Most prices are plain decimals (`35`, `35.00`), read as the rules below would
        // read them without splitting the text into characters first.
        if let plain = plainDecimal(trimmed) { return Parsed(low: plain, high: plain, currency: nil) }
        let characters = Array(trimmed)
        var runs: [(start: Int, end: Int)] = []
        var index = 0
        while index < characters.count {
            if characters[index].isASCII, characters[index].isNumber {
                let start = index
                while index < characters.count,
                    (characters[index].isASCII && characters[index].isNumber) || characters[index] == "," || characters[index] == "."
                {
                    index += 1
                }
                var end = index
                while end > start, characters[end - 1] == "," || characters[end - 1] == "." { end -= 1 }
                runs.append((start, end))
            } else {
                index += 1
            }
        }
        let currency = self.currency(in: trimmed)
        if runs.isEmpty {
            // "Free" is a price; "TBA", "see website" or "-" says there is none yet.
            let lower = trimmed.lowercased()
            if ["free", "gratis", "kostenlos", "gratuit", "gratuito"].contains(where: { lower.contains($0) }) {
                return Parsed(low: 0, high: 0, currency: currency)
            }
            return nil
        }
        // A minus sign right before the first number (after any currency sign) is negative.
        if let first = runs.first {
            let before = String(characters[..<first.start]).trimmingSpaces()
            if before.hasSuffix("-") || before.hasSuffix("\u{2212}") {
                throw Problem(detail: "\"\(trimmed)\" is a negative price")
            }
        }
        func value(_ run: (start: Int, end: Int)) throws(Problem) -> Double {
            guard let number = amount(String(characters[run.start..<run.end])) else {
                throw Problem(detail: "\"\(trimmed)\" is not a price: cannot tell the decimal separator")
            }
            return number
        }
        switch runs.count {
        case 1:
            let amount = try value(runs[0])
            return Parsed(low: amount, high: amount, currency: currency)
        case 2:
            let between = String(characters[runs[0].end..<runs[1].start])
                .filter { !$0.isWhitespace && !"$€£¥".contains($0) }.lowercased()
            let rest = currency.map { between.replacingOccurrences(of: $0.lowercased(), with: "") } ?? between
            guard ["-", "\u{2013}", "\u{2014}", "to", "bis", "/"].contains(rest) else {
                throw Problem(detail: "\"\(trimmed)\" is not a price: more than one number")
            }
            let low = try value(runs[0])
            let high = try value(runs[1])
            guard low <= high else { throw Problem(detail: "\"\(trimmed)\" is a range from high to low") }
            return Parsed(low: low, high: high, currency: currency)
        default:
            throw Problem(detail: "\"\(trimmed)\" is not a price: more than one number")
        }
    }

    /// Digits, with at most one `.` between two of them.
    private static func plainDecimal(_ text: String) -> Double? {
        var dots = 0
        var previous: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): break
            case UInt8(ascii: ".") where previous != 0 && previous != UInt8(ascii: "."): dots += 1
            default: return nil
            }
            previous = byte
        }
        guard dots <= 1, previous != UInt8(ascii: ".") else { return nil }
        return Double(text)
    }

    /// `1,234.50` → 1234.5, `12,50` → 12.5, `1.234,50` → 1234.5; nil when the
    /// separators do not make sense.
    static func amount(_ text: String) -> Double? {
        let lastComma = text.lastIndex(of: ",")
        let lastDot = text.lastIndex(of: ".")
        var integerPart: Substring
        var fraction: Substring = ""
        var grouping: Character?
        switch (lastComma, lastDot) {
        case (nil, nil):
            integerPart = Substring(text)
        case (let comma?, let dot?):
            let decimal = max(comma, dot)
            integerPart = text[..<decimal]
            fraction = text[text.index(after: decimal)...]
            grouping = decimal == comma ? "." : ","
            if fraction.contains(",") || fraction.contains(".") { return nil }
        case (.some, nil):
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            if parts.count == 2, parts[1].count != 3 {
                integerPart = parts[0]
                fraction = parts[1]
            } else {
                integerPart = Substring(text)
                grouping = ","
            }
        case (nil, .some):
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 2 {
                integerPart = parts[0]
                fraction = parts[1]
            } else {
                integerPart = Substring(text)
                grouping = "."
            }
        }
        if let grouping {
            let groups = integerPart.split(separator: grouping, omittingEmptySubsequences: false)
            guard let first = groups.first, (1...3).contains(first.count),
                groups.dropFirst().allSatisfy({ $0.count == 3 })
            else { return nil }
            integerPart = Substring(groups.joined())
        }
        guard !integerPart.isEmpty, integerPart.allSatisfy(\.isASCII), fraction.allSatisfy(\.isASCII),
            let value = Double(fraction.isEmpty ? String(integerPart) : "\(integerPart).\(fraction)")
        else { return nil }
        return value
    }

    /// `EUR` from `€`, `GBP` from `£`, or a three-letter code written in the text.
    static func currency(in text: String) -> String? {
        if text.containsText("€") { return "EUR" }
        if text.containsText("£") { return "GBP" }
        let words = text.split { !$0.isLetter }
        for word in words where word.count == 3 && word.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            return String(word)
        }
        return nil
    }

    /// A currency code from `priceCurrency`: three letters, or `€`/`£`.
    static func currencyCode(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        if trimmed.count == 3, trimmed.allSatisfy({ $0.isASCII && $0.isLetter }) { return trimmed.uppercased() }
        if trimmed == "€" { return "EUR" }
        if trimmed == "£" { return "GBP" }
        return nil
    }
}
