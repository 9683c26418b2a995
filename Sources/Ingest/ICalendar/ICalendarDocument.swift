import Foundation

/// An iCalendar file (RFC 5545) read into components and properties: the one decoder of
/// the `ical` format.
///
/// Reads what real feeds write: CRLF or LF, a UTF-8 BOM, lines folded with a space or a
/// tab (or never folded), any `VERSION`. Values stay as written (``ICalendarProperty/text``
/// unescapes them); structure is strict: a component that is never closed, or closed by
/// the wrong `END`, is an error at its line.
struct ICalendarDocument {
    var root: ICalendarComponent

    struct SyntaxError: Error {
        var line: Int
        var message: String
    }

    /// Components nested deeper than this are not calendars (VCALENDAR › VEVENT › VALARM is 3).
    static let maximumDepth = 16

    init(_ data: Data) throws(SyntaxError) {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let text = String(decoding: bytes, as: UTF8.self)
        var stack: [ICalendarComponent] = [ICalendarComponent(name: "", line: 0)]
        for (line, content) in Self.contentLines(text) {
            guard let property = ICalendarProperty(parsing: content, line: line) else { continue }
            switch property.name {
            case "BEGIN":
                guard stack.count <= Self.maximumDepth else {
                    throw SyntaxError(line: line, message: "components nested more than \(Self.maximumDepth) deep")
                }
                stack.append(ICalendarComponent(name: property.value.trimmingCharacters(in: .whitespaces).uppercased(), line: line))
            case "END":
                let name = property.value.trimmingCharacters(in: .whitespaces).uppercased()
                guard stack.count > 1 else { throw SyntaxError(line: line, message: "END:\(name) with no BEGIN") }
                let open = stack.removeLast()
                guard open.name == name else {
                    if stack.contains(where: { $0.name == name }) {
                        throw SyntaxError(
                            line: open.line,
                            message: "the \(open.name) that begins here is never closed (END:\(name) comes first, on line \(line))")
                    }
                    throw SyntaxError(
                        line: line, message: "END:\(name) closes the \(open.name) that begins on line \(open.line)")
                }
                stack[stack.count - 1].components.append(open)
            default:
                stack[stack.count - 1].properties.append(property)
            }
        }
        if stack.count > 1 {
            let open = stack[stack.count - 1]
            throw SyntaxError(line: open.line, message: "the \(open.name) that begins here is never closed (no END:\(open.name))")
        }
        root = stack[0]
    }

    /// The calendars of the file (usually one).
    var calendars: [ICalendarComponent] { root.components.filter { $0.name == "VCALENDAR" } }

    /// Logical lines, unfolded, each with the number of the physical line it starts on.
    static func contentLines(_ text: String) -> [(line: Int, text: String)] {
        var result: [(line: Int, text: String)] = []
        var number = 0
        // "\r\n" is one Character in Swift.
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            number += 1
            var physical = raw
            if physical.last == "\r" { physical.removeLast() }
            if let first = physical.first, first == " " || first == "\t", !result.isEmpty {
                result[result.count - 1].text += physical.dropFirst()
            } else if !physical.isEmpty {
                result.append((number, String(physical)))
            }
        }
        return result
    }
}

/// A `BEGIN:NAME` … `END:NAME` block.
struct ICalendarComponent {
    var name: String
    var line: Int
    var properties: [ICalendarProperty] = []
    var components: [ICalendarComponent] = []

    init(name: String, line: Int) {
        self.name = name
        self.line = line
    }

    /// The first property of that name.
    func property(_ name: String) -> ICalendarProperty? { properties.first { $0.name == name } }

    func all(_ name: String) -> [ICalendarProperty] { properties.filter { $0.name == name } }
}

/// One content line: `NAME;PARAM=value;PARAM="quoted":value`.
struct ICalendarProperty {
    /// Upper-cased.
    var name: String
    /// Names upper-cased, values without their quotes.
    var parameters: [String: String]
    /// As written (escapes kept).
    var value: String
    var line: Int

    init(name: String, parameters: [String: String] = [:], value: String, line: Int) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// Nil for a line that is no property (no colon): such lines are passed over.
    init?(parsing content: String, line: Int) {
        var name = ""
        var parameters: [String: String] = [:]
        var index = content.startIndex
        while index < content.endIndex, content[index] != ";", content[index] != ":" { index = content.index(after: index) }
        name = content[content.startIndex..<index].trimmingCharacters(in: .whitespaces).uppercased()
        while index < content.endIndex, content[index] == ";" {
            index = content.index(after: index)
            let nameStart = index
            while index < content.endIndex, !"=;:".contains(content[index]) { index = content.index(after: index) }
            let parameterName = content[nameStart..<index].uppercased()
            var parameterValue = ""
            if index < content.endIndex, content[index] == "=" {
                index = content.index(after: index)
                var quoted = false
                let valueStart = index
                while index < content.endIndex {
                    let character = content[index]
                    if character == "\"" {
                        quoted.toggle()
                    } else if !quoted, character == ";" || character == ":" {
                        break
                    }
                    index = content.index(after: index)
                }
                parameterValue = content[valueStart..<index].replacingOccurrences(of: "\"", with: "")
            }
            if !parameterName.isEmpty, parameters[parameterName] == nil { parameters[parameterName] = parameterValue }
        }
        guard index < content.endIndex, content[index] == ":", !name.isEmpty else { return nil }
        self.init(name: name, parameters: parameters, value: String(content[content.index(after: index)...]), line: line)
    }

    /// The value as text: `\,` `\;` `\\` and `\n` undone, trimmed.
    var text: String { Self.unescape(value).trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The value split at commas that are not escaped, each part unescaped and trimmed
    /// (`CATEGORIES`, `EXDATE`, `RDATE`).
    var list: [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for character in value {
            if escaped {
                current.append("\\")
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.map { Self.unescape($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var escaped = false
        for character in text {
            if escaped {
                switch character {
                case "n", "N": result.append("\n")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        if escaped { result.append("\\") }
        return result
    }
}
