import Foundation

/// Decoding helpers shared by the JSON ingesters: error positions people can act on.
enum JSONPageDecoding {
    /// Decodes `T`, turning decoding failures into ``IngestError``s with a JSON path or
    /// a line and column.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, locator: String) throws(IngestError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw ingestError(error, locator: locator)
        } catch {
            throw IngestError(locator: locator, reason: .malformed(String(describing: error)))
        }
    }

    static func ingestError(_ error: DecodingError, locator: String) -> IngestError {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // Syntax errors: the underlying error says where ("around line 3, column 14").
            let underlying = context.underlyingError.map { String(describing: $0) } ?? context.debugDescription
            return IngestError(locator: locator, position: lineAndColumn(in: underlying), reason: .malformed(underlying))
        case .dataCorrupted(let context):
            return IngestError(locator: locator, position: path(context.codingPath), reason: .invalidValue(context.debugDescription))
        case .keyNotFound(let key, let context):
            return IngestError(
                locator: locator, position: path(context.codingPath),
                reason: .unexpectedShape("missing key \"\(key.stringValue)\""))
        case .typeMismatch(let type, let context):
            return IngestError(
                locator: locator, position: path(context.codingPath),
                reason: .unexpectedShape("expected \(describe(type)), \(context.debugDescription)"))
        case .valueNotFound(let type, let context):
            return IngestError(
                locator: locator, position: path(context.codingPath),
                reason: .unexpectedShape("expected \(describe(type)), found null"))
        @unknown default:
            return IngestError(locator: locator, reason: .malformed(String(describing: error)))
        }
    }

    /// `resultsPage.results.event[2].start` from a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text.isEmpty ? "top level" : text
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Double.Type, is Int.Type: return "a number"
        case is Bool.Type: return "a boolean"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "an object (\(name))"
        }
    }

    /// Extracts `line L, column C` from a Foundation JSON error message, if present.
    private static func lineAndColumn(in message: String) -> String? {
        guard let range = message.range(of: "line ") else { return nil }
        let tail = message[range.lowerBound...]
        let end = tail.firstIndex(where: { $0 == "." || $0 == ")" }) ?? tail.endIndex
        return String(tail[..<end])
    }
}

/// An identifier a source writes as a number or a string; kept as a string.
struct FlexibleID: Decodable, Hashable, Sendable {
    let value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            value = String(number)
        } else {
            value = try container.decode(String.self)
        }
    }
}

/// A number a source writes as a JSON number or as a numeric string ("43.26").
struct FlexibleDouble: Decodable, Hashable, Sendable {
    let value: Double?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = nil
        } else if let number = try? container.decode(Double.self) {
            value = number
        } else {
            let text = try container.decode(String.self).trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                value = nil
            } else if let number = Double(text) {
                value = number
            } else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "not a number: \"\(text)\""))
            }
        }
    }
}

/// A value a source writes either as one object or as an array of them.
struct OneOrMany<Element: Decodable>: Decodable {
    let elements: [Element]
    let wasSingle: Bool

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [Element] = []
            while !array.isAtEnd { elements.append(try array.decode(Element.self)) }
            self.elements = elements
            wasSingle = false
        } else {
            elements = [try Element(from: decoder)]
            wasSingle = true
        }
    }
}
