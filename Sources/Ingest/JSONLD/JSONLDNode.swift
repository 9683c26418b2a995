import Listings

/// A JSON value read from a JSON-LD block, remembering where it was.
///
/// JSON-LD pages reference nodes by `@id` across a `@graph` and across `<script>` blocks,
/// so an error found while reading a venue reached through a reference must still name
/// the venue's own place in the file. Every value therefore carries its byte offset in
/// the file (for a line and column) and the range of its block, where its JSON path is
/// found again when a message needs it (rare), rather than built for every value.
struct JSONLDNode: Sendable {
    enum Value: Sendable {
        case null
        case bool(Bool)
        /// The number and its text as written.
        case number(Double, String)
        case string(String)
        case array([JSONLDNode])
        /// Members in document order (a duplicated key: the last one wins on lookup).
        case object([Member])
    }

    struct Member: Sendable {
        let key: String
        let node: JSONLDNode
    }

    let value: Value
    /// Byte offset of the value's first byte in the file.
    let offset: Int
    /// The bytes of the file its block spans.
    let block: Range<Int>

    /// The member named `key` of an object (nil for other values or a missing key).
    subscript(key: String) -> JSONLDNode? {
        guard case .object(let members) = value else { return nil }
        return members.last { $0.key == key }?.node
    }

    var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }

    var elements: [JSONLDNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// What kind of JSON value this is, for messages ("a number", "an array").
    var kindDescription: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// `@graph[2].location.geo.latitude` (empty for a block's top-level value), or with
    /// `key` the path of a member below it; `bytes` is the file the value was read from.
    func path(_ key: String? = nil, in bytes: [UInt8]) -> String {
        let path = JSONLDParser.path(ofValueAt: offset, in: bytes, block: block)
        return key.map { JSONLDParser.path(path, member: $0) } ?? path
    }
}

/// A strict JSON parser (RFC 8259) that records each value's offset and path.
///
/// One tolerance: raw tabs and line breaks inside strings, which content management
/// systems often leave in `description` text, are kept as they are. Everything else
/// that is not JSON is an error at a line and column of the file.
struct JSONLDParser {
    struct Failure: Error {
        let offset: Int
        let message: String
    }

    private let bytes: [UInt8]
    private let block: Range<Int>
    private var index: Int
    private let end: Int
    private var depth = 0

    /// Only while finding a value's path again (``path(ofValueAt:in:block:)``): the keys
    /// and indexes down to the value being read, the value sought, and its path once met.
    private var trail: [PathStep]?
    private var sought = -1
    private var soughtPath: String?

    private enum PathStep {
        case key(String)
        case index(Int)
    }

    /// Deep enough for any real page; shallow enough that recursion cannot exhaust the stack.
    static let maximumDepth = 256

    private init(bytes: [UInt8], start: Int, end: Int) {
        self.bytes = bytes
        self.block = start..<end
        self.index = start
        self.end = end
    }

    /// Parses the one JSON value in `bytes[start..<end]`; a trailing `;` is allowed.
    static func parse(_ bytes: [UInt8], start: Int, end: Int) throws(Failure) -> JSONLDNode {
        var parser = JSONLDParser(bytes: bytes, start: start, end: end)
        let node = try parser.value()
        parser.skipWhitespace()
        while parser.peek() == UInt8(ascii: ";") {
            parser.index += 1
            parser.skipWhitespace()
        }
        if parser.index < end { throw parser.fail("unexpected content after the top-level value") }
        return node
    }

    /// The JSON path of the value that starts at byte `offset` of a block that parsed,
    /// found by reading the block again (empty for its top-level value).
    static func path(ofValueAt offset: Int, in bytes: [UInt8], block: Range<Int>) -> String {
        var parser = JSONLDParser(bytes: bytes, start: block.lowerBound, end: block.upperBound)
        parser.trail = []
        parser.sought = offset
        _ = try? parser.value()
        return parser.soughtPath ?? ""
    }

    /// The path of member `key` of the value at `path` (`location` then `location.geo`).
    static func path(_ path: String, member key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    private func fail(_ message: String, at offset: Int? = nil) -> Failure {
        Failure(offset: offset ?? index, message: message)
    }

    private func peek() -> UInt8? { index < end ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func value() throws(Failure) -> JSONLDNode {
        skipWhitespace()
        guard let byte = peek() else { throw fail("unexpected end of input, expected a value") }
        let start = index
        if start == sought, let trail {
            soughtPath = trail.reduce(into: "") { path, step in
                switch step {
                case .key(let key): path = Self.path(path, member: key)
                case .index(let index): path += "[\(index)]"
                }
            }
        }
        let value: JSONLDNode.Value
        switch byte {
        case UInt8(ascii: "{"): value = try object()
        case UInt8(ascii: "["): value = try array()
        case UInt8(ascii: "\""): value = .string(try string())
        case UInt8(ascii: "t"): try literal("true"); value = .bool(true)
        case UInt8(ascii: "f"): try literal("false"); value = .bool(false)
        case UInt8(ascii: "n"): try literal("null"); value = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try number()
        default:
            throw fail("unexpected character '\(Character(Unicode.Scalar(byte)))', expected a value")
        }
        return JSONLDNode(value: value, offset: start, block: block)
    }

    private mutating func nest() throws(Failure) {
        depth += 1
        if depth > Self.maximumDepth { throw fail("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func object() throws(Failure) -> JSONLDNode.Value {
        try nest()
        index += 1
        var members: [JSONLDNode.Member] = []
        // Room for a whole event node at once, rather than growing by doubling from one.
        members.reserveCapacity(16)
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw fail(peek() == nil ? "unexpected end of input, expected a key" : "expected a quoted key")
            }
            let key = try string()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw fail(peek() == nil ? "unexpected end of input, expected ':' after a key" : "expected ':' after a key")
            }
            index += 1
            trail?.append(.key(key))
            let node = try value()
            trail?.removeLast()
            members.append(JSONLDNode.Member(key: key, node: node))
            skipWhitespace()
            guard let next = peek() else { throw fail("unexpected end of input, expected ',' or '}'") }
            if next == UInt8(ascii: "}") {
                index += 1
                break
            }
            guard next == UInt8(ascii: ",") else { throw fail("expected ',' or '}' in an object") }
            index += 1
        }
        depth -= 1
        return .object(members)
    }

    private mutating func array() throws(Failure) -> JSONLDNode.Value {
        try nest()
        index += 1
        var elements: [JSONLDNode] = []
        elements.reserveCapacity(4)
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            trail?.append(.index(elements.count))
            elements.append(try value())
            trail?.removeLast()
            skipWhitespace()
            guard let next = peek() else { throw fail("unexpected end of input, expected ',' or ']'") }
            if next == UInt8(ascii: "]") {
                index += 1
                break
            }
            guard next == UInt8(ascii: ",") else { throw fail("expected ',' or ']' in an array") }
            index += 1
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                throw fail("unescaped control character in a string")
            }
            index += 1
        }
        var buffer = Array(bytes[start..<index])
        while index < end {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { throw fail("unexpected end of input in a string") }
                index += 1
                if let simple = JSONEscape.byte(escaping: escaped) {
                    buffer.append(simple)
                    continue
                }
                switch escaped {
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar), peek() == UInt8(ascii: "\\"),
                        index + 1 < end, bytes[index + 1] == UInt8(ascii: "u")
                    {
                        let saved = index
                        index += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            index = saved
                        }
                    }
                    let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    buffer.append(contentsOf: Array(String(character).utf8))
                default:
                    index -= 1
                    throw fail("invalid escape in a string")
                }
            case 0..<0x20 where byte != 0x09 && byte != 0x0A && byte != 0x0D:
                index -= 1
                throw fail("unescaped control character in a string")
            default:
                buffer.append(byte)
            }
        }
        throw fail("unexpected end of input in a string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= end else { throw fail("invalid \\u escape in a string") }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape in a string")
            }
            value = value * 16 + digit
        }
        index += 4
        return value
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= end, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw fail("expected '\(word)'")
        }
        index += expected.count
    }

    private mutating func number() throws(Failure) -> JSONLDNode.Value {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while let byte = peek(), Self.isDigit(byte) { index += 1 }
        let digits = index - digitsStart
        guard digits > 0 else { throw fail("invalid number") }
        if digits > 1, bytes[digitsStart] == UInt8(ascii: "0") {
            throw fail("numbers must not have leading zeros", at: start)
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
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw fail("number out of range", at: start) }
        return .number(value, text)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}

/// JSON's one-letter escapes.
enum JSONEscape {
    /// The byte `\\` followed by `escape` stands for; nil for `u` and for invalid escapes.
    static func byte(escaping escape: UInt8) -> UInt8? {
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
