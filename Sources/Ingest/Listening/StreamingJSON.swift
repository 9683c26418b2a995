import Foundation

/// A JSON value a ``StreamingJSON`` reader hands over: only those under keys asked for.
enum JSONScalar {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    var text: String? {
        switch self {
        case .string(let text): text
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        default: nil
        }
    }

    var number: Double? {
        switch self {
        case .number(let number): number
        case .string(let text): Double(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }
}

/// Receives what a ``StreamingJSON`` reader finds. Paths hold the indexes (into the
/// reader's `keys`) of the object keys from the top; array levels are not in them.
protocol StreamingJSONHandler {
    /// A scalar whose every enclosing key is one of the keys asked for.
    mutating func scalar(_ value: JSONScalar, path: [Int]) throws(ListeningImportError)
    /// An object closed whose every enclosing key is one of the keys asked for.
    mutating func objectEnded(path: [Int]) throws(ListeningImportError)
}

/// Reads JSON from a stream in one pass and constant memory: one value (an array of
/// records) or values one after another (JSON lines). Members under keys nobody asked
/// for are checked for syntax and skipped without building strings.
struct StreamingJSON {
    static let maximumDepth = 256

    let stream: ByteStream
    let file: String
    private let keys: [[UInt8]]
    private var path: [Int] = []
    /// How many keys of `path` nobody asked for (-1): values under them are skipped.
    private var skipping = 0
    private var depth = 0
    private var scratch: [UInt8] = []

    init(stream: ByteStream, file: String, keys: [String]) {
        self.stream = stream
        self.file = file
        self.keys = keys.map { Array($0.utf8) }
        scratch.reserveCapacity(256)
    }

    /// Reads every top-level value to the end of the stream.
    mutating func readAll(into handler: inout some StreamingJSONHandler) throws(ListeningImportError) {
        if stream.head(3) == [0xEF, 0xBB, 0xBF] { for _ in 0..<3 { _ = stream.next() } }
        do {
            while true {
                skipWhitespace()
                guard stream.peek() != nil else { return }
                try value(&handler)
            }
        } catch {
            // A record a handler refused: where the stream is, that record ends.
            var located = error
            if located.position == nil { located.position = stream.position }
            throw located
        }
    }

    private func fail(_ message: String) -> ListeningImportError {
        ListeningImportError(file: file, position: stream.position, message: message)
    }

    private func unexpected() -> ListeningImportError {
        guard let byte = stream.peek() else { return fail("the file ends inside a JSON value (truncated?)") }
        let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
        return fail("unexpected \(shown) in JSON")
    }

    @inline(__always)
    private func skipWhitespace() {
        while let byte = stream.peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { _ = stream.next() }
    }

    private mutating func value(_ handler: inout some StreamingJSONHandler) throws(ListeningImportError) {
        skipWhitespace()
        guard let byte = stream.peek() else { throw unexpected() }
        switch byte {
        case UInt8(ascii: "{"): try object(&handler)
        case UInt8(ascii: "["): try array(&handler)
        case UInt8(ascii: "\""):
            if skipping > 0 {
                try skipString()
            } else {
                try readString()
                try handler.scalar(.string(String(decoding: scratch, as: UTF8.self)), path: path)
            }
        case UInt8(ascii: "t"): try literal("true"); if skipping == 0 { try handler.scalar(.bool(true), path: path) }
        case UInt8(ascii: "f"): try literal("false"); if skipping == 0 { try handler.scalar(.bool(false), path: path) }
        case UInt8(ascii: "n"): try literal("null"); if skipping == 0 { try handler.scalar(.null, path: path) }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try readNumber()
            if skipping == 0 { try handler.scalar(.number(number), path: path) }
        default: throw unexpected()
        }
    }

    private mutating func enter() throws(ListeningImportError) {
        depth += 1
        if depth > Self.maximumDepth { throw fail("JSON nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func object(_ handler: inout some StreamingJSONHandler) throws(ListeningImportError) {
        try enter()
        _ = stream.next()
        skipWhitespace()
        if stream.peek() == UInt8(ascii: "}") {
            _ = stream.next()
        } else {
            while true {
                skipWhitespace()
                guard stream.peek() == UInt8(ascii: "\"") else { throw unexpected() }
                let key = try readKey()
                skipWhitespace()
                guard stream.next() == UInt8(ascii: ":") else { throw unexpected() }
                path.append(key)
                if key < 0 { skipping += 1 }
                try value(&handler)
                if key < 0 { skipping -= 1 }
                path.removeLast()
                skipWhitespace()
                switch stream.next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"): break
                default: throw fail(stream.peek() == nil ? "the file ends inside a JSON object (truncated?)" : "expected ',' or '}' in a JSON object")
                }
                break
            }
        }
        depth -= 1
        if skipping == 0 { try handler.objectEnded(path: path) }
    }

    private mutating func array(_ handler: inout some StreamingJSONHandler) throws(ListeningImportError) {
        try enter()
        _ = stream.next()
        skipWhitespace()
        if stream.peek() == UInt8(ascii: "]") {
            _ = stream.next()
            depth -= 1
            return
        }
        while true {
            try value(&handler)
            skipWhitespace()
            switch stream.next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): depth -= 1; return
            default: throw fail(stream.peek() == nil ? "the file ends inside a JSON array (truncated?)" : "expected ',' or ']' in a JSON array")
            }
        }
    }

    private func literal(_ word: StaticString) throws(ListeningImportError) {
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for expected in bytes {
            guard stream.peek() == expected else { throw unexpected() }
            _ = stream.next()
        }
    }

    /// The index of the key in `keys`, or -1; the key is compared as it is read.
    private mutating func readKey() throws(ListeningImportError) -> Int {
        try readString()
        for (index, key) in keys.enumerated() where key == scratch { return index }
        return -1
    }

    private mutating func readString() throws(ListeningImportError) {
        scratch.removeAll(keepingCapacity: true)
        _ = stream.next()
        while true {
            guard let byte = stream.append(untilQuoteOrEscapeInto: &scratch) else {
                throw fail("the file ends inside a JSON string (truncated?)")
            }
            if byte < 0x20 { throw fail("a control character inside a JSON string") }
            _ = stream.next()
            if byte == UInt8(ascii: "\"") { return }
            try escape()
        }
    }

    private func skipString() throws(ListeningImportError) {
        _ = stream.next()
        while true {
            guard let byte = stream.skipToQuoteOrEscape() else { throw fail("the file ends inside a JSON string (truncated?)") }
            if byte < 0x20 { throw fail("a control character inside a JSON string") }
            _ = stream.next()
            if byte == UInt8(ascii: "\"") { return }
            guard stream.next() != nil else { throw fail("the file ends inside a JSON string (truncated?)") }
        }
    }

    private mutating func escape() throws(ListeningImportError) {
        guard let byte = stream.next() else { throw fail("the file ends inside a JSON string (truncated?)") }
        if let unescaped = JSONEscape.byte(escaping: byte) {
            scratch.append(unescaped)
            return
        }
        switch byte {
        case UInt8(ascii: "u"):
            var unit = try hex4()
            if (0xD800..<0xDC00).contains(unit), stream.peek() == UInt8(ascii: "\\") {
                _ = stream.next()
                guard stream.next() == UInt8(ascii: "u") else { throw fail("a lone surrogate in a JSON string") }
                let low = try hex4()
                unit = 0x10000 + ((unit - 0xD800) << 10) + (low &- 0xDC00)
            }
            scratch.append(contentsOf: Array(String(Unicode.Scalar(unit) ?? "\u{FFFD}").utf8))
        default: throw fail("a bad escape in a JSON string")
        }
    }

    private func hex4() throws(ListeningImportError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = stream.next(), let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw fail("a bad \\u escape in a JSON string")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func readNumber() throws(ListeningImportError) -> Double {
        scratch.removeAll(keepingCapacity: true)
        while let byte = stream.peek(),
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        {
            scratch.append(byte)
            _ = stream.next()
        }
        if skipping > 0 { return 0 }
        // Integers (nearly every number in an export) without going through text.
        var integer: Int64 = 0
        var isInteger = scratch.count < 18
        for (index, byte) in scratch.enumerated() {
            if byte == UInt8(ascii: "-"), index == 0 { continue }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { isInteger = false; break }
            integer = integer * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        if isInteger, scratch.contains(where: { $0 != UInt8(ascii: "-") }) {
            return Double(scratch.first == UInt8(ascii: "-") ? -integer : integer)
        }
        guard let number = Double(String(decoding: scratch, as: UTF8.self)) else { throw fail("a malformed JSON number") }
        return number
    }
}
