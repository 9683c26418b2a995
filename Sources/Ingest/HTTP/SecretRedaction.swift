import Foundation

/// Every spelling in which an API key can reach a message, a stored URL or a page, each
/// replaced by `REDACTED`.
///
/// A key is written raw in a query built by hand, percent-encoded (upper- or lower-case
/// hex, a space as `%20` or `+`) by URL builders and servers, and with `\/` for `/` in
/// JSON that echoes it. A key of letters and digits has one spelling; `Sek+r/t=Key&x 9%`
/// has a dozen.
public struct SecretRedaction: Sendable, Hashable {
    /// Longest first, so that no spelling is cut by a shorter one inside it.
    public let spellings: [String]

    public init(_ secrets: [String]) {
        var spellings = Set<String>()
        for secret in secrets where !secret.isEmpty {
            spellings.insert(secret)
            spellings.insert(Self.jsonEscaped(secret))
            for allowed in Self.allowedSets {
                guard let encoded = secret.addingPercentEncoding(withAllowedCharacters: allowed) else { continue }
                for spelling in [encoded, Self.formEncoded(secret, allowed)].compactMap({ $0 }) {
                    spellings.insert(spelling)
                    spellings.insert(Self.lowercaseHex(spelling))
                }
            }
        }
        self.spellings = spellings.sorted { ($0.utf8.count, $0) > ($1.utf8.count, $1) }
    }

    public var isEmpty: Bool { spellings.isEmpty }

    public func redact(_ text: String) -> String {
        spellings.reduce(text) { $0.contains($1) ? $0.replacingOccurrences(of: $1, with: "REDACTED") : $0 }
    }

    /// A page's bytes, with every spelling replaced; the same bytes when none occurs.
    public func redact(_ data: Data) -> Data {
        var data = data
        let replacement = Data("REDACTED".utf8)
        for spelling in spellings {
            let pattern = Data(spelling.utf8)
            var from = data.startIndex
            while let found = data.range(of: pattern, in: from..<data.endIndex) {
                data.replaceSubrange(found, with: replacement)
                from = found.lowerBound + replacement.count
            }
        }
        return data
    }

    /// What URL builders leave unescaped: only the unreserved characters (RFC 3986), a
    /// query's or a path's characters, and a query value's (a query less `&`, `=`, `+`).
    static let allowedSets: [CharacterSet] = {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return [
            unreserved, .urlQueryAllowed, .urlPathAllowed, .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+?/")),
        ]
    }()

    /// `application/x-www-form-urlencoded`: a space is `+`, so a `+` must be escaped.
    static func formEncoded(_ secret: String, _ allowed: CharacterSet) -> String? {
        guard secret.contains(" ") else { return nil }
        return secret.addingPercentEncoding(withAllowedCharacters: allowed.subtracting(CharacterSet(charactersIn: "+ ")))?
            .replacingOccurrences(of: "%20", with: "+")
    }

    static func lowercaseHex(_ encoded: String) -> String {
        var result = ""
        var hexLeft = 0
        for character in encoded {
            if character == "%" {
                hexLeft = 2
                result.append(character)
            } else if hexLeft > 0 {
                hexLeft -= 1
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    static func jsonEscaped(_ secret: String) -> String {
        secret.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "/", with: "\\/")
    }
}
