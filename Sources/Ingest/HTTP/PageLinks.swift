import Foundation

/// The `<a href>` links of an HTML page, resolved against the page's URL.
///
/// Not an HTML parser: it reads the `href` of each `<a …>` tag, skipping comments and
/// decoding the entities that appear in URLs (`&amp;`, `&#38;`).
enum PageLinks {
    static func links(in data: Data, base: URL) -> [URL] {
        let bytes = [UInt8](data)
        var links: [URL] = []
        var index = 0
        let count = bytes.count
        func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
        func starts(_ literal: String, at position: Int) -> Bool {
            let pattern = Array(literal.utf8)
            guard position + pattern.count <= count else { return false }
            for offset in pattern.indices where lower(bytes[position + offset]) != pattern[offset] { return false }
            return true
        }
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if starts("<!--", at: index) {
                var end = index + 4
                while end < count, !starts("-->", at: end) { end += 1 }
                index = end + 3
                continue
            }
            guard starts("<a", at: index), index + 2 < count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index + 2]) else {
                index += 1
                continue
            }
            var end = index + 2
            var quote: UInt8?
            while end < count {
                let byte = bytes[end]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    break
                }
                end += 1
            }
            let tag = String(decoding: bytes[index..<min(end, count)], as: UTF8.self)
            if let href = attribute("href", in: tag), let url = URL(string: decodeEntities(href), relativeTo: base)?.absoluteURL {
                links.append(url)
            }
            index = end + 1
        }
        return links
    }

    /// The value of `name="…"`, `name='…'` or `name=value` in a tag.
    static func attribute(_ name: String, in tag: String) -> String? {
        var rest = Substring(tag)
        while let range = rest.range(of: name, options: .caseInsensitive) {
            let before = rest[..<range.lowerBound].last
            rest = rest[range.upperBound...]
            guard before.map({ $0.isWhitespace }) == true else { continue }
            let afterName = rest.drop { $0.isWhitespace }
            guard afterName.first == "=" else { continue }
            let value = afterName.dropFirst().drop { $0.isWhitespace }
            if let quote = value.first, quote == "\"" || quote == "'" {
                let inner = value.dropFirst()
                return String(inner.prefix { $0 != quote }).trimmingCharacters(in: .whitespaces)
            }
            return String(value.prefix { !$0.isWhitespace && $0 != ">" })
        }
        return nil
    }

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&#38;", with: "&")
            .replacingOccurrences(of: "&#x26;", with: "&")
    }
}
