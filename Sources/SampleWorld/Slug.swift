import Foundation

/// Songkick-style URL slugs: "Mumford & Sons" → "mumford-and-sons", "The Mirror Trap" →
/// "mirror-trap", "Arēnā Rīga" → "arena-riga", "Mercedes-Benz Arena" → "mercedesbenz-arena".
///
/// The rules are read off recorded Songkick URIs: transliterate to ASCII, lowercase,
/// `&` becomes "and", a leading "the" is dropped, every other punctuation mark is deleted
/// (so hyphens and apostrophes join words) and runs of spaces become one hyphen. Venue
/// websites reuse it for their made-up domains.
enum Slug {
    /// ICU's Latin-ASCII transliteration, the closest match to what Songkick does with
    /// "Мумий Тролль" or "Tall Ships®". It is slow (~20 µs), so ASCII names skip it.
    private static let toASCII = StringTransform("Any-Latin; Latin-ASCII")

    /// Remembers the slugs of non-ASCII names, which repeat a lot (names are built from
    /// word lists), so a million-event world transliterates each distinct name once.
    struct Memo {
        private var slugs: [String: String] = [:]

        mutating func make(_ text: String) -> String {
            if text.utf8.allSatisfy({ $0 < 0x80 }) { return Slug.make(text) }
            if let slug = slugs[text] { return slug }
            let slug = Slug.make(text)
            slugs[text] = slug
            return slug
        }
    }

    static func make(_ text: String) -> String {
        let ascii: String
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            ascii = text
        } else {
            ascii = text.applyingTransform(toASCII, reverse: false) ?? text
        }
        var words: [String] = []
        var word: [UInt8] = []
        func endWord() {
            if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
            word.removeAll(keepingCapacity: true)
        }
        for byte in ascii.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                word.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                word.append(byte + 32)
            case UInt8(ascii: "&"):
                endWord()
                words.append("and")
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"):
                endWord()
            default:
                continue
            }
        }
        endWord()
        if words.count > 1, words[0] == "the" { words.removeFirst() }
        return words.joined(separator: "-")
    }
}
