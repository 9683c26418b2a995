import Foundation

/// The subset of TOML that Encore's configuration uses, read with exact line numbers
/// for every mistake: tables (`[name]`), arrays of tables (`[[source]]`), and
/// `key = value` with strings, integers, floats, booleans and (possibly multi-line)
/// arrays of those. Inline tables, dates and dotted keys are not supported and are
/// reported as such rather than misread.
public struct TOMLDocument: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
        case float(Double)
        case boolean(Bool)
        case array([Value])
    }

    /// A value with the line it was written on.
    public struct Entry: Sendable, Equatable {
        public let value: Value
        public let line: Int
    }

    /// A table: its keys, and the line of its header (0 for the root table).
    public struct Table: Sendable, Equatable {
        public var line: Int
        public var entries: [String: Entry] = [:]
    }

    public var root = Table(line: 0)
    public var tables: [String: Table] = [:]
    public var arrays: [String: [Table]] = [:]

    public init(parsing text: String) throws(ConfigurationError) {
        var parser = TOMLParser(text: text)
        self = try parser.parse()
    }

    init() {}
}

/// A mistake in a configuration file, with its line (and column when known).
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String?
    public var line: Int
    public var column: Int?
    public var message: String

    public init(file: String? = nil, line: Int, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var place = file.map { "\($0):" } ?? ""
        place += "\(line)"
        if let column { place += ":\(column)" }
        return "\(place): \(message)"
    }
}

struct TOMLParser {
    private let lines: [Substring]
    private var lineIndex = 0

    init(text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    mutating func parse() throws(ConfigurationError) -> TOMLDocument {
        var document = TOMLDocument()
        enum Target { case root, table(String), arrayItem(String) }
        var target = Target.root
        while lineIndex < lines.count {
            let number = lineIndex + 1
            let line = Self.stripComment(lines[lineIndex]).trimmingCharacters(in: .whitespaces)
            lineIndex += 1
            if line.isEmpty { continue }
            if line.hasPrefix("[[") {
                guard line.hasSuffix("]]") else { throw error(number, "an array-of-tables header must end with ]]") }
                let name = try Self.key(String(line.dropFirst(2).dropLast(2)), line: number)
                document.arrays[name, default: []].append(TOMLDocument.Table(line: number))
                target = .arrayItem(name)
                continue
            }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw error(number, "a table header must end with ]") }
                let name = try Self.key(String(line.dropFirst().dropLast()), line: number)
                guard document.tables[name] == nil else { throw error(number, "table [\(name)] is defined twice") }
                document.tables[name] = TOMLDocument.Table(line: number)
                target = .table(name)
                continue
            }
            guard let equals = Self.indexOfEquals(line) else {
                throw error(number, "expected `key = value`, a [table] or a [[table]]")
            }
            let key = try Self.key(String(line[..<equals]).trimmingCharacters(in: .whitespaces), line: number)
            var valueText = String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            // A multi-line array continues until its brackets balance.
            // A multi-line array continues until its brackets balance; a line that starts a
            // new key or table means the array was left open.
            while valueText.hasPrefix("["), !Self.bracketsBalance(valueText), lineIndex < lines.count {
                let next = Self.stripComment(lines[lineIndex]).trimmingCharacters(in: .whitespaces)
                if Self.indexOfEquals(next) != nil || next.hasPrefix("[[") { break }
                valueText += " " + next
                lineIndex += 1
            }
            var scanner = ValueScanner(text: valueText, line: number)
            let value = try scanner.value()
            try scanner.expectEnd()
            let entry = TOMLDocument.Entry(value: value, line: number)
            switch target {
            case .root:
                guard document.root.entries[key] == nil else { throw error(number, "key \"\(key)\" is set twice") }
                document.root.entries[key] = entry
            case .table(let name):
                guard document.tables[name]!.entries[key] == nil else { throw error(number, "key \"\(key)\" is set twice") }
                document.tables[name]!.entries[key] = entry
            case .arrayItem(let name):
                let last = document.arrays[name]!.count - 1
                guard document.arrays[name]![last].entries[key] == nil else {
                    throw error(number, "key \"\(key)\" is set twice in this [[\(name)]]")
                }
                document.arrays[name]![last].entries[key] = entry
            }
        }
        return document
    }

    private func error(_ line: Int, _ message: String) -> ConfigurationError {
        ConfigurationError(line: line, message: message)
    }

    private static func key(_ text: String, line: Int) throws(ConfigurationError) -> String {
        let key = text.trimmingCharacters(in: .whitespaces)
        if key.hasPrefix("\""), key.hasSuffix("\""), key.count >= 2 { return String(key.dropFirst().dropLast()) }
        guard !key.isEmpty, key.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" })
        else {
            let hint = key.contains(".") ? " (dotted keys are not supported)" : ""
            throw ConfigurationError(line: line, message: "\"\(key)\" is not a valid key\(hint)")
        }
        return key
    }

    /// The line without a `#` comment (a `#` inside a string is kept).
    private static func stripComment(_ line: Substring) -> String {
        var quote: Character?
        var escaped = false
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if escaped { escaped = false } else if character == "\\" && open == "\"" { escaped = true } else if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#" {
                return String(line[..<index])
            }
        }
        return String(line)
    }

    private static func indexOfEquals(_ line: String) -> String.Index? {
        var quote: Character?
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "=" {
                return index
            }
        }
        return nil
    }

    private static func bracketsBalance(_ text: String) -> Bool {
        var depth = 0
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "[" {
                depth += 1
            } else if character == "]" {
                depth -= 1
            }
        }
        return depth <= 0
    }
}

/// Reads one TOML value from the text after `=`.
struct ValueScanner {
    private let characters: [Character]
    private var index = 0
    private let line: Int

    init(text: String, line: Int) {
        characters = Array(text)
        self.line = line
    }

    private func fail(_ message: String) -> ConfigurationError {
        ConfigurationError(line: line, message: message)
    }

    private mutating func skipSpaces() {
        while index < characters.count, characters[index] == " " || characters[index] == "\t" { index += 1 }
    }

    mutating func expectEnd() throws(ConfigurationError) {
        skipSpaces()
        guard index == characters.count else { throw fail("unexpected text after the value: \"\(String(characters[index...]))\"") }
    }

    mutating func value() throws(ConfigurationError) -> TOMLDocument.Value {
        skipSpaces()
        guard index < characters.count else { throw fail("a value is missing after `=`") }
        switch characters[index] {
        case "\"": return .string(try basicString())
        case "'": return .string(try literalString())
        case "[": return .array(try array())
        case "{": throw fail("inline tables are not supported; use a [table] instead")
        default: return try bare()
        }
    }

    private mutating func basicString() throws(ConfigurationError) -> String {
        index += 1
        var result = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch character {
            case "\"": return result
            case "\\":
                guard index < characters.count else { break }
                let escaped = characters[index]
                index += 1
                switch escaped {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "u":
                    let hex = String(characters[index..<min(index + 4, characters.count)])
                    guard hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                        throw fail("invalid \\u escape in a string")
                    }
                    result.unicodeScalars.append(scalar)
                    index += 4
                default: throw fail("invalid escape \\\(escaped) in a string")
                }
            default: result.append(character)
            }
        }
        throw fail("a string is not closed (missing \")")
    }

    private mutating func literalString() throws(ConfigurationError) -> String {
        index += 1
        var result = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == "'" { return result }
            result.append(character)
        }
        throw fail("a string is not closed (missing ')")
    }

    private mutating func array() throws(ConfigurationError) -> [TOMLDocument.Value] {
        index += 1
        var values: [TOMLDocument.Value] = []
        while true {
            skipSpaces()
            guard index < characters.count else { throw fail("an array is not closed (missing ])") }
            if characters[index] == "]" {
                index += 1
                return values
            }
            values.append(try value())
            skipSpaces()
            guard index < characters.count else { throw fail("an array is not closed (missing ])") }
            if characters[index] == "," {
                index += 1
            } else if characters[index] != "]" {
                throw fail("expected , or ] in an array")
            }
        }
    }

    private mutating func bare() throws(ConfigurationError) -> TOMLDocument.Value {
        let start = index
        while index < characters.count, !" ,]\t".contains(characters[index]) { index += 1 }
        let word = String(characters[start..<index])
        switch word {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        default: break
        }
        let digits = word.replacingOccurrences(of: "_", with: "")
        if let integer = Int(digits) { return .integer(integer) }
        if let float = Double(digits), float.isFinite { return .float(float) }
        throw fail("\"\(word)\" is not a value; strings need quotes")
    }
}
