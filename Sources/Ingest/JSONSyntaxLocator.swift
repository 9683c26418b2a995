/// Finds where JSON stops being well-formed, as a line and column.
///
/// Foundation's decoders on Linux say only "not valid JSON"; an operator needs to know
/// where. This scanner runs only after a decode has failed, so it favours clarity over
/// speed. It checks structure (RFC 8259 grammar), not meaning.
struct JSONSyntaxLocator {
    struct Failure: Error, Equatable {
        let line: Int
        let column: Int
        let message: String

        var position: String { "line \(line), column \(column)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The first syntax error in `bytes`, or nil when they are well-formed JSON.
    static func firstError(in bytes: some Collection<UInt8>) -> Failure? {
        var scanner = JSONSyntaxLocator(Array(bytes))
        do throws(Failure) {
            if scanner.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
            try scanner.value()
            scanner.skipWhitespace()
            if scanner.index < scanner.bytes.count { throw scanner.fail("unexpected content after the top-level value") }
            return nil
        } catch {
            return error
        }
    }

    private func fail(_ message: String) -> Failure {
        let (line, column) = Self.lineAndColumn(ofOffset: index, in: bytes)
        return Failure(line: line, column: column, message: message)
    }

    /// The line and column (in characters, from 1) of the byte at `offset`.
    static func lineAndColumn(ofOffset offset: Int, in bytes: some Collection<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        skipWhitespace()
        guard peek() == byte else { throw fail(peek() == nil ? "unexpected end of input, expected \(what)" : "expected \(what)") }
        index += 1
    }

    private mutating func value() throws(Failure) {
        skipWhitespace()
        guard let byte = peek() else { throw fail("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw fail("unexpected character '\(Character(Unicode.Scalar(byte)))', expected a value")
        }
    }

    private mutating func nest() throws(Failure) {
        depth += 1
        if depth > 512 { throw fail("nesting deeper than 512 levels") }
    }

    private mutating func object() throws(Failure) {
        try nest()
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw fail(peek() == nil ? "unexpected end of input, expected a key" : "expected a quoted key")
            }
            try string()
            try expect(UInt8(ascii: ":"), "':' after a key")
            try value()
            skipWhitespace()
            guard let next = peek() else { throw fail("unexpected end of input, expected ',' or '}'") }
            index += 1
            if next == UInt8(ascii: "}") { break }
            guard next == UInt8(ascii: ",") else {
                index -= 1
                throw fail("expected ',' or '}' in an object")
            }
        }
        depth -= 1
    }

    private mutating func array() throws(Failure) {
        try nest()
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            try value()
            skipWhitespace()
            guard let next = peek() else { throw fail("unexpected end of input, expected ',' or ']'") }
            index += 1
            if next == UInt8(ascii: "]") { break }
            guard next == UInt8(ascii: ",") else {
                index -= 1
                throw fail("expected ',' or ']' in an array")
            }
        }
        depth -= 1
    }

    private mutating func string() throws(Failure) {
        index += 1
        while let byte = peek() {
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { throw fail("unexpected end of input in a string") }
                if escaped == UInt8(ascii: "u") {
                    let hex = bytes[(index + 1)..<min(index + 5, bytes.count)]
                    guard hex.count == 4, hex.allSatisfy({ Self.isHexDigit($0) }) else {
                        throw fail("invalid \\u escape in a string")
                    }
                    index += 5
                } else if Array("\"\\/bfnrt".utf8).contains(escaped) {
                    index += 1
                } else {
                    throw fail("invalid escape in a string")
                }
            case 0..<0x20:
                index -= 1
                throw fail("unescaped control character in a string")
            default: continue
            }
        }
        throw fail("unexpected end of input in a string")
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else { throw fail("expected '\(word)'") }
        index += expected.count
    }

    private mutating func number() throws(Failure) {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        var digits = 0
        while let byte = peek(), Self.isDigit(byte) {
            index += 1
            digits += 1
        }
        guard digits > 0 else { throw fail("invalid number") }
        if bytes[start...].starts(with: Array("0".utf8)) || bytes[start...].starts(with: Array("-0".utf8)), digits > 1 {
            index = start
            throw fail("numbers must not have leading zeros")
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let byte = peek(), Self.isDigit(byte) else { throw fail("invalid number: digits expected after '.'") }
            while let byte = peek(), Self.isDigit(byte) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek(), Self.isDigit(byte) else { throw fail("invalid number: digits expected in the exponent") }
            while let byte = peek(), Self.isDigit(byte) { index += 1 }
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// An ASCII hexadecimal digit, either case.
    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
