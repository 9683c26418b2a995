import Foundation

/// Reads JSON in one pass over its bytes, for a format whose hand reader is its only
/// decoder (Songkick JSON, the bulk of a first load: `JSONDecoder` made that load
/// markedly slower; see BENCHMARKS.md).
///
/// A reader walks an object's members with ``members(_:)`` and reads each value it wants
/// as the type it expects; the rest are checked and skipped. Errors carry what
/// `JSONDecoder`'s would: a JSON path and the same words (``JSONPageDecoding``), or, for
/// bytes that are not JSON, the line and column ``JSONSyntaxLocator`` finds.
struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads the one top-level value of `data` with `read`.
    static func read<T>(
        _ data: Data, locator: String, _ read: (inout JSONReader) throws(Failure) -> T
    ) throws(IngestError) -> T {
        let result: Result<T, Failure> = data.withUnsafeBytes { raw in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self))
            if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
            do throws(Failure) {
                let value = try read(&reader)
                reader.skipWhitespace()
                guard reader.index == reader.bytes.count else { throw reader.syntax("content after the top-level value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let failure):
            // As `JSONDecoder`: bytes that are not JSON are reported as such, wherever
            // a value of the wrong shape came first.
            if let syntax = JSONSyntaxLocator.firstError(in: data) {
                throw IngestError(locator: locator, position: syntax.position, reason: .malformed(syntax.message))
            }
            throw failure.ingestError(locator: locator, in: data)
        }
    }

    // MARK: - Containers

    /// Calls `member` with each key of the object that comes next; null is no object.
    /// Returns false for null.
    @discardableResult
    mutating func members(_ member: (inout JSONReader, Key) throws(Failure) -> Void) throws(Failure) -> Bool {
        switch try nextKind(expecting: "an object") {
        case .null: return false
        case .object: break
        default: throw mismatch(expected: "an object")
        }
        try enter()
        index += 1
        if try peekAfterWhitespace() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return true
        }
        while true {
            guard try peekAfterWhitespace() == UInt8(ascii: "\"") else { throw syntax("expected a quoted key") }
            let key = try readKey()
            guard try peekAfterWhitespace() == UInt8(ascii: ":") else { throw syntax("expected ':' after a key") }
            index += 1
            do throws(Failure) {
                try member(&self, key)
            } catch {
                throw error.inside(.key(key.name))
            }
            switch try peekAfterWhitespace() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return true
            default: throw syntax("expected ',' or '}' in an object")
            }
        }
    }

    /// The elements of the list that comes next, each an object read by `element`; nil
    /// for null.
    mutating func list<T>(_ element: (inout JSONReader) throws(Failure) -> T?) throws(Failure) -> [T]? {
        switch try nextKind(expecting: "a list") {
        case .null: return nil
        case .array: return try elements(element)
        default: throw mismatch(expected: "a list")
        }
    }

    /// A list of objects, or one object standing alone (see ``OneOrMany``); nil for null.
    mutating func oneOrMany<T>(_ element: (inout JSONReader) throws(Failure) -> T?) throws(Failure) -> OneOrMany<T>? {
        switch try nextKind(expecting: "an object") {
        case .null: return nil
        case .array: return OneOrMany(elements: try elements(element), wasSingle: false)
        case .object: return try element(&self).map { OneOrMany(elements: [$0], wasSingle: true) }
        default: throw mismatch(expected: "an object")
        }
    }

    private mutating func elements<T>(_ element: (inout JSONReader) throws(Failure) -> T?) throws(Failure) -> [T] {
        try enter()
        index += 1
        var values: [T] = []
        if try peekAfterWhitespace() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return values
        }
        while true {
            do throws(Failure) {
                guard let value = try element(&self) else {
                    throw Failure(.unexpectedShape("expected an object, found null"), at: index)
                }
                values.append(value)
            } catch {
                throw error.inside(.index(values.count))
            }
            switch try peekAfterWhitespace() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return values
            default: throw syntax("expected ',' or ']' in a list")
            }
        }
    }

    // MARK: - Values

    /// Text; nil for null.
    mutating func string() throws(Failure) -> String? {
        switch try nextKind(expecting: "text") {
        case .null: return nil
        case .string: return try readString()
        default: throw mismatch(expected: "text")
        }
    }

    /// Text that must be there: a missing key or null is an error.
    mutating func requiredString() throws(Failure) -> String {
        guard let text = try string() else {
            throw Failure(.unexpectedShape("expected a value of type String, found null"), at: index)
        }
        return text
    }

    /// A whole number; nil for null.
    mutating func int() throws(Failure) -> Int? {
        switch try nextKind(expecting: "a number") {
        case .null: return nil
        case .number:
            let text = try readNumber()
            guard let value = Int(text) else {
                throw Failure(.invalidValue("Parsed JSON number <\(text)> does not fit in Int."), at: index)
            }
            return value
        default: throw mismatch(expected: "a number")
        }
    }

    /// An id written as a whole number or as text; nil for null.
    mutating func flexibleID() throws(Failure) -> FlexibleID? {
        switch try nextKind(expecting: "text") {
        case .null: return nil
        case .string: return FlexibleID(value: try readString())
        case .number:
            let start = index
            let text = try readNumber()
            guard let number = Int64(text) else {
                index = start
                throw mismatch(expected: "text")
            }
            return FlexibleID(value: String(number))
        default: throw mismatch(expected: "text")
        }
    }

    /// A number written as a number or as numeric text (blank text is no number); nil
    /// for null.
    mutating func flexibleDouble() throws(Failure) -> FlexibleDouble? {
        switch try nextKind(expecting: "a number") {
        case .null: return nil
        case .number: return FlexibleDouble(value: Double(try readNumber()))
        case .string:
            let text = try readString().trimmingSpaces()
            if text.isEmpty { return FlexibleDouble(value: nil) }
            guard let number = Double(text) else { throw Failure(.invalidValue("not a number: \"\(text)\""), at: index) }
            return FlexibleDouble(value: number)
        default: throw mismatch(expected: "text")
        }
    }

    /// Checks the value that comes next and steps over it.
    mutating func skipValue() throws(Failure) {
        switch try nextKind(expecting: "a value") {
        case .object: try members { reader, _ throws(Failure) in try reader.skipValue() }
        case .array: _ = try elements { reader throws(Failure) -> Void? in try reader.skipValue() }
        case .string: try skipString()
        case .number: _ = try readNumber()
        case .true: try literal("true")
        case .false: try literal("false")
        case .null: break
        }
    }

    // MARK: - Bytes

    private enum Kind { case object, array, string, number, `true`, `false`, null }

    /// The kind of the value that comes next; a null is stepped over.
    private mutating func nextKind(expecting expected: String) throws(Failure) -> Kind {
        guard let byte = try peekAfterWhitespace() else { throw syntax("unexpected end of input, expected \(expected)") }
        switch byte {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"): return .true
        case UInt8(ascii: "f"): return .false
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default: throw syntax("unexpected character, expected \(expected)")
        }
    }

    private mutating func peekAfterWhitespace() throws(Failure) -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        if depth > 512 { throw syntax("nesting deeper than 512 levels") }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes[index...].starts(with: expected) else { throw syntax("expected '\(word)'") }
        index += expected.count
    }

    /// The text of a number, checked against JSON's grammar.
    private mutating func readNumber() throws(Failure) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        skipDigits()
        let integerDigits = index - digitsStart
        guard integerDigits > 0, integerDigits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else {
            throw syntax("invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw syntax("invalid number: digits expected after '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw syntax("invalid number: digits expected in the exponent") }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index - start
    }

    /// The end of the string whose opening quote is at `index`, and whether it holds escapes.
    private func stringEnd() throws(Failure) -> (end: Int, escaped: Bool) {
        var position = index + 1
        var escaped = false
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""): return (position, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                position += 2
            case 0..<0x20: throw Failure(.malformed("unescaped control character in a string"), at: position)
            default: position += 1
            }
        }
        throw Failure(.malformed("unexpected end of input in a string"), at: bytes.count)
    }

    private mutating func skipString() throws(Failure) {
        let (end, escaped) = try stringEnd()
        if escaped { _ = try unescaped(index + 1..<end) }
        index = end + 1
    }

    private mutating func readString() throws(Failure) -> String {
        let (end, escaped) = try stringEnd()
        let text = escaped
            ? try unescaped(index + 1..<end)
            : String(decoding: UnsafeBufferPointer(rebasing: bytes[index + 1..<end]), as: UTF8.self)
        index = end + 1
        return text
    }

    private mutating func readKey() throws(Failure) -> Key {
        let (end, escaped) = try stringEnd()
        let key = escaped
            ? Key(bytes: nil, text: try unescaped(index + 1..<end))
            : Key(bytes: UnsafeBufferPointer(rebasing: bytes[index + 1..<end]), text: nil)
        index = end + 1
        return key
    }

    private func unescaped(_ range: Range<Int>) throws(Failure) -> String {
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        var position = range.lowerBound
        func flush() {
            scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
            utf8.removeAll(keepingCapacity: true)
        }
        while position < range.upperBound {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                position += 1
                continue
            }
            let escape = position + 1 < range.upperBound ? bytes[position + 1] : 0
            position += 2
            if let unescaped = JSONEscape.byte(escaping: escape) {
                utf8.append(unescaped)
                continue
            }
            switch escape {
            case UInt8(ascii: "u"):
                var code = try hex(at: position, before: range.upperBound)
                position += 4
                // A character beyond the Basic Multilingual Plane is written as two escapes.
                if (0xD800..<0xDC00).contains(code), position + 6 <= range.upperBound,
                    bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                {
                    let low = try hex(at: position + 2, before: range.upperBound)
                    if (0xDC00..<0xE000).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        position += 6
                    }
                }
                guard let scalar = Unicode.Scalar(code) else {
                    throw Failure(.malformed("a \\u escape that is half of a surrogate pair"), at: position)
                }
                flush()
                scalars.append(scalar)
            default: throw Failure(.malformed("invalid escape in a string"), at: position - 1)
            }
        }
        flush()
        return String(scalars)
    }

    private func hex(at position: Int, before end: Int) throws(Failure) -> UInt32 {
        guard position + 4 <= end else { throw Failure(.malformed("invalid \\u escape in a string"), at: position) }
        var value: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw Failure(.malformed("invalid \\u escape in a string"), at: position)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func syntax(_ message: String) -> Failure {
        Failure(.malformed(message), at: index)
    }

    /// `"lat is text; expected a number"`, named by the key the failure unwinds through.
    private func mismatch(expected: String) -> Failure {
        let found = switch bytes[index] {
        case UInt8(ascii: "{"): "an object"
        case UInt8(ascii: "["): "a list"
        case UInt8(ascii: "\""): "text"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "true or false"
        default: "a number"
        }
        return Failure(.mismatch(found: found, expected: expected), at: index)
    }

    // MARK: - Keys and failures

    /// An object's key: its bytes in the page, or its text when it holds escapes.
    struct Key {
        fileprivate let bytes: UnsafeBufferPointer<UInt8>?
        fileprivate let text: String?

        var name: String { text ?? bytes.map { String(decoding: $0, as: UTF8.self) } ?? "" }

        static func ~= (pattern: StaticString, key: Key) -> Bool {
            let expected = UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
            if let bytes = key.bytes { return bytes.elementsEqual(expected) }
            return key.text?.utf8.elementsEqual(expected) ?? false
        }
    }

    /// Why a page could not be read, and where; the path is filled in as it unwinds.
    struct Failure: Error {
        enum Problem {
            case malformed(String)
            case mismatch(found: String, expected: String)
            case unexpectedShape(String)
            case invalidValue(String)
        }

        enum Step {
            case key(String)
            case index(Int)
        }

        let problem: Problem
        /// The byte the reader stood on.
        let offset: Int
        /// Outermost first.
        private(set) var path: [Step] = []

        init(_ problem: Problem, at offset: Int) {
            self.problem = problem
            self.offset = offset
        }

        /// A missing member of the object whose members were just read.
        static func missingKey(_ key: String) -> Failure {
            Failure(.unexpectedShape("missing key \"\(key)\""), at: 0)
        }

        fileprivate func inside(_ step: Step) -> Failure {
            var failure = self
            failure.path.insert(step, at: 0)
            return failure
        }

        fileprivate func ingestError(locator: String, in data: Data) -> IngestError {
            var position = ""
            for step in path {
                switch step {
                case .key(let key): position += position.isEmpty ? key : "." + key
                case .index(let index): position += "[\(index)]"
                }
            }
            if position.isEmpty { position = "top level" }
            switch problem {
            case .malformed(let message):
                let (line, column) = JSONSyntaxLocator.lineAndColumn(ofOffset: offset, in: data)
                return IngestError(locator: locator, position: "line \(line), column \(column)", reason: .malformed(message))
            case .mismatch(let found, let expected):
                let name = path.last { if case .key = $0 { true } else { false } }
                let named = if case .key(let key)? = name { key } else { "the value" }
                return IngestError(
                    locator: locator, position: position, reason: .unexpectedShape("\(named) is \(found); expected \(expected)"))
            case .unexpectedShape(let message):
                return IngestError(locator: locator, position: position, reason: .unexpectedShape(message))
            case .invalidValue(let message):
                return IngestError(locator: locator, position: position, reason: .invalidValue(message))
            }
        }
    }
}
