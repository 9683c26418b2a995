import Foundation
import Listings

/// Decoding helpers shared by the JSON ingesters: error positions people can act on.
enum JSONPageDecoding {
    /// Decodes `T`, turning decoding failures into ``IngestError``s with a JSON path or
    /// a line and column.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, locator: String) throws(IngestError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let syntax = JSONSyntaxLocator.firstError(in: data)
            {
                throw IngestError(locator: locator, position: syntax.position, reason: .malformed(syntax.message))
            }
            throw ingestError(error, locator: locator)
        } catch {
            throw IngestError(locator: locator, reason: .malformed(String(describing: error)))
        }
    }

    static func ingestError(_ error: DecodingError, locator: String) -> IngestError {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return IngestError(locator: locator, reason: .malformed(context.debugDescription))
        case .dataCorrupted(let context):
            return IngestError(locator: locator, position: path(context.codingPath), reason: .invalidValue(context.debugDescription))
        case .keyNotFound(let key, let context):
            return IngestError(
                locator: locator, position: path(context.codingPath),
                reason: .unexpectedShape("missing key \"\(key.stringValue)\""))
        case .typeMismatch(let type, let context):
            return IngestError(
                locator: locator, position: path(context.codingPath),
                reason: .unexpectedShape(mismatch(expected: type, context)))
        case .valueNotFound(let type, let context):
            return IngestError(
                locator: locator, position: path(context.codingPath),
                reason: .unexpectedShape("expected a value of type \(type), found null"))
        @unknown default:
            return IngestError(locator: locator, reason: .malformed(String(describing: error)))
        }
    }

    /// `performance is a string; expected a list`, in the words of the JSON, where
    /// `JSONDecoder` says `Expected to decode Array<Any> but found a string instead.`
    static func mismatch(expected type: Any.Type, _ context: DecodingError.Context) -> String {
        let name = context.codingPath.last { $0.intValue == nil }?.stringValue ?? "the value"
        let expected = switch type {
        case is [Any].Type: "a list"
        case is [String: Any].Type: "an object"
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        case is any BinaryInteger.Type, is any BinaryFloatingPoint.Type: "a number"
        default: "\(type)"
        }
        // The found kind is only in the message: "... but found number instead."
        let words = context.debugDescription.components(separatedBy: " but found ")
        guard words.count == 2 else { return "\(name) is not \(expected)" }
        var found = Substring(words[1].replacingOccurrences(of: " instead.", with: ""))
        for article in ["a ", "an "] where found.hasPrefix(article) { found = found.dropFirst(article.count) }
        let described = switch found {
        case "number": "a number"
        case "string": "text"
        case "array": "a list"
        case "dictionary", "object": "an object"
        case "bool", "boolean": "true or false"
        case "null": "null"
        default: String(found)
        }
        return "\(name) is \(described); expected \(expected)"
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
}

/// An identifier a source writes as a number or a string; kept as a string.
struct FlexibleID: Decodable, Hashable, Sendable {
    let value: String

    /// For readers that build decoded values themselves (the XML ingesters, `JSONReader`).
    init(value: String) {
        self.value = value
    }

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

    /// For readers that build decoded values themselves (the XML ingesters, `JSONReader`).
    init(value: Double?) {
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = nil
        } else if let number = try? container.decode(Double.self) {
            value = number
        } else {
            let text = try container.decode(String.self).trimmingSpaces()
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

/// A value a source writes either as one object or as an array of them (decoded, or read
/// by `JSONReader.oneOrMany`).
struct OneOrMany<Element> {
    let elements: [Element]
    let wasSingle: Bool

    init(elements: [Element], wasSingle: Bool) {
        self.elements = elements
        self.wasSingle = wasSingle
    }
}

extension OneOrMany: Decodable where Element: Decodable {
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
