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
