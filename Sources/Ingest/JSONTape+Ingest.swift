import Foundation
import Listings

/// Readers of the Ingest module's flexible shapes on a ``JSONTapeValue``.
extension JSONTapeValue {
    /// ``OneOrMany``: an array, or one object.
    func oneOrMany<T>(
        _ key: StaticString, _ read: (JSONTapeValue) throws(JSONTapeMiss) -> T
    ) throws(JSONTapeMiss) -> OneOrMany<T>? {
        guard let value = try optionalMember(key) else { return nil }
        if value.kind == .array {
            var elements: [T] = []
            for element in try value.elements() { elements.append(try read(element)) }
            return OneOrMany(elements: elements, wasSingle: false)
        }
        guard value.kind == .object else { throw JSONTapeMiss() }
        return OneOrMany(elements: [try read(value)], wasSingle: true)
    }

    /// ``FlexibleID``: a whole number or a string.
    func flexibleID(_ key: StaticString) throws(JSONTapeMiss) -> FlexibleID? {
        guard let value = try optionalMember(key) else { return nil }
        if value.kind == .number {
            guard let number = Int64(try value.numberText()) else { throw JSONTapeMiss() }
            return FlexibleID(value: String(number))
        }
        return FlexibleID(value: try value.string())
    }

    /// ``FlexibleDouble``: a number, or a string holding one (blank for none).
    func flexibleDouble(_ key: StaticString) throws(JSONTapeMiss) -> FlexibleDouble? {
        guard let value = try optionalMember(key) else { return nil }
        if value.kind == .number { return FlexibleDouble(value: try value.double()) }
        let text = try value.string().trimmingSpaces()
        if text.isEmpty { return FlexibleDouble(value: nil) }
        guard let number = Double(text) else { throw JSONTapeMiss() }
        return FlexibleDouble(value: number)
    }
}
