import Foundation
import Listings

/// Finds the `<script type="application/ld+json">` blocks of an HTML page.
///
/// Not an HTML parser: it skips comments (a commented-out block is not data) and the
/// contents of other scripts (whose JavaScript may spell `<script` in a string), and
/// reads each block's text up to its `</script`. Offsets are the file's, so errors
/// inside a block can name the line and column of the page.
enum JSONLDHTML {
    /// The byte range of one block's JSON inside the file.
    struct Block: Sendable, Equatable {
        let start: Int
        let end: Int
    }

    static func scriptBlocks(in bytes: [UInt8]) -> [Block] {
        var blocks: [Block] = []
        var index = 0
        let count = bytes.count
        while index < count {
            guard let open = firstIndex(of: UInt8(ascii: "<"), in: bytes, from: index) else { break }
            index = open
            if matches(bytes, at: index, "<!--") {
                index = find(bytes, "-->", from: index + 4).map { $0 + 3 } ?? count
                continue
            }
            guard matches(bytes, at: index, "<script"), index + 7 < count,
                [0x20, 0x09, 0x0A, 0x0D, 0x0C, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[index + 7])
            else {
                index += 1
                continue
            }
            let (tagEnd, attributes) = readTag(bytes, from: index + 7)
            guard let tagEnd else { break }
            if tagEnd > 0, bytes[tagEnd - 1] == UInt8(ascii: "/") {  // <script ... />
                index = tagEnd + 1
                continue
            }
            let contentStart = tagEnd + 1
            let contentEnd = find(bytes, "</script", from: contentStart) ?? count
            if isJSONLD(attributes["type"]), let block = trimmed(bytes, start: contentStart, end: contentEnd) {
                blocks.append(block)
            }
            index = firstIndex(of: UInt8(ascii: ">"), in: bytes, from: contentEnd).map { $0 + 1 } ?? count
        }
        return blocks
    }

    /// `application/ld+json`, in any case, with or without parameters.
    static func isJSONLD(_ type: String?) -> Bool {
        guard let type else { return false }
        let media = (type.split(separator: ";", maxSplits: 1).first.map(String.init) ?? type).trimmingWhitespace()
        // Compared by bytes: no letter beyond ASCII lower-cases into this one.
        let jsonLD = "application/ld+json"
        return media.utf8.count == jsonLD.utf8.count && media.containsText(jsonLD, ignoringASCIICase: true)
    }

    /// The index of the tag's closing `>` and its attributes (names lower-cased).
    private static func readTag(_ bytes: [UInt8], from start: Int) -> (Int?, [String: String]) {
        var attributes: [String: String] = [:]
        var index = start
        let count = bytes.count
        func isSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(byte) }
        while index < count {
            while index < count, isSpace(bytes[index]) { index += 1 }
            guard index < count else { break }
            if bytes[index] == UInt8(ascii: ">") { return (index, attributes) }
            if bytes[index] == UInt8(ascii: "/") {
                if index + 1 < count, bytes[index + 1] == UInt8(ascii: ">") { return (index + 1, attributes) }
                index += 1
                continue
            }
            let nameStart = index
            while index < count, !isSpace(bytes[index]), ![UInt8(ascii: "="), UInt8(ascii: ">")].contains(bytes[index]) {
                index += 1
            }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
            while index < count, isSpace(bytes[index]) { index += 1 }
            var value = ""
            if index < count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < count, isSpace(bytes[index]) { index += 1 }
                if index < count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    let valueStart = index + 1
                    let valueEnd = firstIndex(of: quote, in: bytes, from: valueStart) ?? count
                    value = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
                    index = valueEnd + 1
                } else {
                    let valueStart = index
                    while index < count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                }
            }
            if !name.isEmpty, attributes[name] == nil { attributes[name] = JSONLDText.decodeEntities(value) }
        }
        return (nil, attributes)
    }

    /// The block without surrounding white space and the `<!-- -->` or CDATA wrappers old
    /// pages put around scripts; nil when nothing is left.
    private static func trimmed(_ bytes: [UInt8], start: Int, end: Int) -> Block? {
        var start = start
        var end = end
        func trim() {
            while start < end, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(bytes[start]) { start += 1 }
            while end > start, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(bytes[end - 1]) { end -= 1 }
        }
        trim()
        let openers: [StaticString] = ["<!--", "//<![CDATA[", "/*<![CDATA[*/", "<![CDATA["]
        for opener in openers where matches(bytes, at: start, opener, limit: end) {
            start += opener.utf8CodeUnitCount
            trim()
        }
        let closers: [StaticString] = ["-->", "//]]>", "/*]]>*/", "]]>"]
        for closer in closers {
            let length = closer.utf8CodeUnitCount
            if end - length >= start, matches(bytes, at: end - length, closer, limit: end) {
                end -= length
                trim()
            }
        }
        return start < end ? Block(start: start, end: end) : nil
    }

    // MARK: - Bytes

    private static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            return memchr(base + start, Int32(byte), buffer.count - start).map { UnsafeRawPointer($0) - base }
        }
    }

    /// Whether `literal` (ASCII, matched without case) starts at `index`.
    static func matches(_ bytes: [UInt8], at index: Int, _ literal: StaticString, limit: Int? = nil) -> Bool {
        let length = literal.utf8CodeUnitCount
        let limit = limit ?? bytes.count
        guard index >= 0, index + length <= limit else { return false }
        let pattern = literal.utf8Start
        for offset in 0..<length where lower(bytes[index + offset]) != lower(pattern[offset]) {
            return false
        }
        return true
    }

    /// The first index at or after `start` where `literal` begins (without case).
    static func find(_ bytes: [UInt8], _ literal: StaticString, from start: Int) -> Int? {
        guard literal.utf8CodeUnitCount > 0 else { return nil }
        let first = lower(literal.utf8Start[0])
        // Markup literals begin with punctuation, found by memchr; a letter has two cases.
        let caseless = !(0x61...0x7A).contains(first)
        var index = start
        while index < bytes.count {
            if caseless {
                guard let next = firstIndex(of: first, in: bytes, from: index) else { return nil }
                index = next
            }
            if lower(bytes[index]) == first, matches(bytes, at: index, literal) { return index }
            index += 1
        }
        return nil
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }
}
