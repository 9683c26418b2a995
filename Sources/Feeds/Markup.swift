/// Escaping for the site's HTML and the Atom feeds, a byte at a time.
///
/// Every name on every page goes through here; Foundation's `replacingOccurrences` and
/// Plot's own escaping, a character at a time, were a third of a full build.
enum Markup {
    /// `text` with `&`, `<` and `>` (and `"`, for attribute values) as entities; the
    /// string itself when it has none of them, as most names do.
    static func escape(_ text: String, quotes: Bool = true) -> String {
        var special = false
        for byte in text.utf8 where byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || (quotes && byte == UInt8(ascii: "\""))
        {
            special = true
            break
        }
        guard special else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\"") where quotes: escaped.append(contentsOf: "&quot;".utf8)
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Whether `text` contains `part`, byte for byte (Foundation's `contains` goes
    /// through `NSString`, and there is an Atom entry for every concert).
    static func contains(_ text: String, _ part: String) -> Bool {
        let (text, part) = (Array(text.utf8), Array(part.utf8))
        guard !part.isEmpty else { return true }
        guard part.count <= text.count else { return false }
        return (0...(text.count - part.count)).contains { start in text[start..<start + part.count].elementsEqual(part) }
    }
}
