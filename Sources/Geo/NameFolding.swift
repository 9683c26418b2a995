import Foundation

/// Folds names so that spelling variants compare equal: case, accents, punctuation
/// and spacing are ignored ("Sigur Rós" and "sigur ros", "AC/DC" and "ac dc").
public enum NameFolding {
    public static func fold(_ name: String) -> String {
        if let ascii = foldASCII(name) { return ascii }
        // Foundation's folding costs tens of microseconds a name; names repeat.
        return foldedNames.value(for: name) { foldUnicode(name) }
    }

    private static let foldedNames = MemoCache<String, String>()

    private static func foldUnicode(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var result = ""
        result.reserveCapacity(folded.utf8.count)
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            if let replacement = unaccented[scalar] {
                if pendingSpace, !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(replacement)
            } else if CharacterSet.alphanumerics.contains(scalar) {
                if pendingSpace, !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            } else if scalar == "&" {
                if !result.isEmpty { result.append(" ") }
                result.append("and")
                pendingSpace = true
            } else {
                pendingSpace = true
            }
        }
        return result
    }

    /// The same folding for plain ASCII names, without Foundation: most names are ASCII,
    /// and ingestion folds every name it sees. Nil when the name is not ASCII.
    private static func foldASCII(_ name: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count + 4)
        var pendingSpace = false
        for byte in name.utf8 {
            guard byte < 0x80 else { return nil }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if pendingSpace, !bytes.isEmpty { bytes.append(0x20) }
                pendingSpace = false
                bytes.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if pendingSpace, !bytes.isEmpty { bytes.append(0x20) }
                pendingSpace = false
                bytes.append(byte + 32)
            case UInt8(ascii: "&"):
                if !bytes.isEmpty { bytes.append(0x20) }
                bytes.append(contentsOf: "and".utf8)
                pendingSpace = true
            default:
                pendingSpace = true
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Latin letters that are not a base letter plus a diacritic, so Unicode folding
    /// leaves them alone, but that people type without: "Soren" for "Søren".
    private static let unaccented: [Unicode.Scalar: String] = [
        "ø": "o", "đ": "d", "ð": "d", "ł": "l", "æ": "ae", "œ": "oe", "ß": "ss", "þ": "th", "ı": "i", "ħ": "h",
    ]

    /// Levenshtein distance over Unicode scalars, for "did you mean" suggestions.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
