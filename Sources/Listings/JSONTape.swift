import Foundation

/// A JSON document read into one flat array of values ("tape"), for readers with too
/// many documents for `JSONDecoder` (ingesters' pages, the catalog's record snapshots).
///
/// `JSONDecoder` builds a dictionary of every object's keys and goes through the
/// generic `Decodable` machinery for each value; on a crawl of Songkick pages that was
/// three quarters of reading a page. The tape is one allocation per page; values are
/// found by scanning an object's members, and strings and numbers are decoded only
/// when asked for.
///
/// The tape is strict (RFC 8259, nesting at most ``maximumDepth`` deep) and only a fast
/// path: a reader that meets anything it does not expect throws ``JSONTapeMiss``, and
/// the caller decodes the page again with `JSONDecoder`, whose errors name the place.
public final class JSONTape {
    public enum Kind: UInt8, Sendable {
        case object, array, string, escapedString, number, `true`, `false`, null
    }

    struct Entry {
        var kind: Kind
        /// Bytes of the value: inside the quotes for strings; the brackets for containers.
        var start: Int32
        var end: Int32
        /// The index after this value and everything inside it.
        var next: Int32
    }

    public static let maximumDepth = 512

    let bytes: [UInt8]
    let entries: [Entry]

    /// Reads a document; nil when it is not well-formed JSON.
    public convenience init?(_ data: Data) {
        self.init(bytes: [UInt8](data))
    }

    /// Reads a document from its bytes, which the tape keeps.
    public init?(bytes: [UInt8]) {
        guard bytes.count < Int(Int32.max) else { return nil }
        let parsed = bytes.withUnsafeBufferPointer { buffer -> [Entry]? in
            var parser = Parser(bytes: buffer)
            return parser.parseDocument() ? parser.entries : nil
        }
        guard let parsed else { return nil }
        self.bytes = bytes
        entries = parsed
    }

    public var root: JSONTapeValue { JSONTapeValue(tape: self, index: 0) }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        var entries: [Entry] = []
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            entries.reserveCapacity(bytes.count / 8)
        }

        mutating func parseDocument() -> Bool {
            // A UTF-8 byte order mark is not JSON, but JSONDecoder accepts it.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
            skipWhitespace()
            guard parseValue() else { return false }
            skipWhitespace()
            return position == bytes.count
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        mutating func parseValue() -> Bool {
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "{"): return parseContainer(.object, close: UInt8(ascii: "}"))
            case UInt8(ascii: "["): return parseContainer(.array, close: UInt8(ascii: "]"))
            case UInt8(ascii: "\""): return parseString()
            case UInt8(ascii: "t"): return parseLiteral("true", .true)
            case UInt8(ascii: "f"): return parseLiteral("false", .false)
            case UInt8(ascii: "n"): return parseLiteral("null", .null)
            default: return parseNumber()
            }
        }

        mutating func parseContainer(_ kind: Kind, close: UInt8) -> Bool {
            depth += 1
            guard depth <= JSONTape.maximumDepth else { return false }
            let index = entries.count
            entries.append(Entry(kind: kind, start: Int32(position), end: 0, next: 0))
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == close {
                position += 1
            } else {
                while true {
                    if kind == .object {
                        guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), parseString() else { return false }
                        skipWhitespace()
                        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return false }
                        position += 1
                        skipWhitespace()
                    }
                    guard parseValue() else { return false }
                    skipWhitespace()
                    guard position < bytes.count else { return false }
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                        skipWhitespace()
                    } else if bytes[position] == close {
                        position += 1
                        break
                    } else {
                        return false
                    }
                }
            }
            entries[index].end = Int32(position)
            entries[index].next = Int32(entries.count)
            depth -= 1
            return true
        }

        mutating func parseString() -> Bool {
            position += 1
            let start = position
            var escaped = false
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    entries.append(Entry(
                        kind: escaped ? .escapedString : .string, start: Int32(start), end: Int32(position),
                        next: Int32(entries.count + 1)))
                    position += 1
                    return true
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                    position += 2
                } else if byte < 0x20 {
                    return false
                } else {
                    position += 1
                }
            }
            return false
        }

        mutating func parseLiteral(_ literal: StaticString, _ kind: Kind) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[position + offset] != literal.utf8Start[offset] { return false }
            entries.append(Entry(kind: kind, start: Int32(position), end: Int32(position + count), next: Int32(entries.count + 1)))
            position += count
            return true
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func parseNumber() -> Bool {
            let start = position
            func digit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            func digits() -> Bool {
                let first = position
                while position < bytes.count, digit(bytes[position]) { position += 1 }
                return position > first
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, digit(bytes[position]) else { return false }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else {
                _ = digits()
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard digits() else { return false }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                    position += 1
                }
                guard digits() else { return false }
            }
            entries.append(Entry(kind: .number, start: Int32(start), end: Int32(position), next: Int32(entries.count + 1)))
            return true
        }
    }
}

/// The tape met something its reader does not take on the fast path.
public struct JSONTapeMiss: Error {
    public init() {}
}

/// One value of a ``JSONTape``.
public struct JSONTapeValue {
    let tape: JSONTape
    let index: Int

    public var kind: JSONTape.Kind { tape.entries[index].kind }
    public var isNull: Bool { kind == .null }

    /// The value of `key` in an object (the last one when a key repeats, as
    /// `JSONDecoder` reads it); nil when the key is absent. Throws for a non-object.
    public func member(_ key: StaticString) throws(JSONTapeMiss) -> JSONTapeValue? {
        let entry = tape.entries[index]
        guard entry.kind == .object else { throw JSONTapeMiss() }
        var found: Int?
        var cursor = index + 1
        let end = Int(entry.next)
        while cursor < end {
            let keyEntry = tape.entries[cursor]
            if keyEntry.kind == .escapedString { throw JSONTapeMiss() }
            if Int(keyEntry.end - keyEntry.start) == key.utf8CodeUnitCount, matches(keyEntry, key) {
                found = cursor + 1
            }
            cursor = Int(tape.entries[cursor + 1].next)
        }
        return found.map { JSONTapeValue(tape: tape, index: $0) }
    }

    /// The value of `key`, treating an explicit null like an absent key.
    public func optionalMember(_ key: StaticString) throws(JSONTapeMiss) -> JSONTapeValue? {
        guard let value = try member(key), !value.isNull else { return nil }
        return value
    }

    private func matches(_ entry: JSONTape.Entry, _ key: StaticString) -> Bool {
        tape.bytes.withUnsafeBufferPointer { bytes in
            let start = Int(entry.start)
            for offset in 0..<key.utf8CodeUnitCount where bytes[start + offset] != key.utf8Start[offset] { return false }
            return true
        }
    }

    /// The elements of an array; throws for anything else.
    public func elements() throws(JSONTapeMiss) -> [JSONTapeValue] {
        let entry = tape.entries[index]
        guard entry.kind == .array else { throw JSONTapeMiss() }
        var values: [JSONTapeValue] = []
        var cursor = index + 1
        while cursor < Int(entry.next) {
            values.append(JSONTapeValue(tape: tape, index: cursor))
            cursor = Int(tape.entries[cursor].next)
        }
        return values
    }

    public func string() throws(JSONTapeMiss) -> String {
        let entry = tape.entries[index]
        switch entry.kind {
        case .string:
            let text = tape.bytes.withUnsafeBufferPointer { bytes in
                String(validating: UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
            }
            guard let text else { throw JSONTapeMiss() }
            return text
        case .escapedString:
            guard let text = unescaped(entry) else { throw JSONTapeMiss() }
            return text
        default:
            throw JSONTapeMiss()
        }
    }

    /// The literal text of a number.
    public func numberText() throws(JSONTapeMiss) -> Substring {
        let entry = tape.entries[index]
        guard entry.kind == .number else { throw JSONTapeMiss() }
        let text = tape.bytes.withUnsafeBufferPointer { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
        }
        return text[...]
    }

    /// An integer written without fraction or exponent, as `JSONDecoder` reads `Int`.
    public func integer() throws(JSONTapeMiss) -> Int {
        guard let value = Int(try numberText()) else { throw JSONTapeMiss() }
        return value
    }

    public func double() throws(JSONTapeMiss) -> Double {
        guard let value = Double(try numberText()), value.isFinite else { throw JSONTapeMiss() }
        return value
    }

    private func unescaped(_ entry: JSONTape.Entry) -> String? {
        tape.bytes.withUnsafeBufferPointer { bytes -> String? in
            var output: [UInt8] = []
            output.reserveCapacity(Int(entry.end - entry.start))
            var position = Int(entry.start)
            let end = Int(entry.end)
            func hex4(_ at: Int) -> UInt32? {
                guard at + 4 <= end else { return nil }
                var value: UInt32 = 0
                for offset in 0..<4 {
                    let byte = bytes[at + offset]
                    let digit: UInt32
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                    default: return nil
                    }
                    value = value << 4 | digit
                }
                return value
            }
            while position < end {
                let byte = bytes[position]
                guard byte == UInt8(ascii: "\\") else {
                    output.append(byte)
                    position += 1
                    continue
                }
                guard position + 1 < end else { return nil }
                let escape = bytes[position + 1]
                position += 2
                if let simple = JSONEscape.byte(escaping: escape) {
                    output.append(simple)
                    continue
                }
                switch escape {
                case UInt8(ascii: "u"):
                    guard var scalar = hex4(position) else { return nil }
                    position += 4
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard position + 6 <= end, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u"),
                            let low = hex4(position + 2), (0xDC00...0xDFFF).contains(low)
                        else { return nil }
                        position += 6
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        return nil
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    output.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    return nil
                }
            }
            return String(validating: output, as: UTF8.self)
        }
    }
}

/// Members read as `decodeIfPresent` reads them: an absent key or null is nil, a value of
/// another type is a miss.
extension JSONTapeValue {
    public func text(_ key: StaticString) throws(JSONTapeMiss) -> String? {
        try optionalMember(key)?.string()
    }

    public func int(_ key: StaticString) throws(JSONTapeMiss) -> Int? {
        try optionalMember(key)?.integer()
    }

    public func bool(_ key: StaticString) throws(JSONTapeMiss) -> Bool? {
        guard let value = try optionalMember(key) else { return nil }
        switch value.kind {
        case .true: return true
        case .false: return false
        default: throw JSONTapeMiss()
        }
    }

    public func object<T>(_ key: StaticString, _ read: (JSONTapeValue) throws(JSONTapeMiss) -> T) throws(JSONTapeMiss) -> T? {
        guard let value = try optionalMember(key) else { return nil }
        guard value.kind == .object else { throw JSONTapeMiss() }
        return try read(value)
    }

    public func array<T>(_ key: StaticString, _ read: (JSONTapeValue) throws(JSONTapeMiss) -> T) throws(JSONTapeMiss) -> [T]? {
        guard let value = try optionalMember(key) else { return nil }
        var elements: [T] = []
        for element in try value.elements() { elements.append(try read(element)) }
        return elements
    }
}

/// JSON's one-letter escapes.
public enum JSONEscape {
    /// The byte `\\` followed by `escape` stands for; nil for `u` and for invalid escapes.
    public static func byte(escaping escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }
}
