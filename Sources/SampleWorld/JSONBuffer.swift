/// An append-only UTF-8 byte buffer with just the JSON emitters the writers need.
///
/// Writers build JSON text themselves instead of going through `JSONSerialization` or
/// `JSONEncoder`: key order must be fixed (byte-identical output), numbers must print the
/// way the real APIs print them (`0.156595`, `44.9434383`, never `1e-05`), and a million
/// events have to be written in seconds, which rules out building dictionaries per event.
struct JSONBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends JSON text verbatim (punctuation and keys).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes that are already valid JSON (a precomputed fragment).
    mutating func raw(_ fragment: [UInt8]) {
        bytes.append(contentsOf: fragment)
    }

    /// Appends bytes that are already valid JSON, from a ``FragmentTable``.
    mutating func raw(_ fragment: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: fragment)
    }

    /// Appends a quoted, escaped JSON string.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        escaped(text)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func string(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    /// Appends the escaped contents of a JSON string without the quotes, so several pieces
    /// can be joined into one string value. Non-ASCII stays raw UTF-8, as Songkick sends it.
    mutating func escaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
    }

    /// Appends text that needs no escaping in the output at hand (slugs, digits, ASCII ids).
    mutating func plain(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// Appends text as XML character data or a double-quoted attribute value: the five
    /// markup characters as entities, tab/newline/return as character references (so an
    /// attribute keeps them), and the other C0 controls, which XML 1.0 cannot hold, dropped.
    mutating func xmlEscaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "<"): raw("&lt;")
            case UInt8(ascii: ">"): raw("&gt;")
            case UInt8(ascii: "\""): raw("&quot;")
            case UInt8(ascii: "'"): raw("&apos;")
            case UInt8(ascii: "\t"): raw("&#9;")
            case UInt8(ascii: "\n"): raw("&#10;")
            case UInt8(ascii: "\r"): raw("&#13;")
            case 0..<0x20: continue
            default: bytes.append(byte)
            }
        }
    }

    /// Appends ` name="value"` (escaped), or nothing when the value is nil: XML writers
    /// leave null values out rather than writing empty attributes.
    mutating func xmlAttribute(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        bytes.append(UInt8(ascii: " "))
        raw(name)
        raw("=\"")
        xmlEscaped(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends JSON string contents the way PHP's `json_encode` writes them, as Last.fm's
    /// JSON does: `/` as `\/` and every non-ASCII character as `\uXXXX` (UTF-16, so
    /// characters beyond the BMP become surrogate pairs).
    mutating func asciiEscaped(_ text: String) {
        for unit in text.utf16 {
            switch unit {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x2F: raw("\\/")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0x20..<0x80: bytes.append(UInt8(unit))
            default: unicodeEscape(unit)
            }
        }
    }

    /// Appends JSON string contents that are also safe inside an HTML `<script>` block:
    /// `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026`, so no `</script>` can appear.
    mutating func scriptSafeEscaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"): unicodeEscape(UInt16(byte))
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            case 0..<0x20: unicodeEscape(UInt16(byte))
            default: bytes.append(byte)
            }
        }
    }

    private mutating func unicodeEscape(_ unit: UInt16) {
        raw("\\u")
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(Self.hexDigits[Int(unit >> UInt16(shift) & 0xF)])
        }
    }

    /// Appends `scaled / 10^places` with exactly `places` decimals: (2500, 2) → `25.00`.
    mutating func fixed(_ scaled: Int, places: Int) {
        if scaled < 0 { bytes.append(UInt8(ascii: "-")) }
        var divisor = 1
        for _ in 0..<places { divisor *= 10 }
        let magnitude = Int(scaled.magnitude)
        digits(UInt(magnitude / divisor))
        guard places > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        padded(magnitude % divisor, width: places)
    }

    /// Appends a price in cents as APIs print them: `75`, `65.5`, `52.75`.
    mutating func price(cents: Int) {
        if cents % 100 == 0 {
            int(cents / 100)
        } else {
            decimal(cents, places: 2)
        }
    }

    mutating func null() {
        raw("null")
    }

    mutating func int(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            digits(UInt(value.magnitude))
        } else {
            digits(UInt(value))
        }
    }

    /// Appends `scaled / 10^places` as a plain decimal with trailing zeros trimmed but at
    /// least one fractional digit: (1_560_000, 7) → `0.156`, (0, 6) → `0.0`.
    mutating func decimal(_ scaled: Int, places: Int) {
        if scaled < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = Int(scaled.magnitude)
        var divisor = 1
        for _ in 0..<places { divisor *= 10 }
        digits(UInt(magnitude / divisor))
        bytes.append(UInt8(ascii: "."))
        magnitude %= divisor
        var shown = places
        while shown > 1, magnitude % 10 == 0 {
            magnitude /= 10
            shown -= 1
        }
        divisor = 1
        for _ in 1..<max(shown, 1) { divisor *= 10 }
        for _ in 0..<shown {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }

    /// Appends a coordinate in degrees rounded to 7 places (about 1 cm), as Songkick prints them.
    mutating func degrees(_ value: Double) {
        decimal(Int((value * 10_000_000).rounded()), places: 7)
    }

    /// Appends a zero-padded number of exactly `width` digits (dates, times, offsets).
    mutating func padded(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        for _ in 0..<width {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    private mutating func digits(_ value: UInt) {
        var divisor: UInt = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
