import Foundation

/// The safety check and tolerant repairs run over XML bytes before any parser sees them.
///
/// **Rejected** (an ``IngestError`` with `.malformed` and the position of the DOCTYPE):
/// - a `<!DOCTYPE` whose internal subset declares entities (`<!ENTITY`): this is how
///   "billion laughs" expansion bombs and external-entity (XXE) file reads are written,
///   and no listing source needs one. The check is a single linear scan, so a bomb is
///   refused in microseconds without expanding anything.
/// - a `<!DOCTYPE` naming an external DTD (`SYSTEM` / `PUBLIC`): it would never be
///   loaded, and no listing source sends one.
/// - an element with more than ``maximumAttributes`` attributes (the parser's check for
///   duplicates is quadratic).
/// - an XML declaration naming an encoding other than UTF-8, or a document that does
///   not start with `<` (after a byte-order mark and white space), from which the parser
///   would guess one (libxml2 crashed switching to UTF-7 and to UTF-32).
///
/// **Repaired** (recorded Last.fm responses have both defects):
/// - white space (and a UTF-8 byte-order mark) before the first `<` is dropped, so a
///   stray newline before `<?xml` does not make the page unreadable;
/// - an `&` that does not begin a reference (`&name;`, `&#123;`, `&#x1F;`) is read as a
///   literal ampersand, `&amp;` (as in `url=".../Mumford+&+Sons/+events"`). Nothing
///   else is guessed: `&nbsp;` is well-formed reference syntax, is left alone, and the
///   parser rejects it as an undeclared entity. CDATA sections, comments and processing
///   instructions are copied untouched, since a raw `&` is legal there.
///
/// Positions in errors refer to the original bytes: ``XMLSourceMap`` undoes the shifts
/// the repairs cause.
enum XMLPreparation {
    struct Prepared {
        /// The bytes to parse: the input itself when nothing needed repair.
        var data: Data
        var sourceMap: XMLSourceMap
        /// How many raw `&` were read as `&amp;`.
        var ampersandsRepaired: Int
    }

    /// The most attributes one element may have.
    static let maximumAttributes = 1_000

    static func prepare(_ data: Data, locator: String) throws(IngestError) -> Prepared {
        let bytes = [UInt8](data)
        var scanner = Scanner(bytes: bytes, locator: locator)
        try scanner.run()
        if scanner.output == nil && scanner.start == 0 {
            return Prepared(data: data, sourceMap: scanner.map, ampersandsRepaired: 0)
        }
        let output = scanner.output ?? Array(bytes[scanner.start...])
        return Prepared(data: Data(output), sourceMap: scanner.map, ampersandsRepaired: scanner.repairs)
    }

    private struct Scanner {
        let bytes: [UInt8]
        let locator: String
        /// Where the document starts after leading white space.
        var start = 0
        /// The repaired copy, made lazily at the first repair.
        var output: [UInt8]?
        var map = XMLSourceMap()
        var repairs = 0
        /// Position in the prepared text (1-based) of `bytes[positioned]`, to record where
        /// repairs land.
        var line = 1
        var column = 1
        var positioned = 0
        /// How far `bytes` has been copied to `output` (when there is one).
        var copied = 0

        init(bytes: [UInt8], locator: String) {
            self.bytes = bytes
            self.locator = locator
        }

        mutating func run() throws(IngestError) {
            skipLeadingWhiteSpace()
            // Anything else first makes the parser guess an encoding from the first bytes
            // (00 00 00 3C is UTF-32): fuzzing crashed libxml2 2.9 there too.
            guard start < bytes.count, bytes[start] == UInt8(ascii: "<") else {
                throw rejection(at: start, "the document does not start with \"<\": listings are XML in UTF-8")
            }
            try checkDeclaredEncoding()
            copied = start
            positioned = start
            var index = start
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<") {
                    // Only `<!` and `<?` open what the scan must step over or refuse.
                    guard index + 1 < count, bytes[index + 1] == UInt8(ascii: "!") || bytes[index + 1] == UInt8(ascii: "?")
                    else {
                        if index + 1 < count, Self.isNameStart(bytes[index + 1]) { try checkAttributeCount(at: index) }
                        index += 1
                        continue
                    }
                    if matches("<![CDATA[", at: index) {
                        index = end(of: "]]>", from: index + 9)
                        continue
                    }
                    if matches("<!--", at: index) {
                        index = end(of: "-->", from: index + 4)
                        continue
                    }
                    if matches("<?", at: index) {
                        let close = end(of: "?>", from: index + 2)
                        try checkProcessingInstruction(from: index + 2, to: close)
                        index = close
                        continue
                    }
                    if matches("<!DOCTYPE", at: index) {
                        index = try checkDocumentType(at: index)
                        continue
                    }
                    // Belt and braces: a declaration anywhere else is refused as well.
                    if matches("<!ENTITY", at: index) {
                        throw rejection(at: index, Self.entityDeclarationRefused)
                    }
                } else if byte == UInt8(ascii: "&") {
                    if !startsReference(at: index + 1) {
                        repairAmpersand(at: index)
                    }
                }
                index += 1
            }
            if output != nil { output!.append(contentsOf: bytes[copied..<count]) }
        }

        /// Drops a UTF-8 byte-order mark and white space before the first `<`.
        mutating func skipLeadingWhiteSpace() {
            var index = 0
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            var lines = 0
            var columns = 0
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                if bytes[index] == 0x0A {
                    lines += 1
                    columns = 0
                } else if bytes[index] != 0x0D {
                    columns += 1
                }
                index += 1
            }
            // Only when a document follows; otherwise leave the bytes for the parser to judge.
            guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { return }
            start = index
            map.strippedLines = lines
            map.strippedColumns = columns
        }

        /// The prepared-text position of `bytes[index]`, counted on from `positioned`
        /// (only a repair or a refusal needs one, so the scan does not count as it goes).
        func position(of index: Int) -> (line: Int, column: Int) {
            var (line, column) = (self.line, self.column)
            for byte in bytes[positioned..<index] {
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    // Count characters, not UTF-8 continuation bytes, as the parser does.
                    column += 1
                }
            }
            return (line, column)
        }

        func matches(_ literal: StaticString, at index: Int) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return literal.withUTF8Buffer { pattern in
                for offset in 0..<count where bytes[index + offset] != pattern[offset] { return false }
                return true
            }
        }

        /// The index just past the first `terminator` at or after `from`, or the end of input.
        func end(of terminator: StaticString, from: Int) -> Int {
            var index = from
            while index < bytes.count {
                if matches(terminator, at: index) { return index + terminator.utf8CodeUnitCount }
                index += 1
            }
            return bytes.count
        }

        /// Whether the bytes after an `&` are `name;`, `#digits;` or `#xhex;`.
        func startsReference(at index: Int) -> Bool {
            var cursor = index
            guard cursor < bytes.count else { return false }
            if bytes[cursor] == UInt8(ascii: "#") {
                cursor += 1
                var isHex = false
                if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "x") {
                    isHex = true
                    cursor += 1
                }
                let digitsStart = cursor
                while cursor < bytes.count, Self.isDigit(bytes[cursor], hex: isHex) { cursor += 1 }
                return cursor > digitsStart && cursor < bytes.count && bytes[cursor] == UInt8(ascii: ";")
            }
            guard Self.isNameStart(bytes[cursor]) else { return false }
            cursor += 1
            while cursor < bytes.count, Self.isNameCharacter(bytes[cursor]) { cursor += 1 }
            return cursor < bytes.count && bytes[cursor] == UInt8(ascii: ";")
        }

        mutating func repairAmpersand(at index: Int) {
            if output == nil {
                output = []
                output!.reserveCapacity(bytes.count - start + 64)
            }
            output!.append(contentsOf: bytes[copied...index])
            output!.append(contentsOf: Array("amp;".utf8))
            copied = index + 1
            repairs += 1
            (line, column) = position(of: index)
            positioned = index
            // The `&` is at `column`; the inserted "amp;" follows it.
            map.insertions[line, default: []].append(column + 1)
            column += 4
        }

        /// Checks a `<!DOCTYPE ...>` and returns the index just past it.
        func checkDocumentType(at index: Int) throws(IngestError) -> Int {
            var cursor = index + 9
            var quote: UInt8?
            var inSubset = false
            var sawExternalID = false
            // The unquoted words before the internal subset: the root name, SYSTEM or PUBLIC.
            var head: [UInt8] = []
            while cursor < bytes.count {
                let byte = bytes[cursor]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if inSubset {
                    // Comments and processing instructions may hold quotes and brackets.
                    if matches("<!--", at: cursor) {
                        cursor = end(of: "-->", from: cursor + 4)
                        continue
                    }
                    if matches("<?", at: cursor) {
                        cursor = end(of: "?>", from: cursor + 2)
                        continue
                    }
                    if matches("<!ENTITY", at: cursor) {
                        throw rejection(at: index, Self.entityDeclarationRefused)
                    }
                    if byte == UInt8(ascii: "]") { inSubset = false }
                } else if byte == UInt8(ascii: "[") {
                    inSubset = true
                    sawExternalID = sawExternalID || Self.namesExternalID(head)
                } else if byte == UInt8(ascii: ">") {
                    if sawExternalID || Self.namesExternalID(head) {
                        throw rejection(at: index, "a DOCTYPE referring to an external DTD (SYSTEM or PUBLIC) is refused")
                    }
                    return cursor + 1
                } else if head.count < 256 {
                    head.append(byte)
                }
                cursor += 1
            }
            throw rejection(at: index, "the DOCTYPE is not closed")
        }

        /// Refuses an XML declaration naming an encoding other than UTF-8 (or its subset
        /// US-ASCII): listings are UTF-8, and the parser's switch to another encoding is
        /// where fuzzing crashed it (`encoding="UTF-7"`: a NULL dereference in libxml2
        /// 2.9's `xmlSwitchToEncoding`).
        func checkDeclaredEncoding() throws(IngestError) {
            guard matches("<?xml", at: start) else { return }
            let end = min(bytes.count, start + 256)
            guard let close = bytes[start..<end].firstIndex(of: UInt8(ascii: ">")) else { return }
            let declaration = String(decoding: bytes[start..<close], as: UTF8.self)
            guard let key = declaration.range(of: "encoding") else { return }
            let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { return }
            let name = rest.dropFirst().prefix { $0 != quote }
            guard !["utf-8", "utf8", "us-ascii", "ascii"].contains(name.lowercased()) else { return }
            throw rejection(at: start, "the encoding \"\(name)\" is refused: listings are read as UTF-8")
        }

        /// Refuses a processing instruction with a target and no data (`<?name?>`):
        /// Foundation's XMLParser passes the missing data to `strlen` (a crash fuzzing
        /// found). Listings have none; one with data is read as before.
        func checkProcessingInstruction(from first: Int, to close: Int) throws(IngestError) {
            let body = bytes[first..<max(first, min(close, bytes.count) - 2)]
            guard let space = body.firstIndex(where: { [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
                if body.isEmpty { return }
                throw rejection(at: first - 2, "a processing instruction without data (<?target?>) is refused")
            }
            if body[space...].allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
                throw rejection(at: first - 2, "a processing instruction without data (<?target ?>) is refused")
            }
        }

        /// Refuses a start tag with more than ``maximumAttributes`` attributes: the
        /// parser (libxml2 2.9) compares each attribute with every other for duplicates,
        /// so one tag with a huge number of them stalls a page. Counts the `=` outside quoted
        /// values up to the tag's `>`, stopping at the limit: linear in the tag at most.
        func checkAttributeCount(at index: Int) throws(IngestError) {
            var attributes = 0
            var quote: UInt8 = 0
            var cursor = index + 1
            while cursor < bytes.count {
                let byte = bytes[cursor]
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "=") {
                    attributes += 1
                    if attributes > XMLPreparation.maximumAttributes {
                        throw rejection(
                            at: index,
                            "an element with more than \(XMLPreparation.maximumAttributes) attributes is refused "
                                + "(no listing has more than a few dozen)")
                    }
                } else if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "<") {
                    return
                }
                cursor += 1
            }
        }

        static let entityDeclarationRefused =
            "a DOCTYPE declaring entities (<!ENTITY>) is refused: entity expansion and external entities are not allowed"

        func rejection(at index: Int, _ detail: String) -> IngestError {
            let (line, column) = position(of: index)
            return IngestError(
                locator: locator, position: map.original(line: line, column: column).description,
                reason: .malformed(detail))
        }

        static func namesExternalID(_ head: [UInt8]) -> Bool {
            let words = String(decoding: head, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            return words.dropFirst().contains { $0 == "SYSTEM" || $0 == "PUBLIC" }
        }

        static func isDigit(_ byte: UInt8, hex: Bool) -> Bool {
            if (0x30...0x39).contains(byte) { return true }
            return hex && ((0x41...0x46).contains(byte) || (0x61...0x66).contains(byte))
        }

        static func isNameStart(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ":") || byte >= 0x80
        }

        static func isNameCharacter(_ byte: UInt8) -> Bool {
            isNameStart(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
        }
    }
}

/// Maps parser positions in prepared XML back to the bytes as received.
struct XMLSourceMap: Sendable, Hashable {
    /// Newlines dropped before the document.
    var strippedLines = 0
    /// Characters dropped on the document's first line, after the last dropped newline.
    var strippedColumns = 0
    /// Prepared-text line → columns where an inserted `amp;` starts.
    var insertions: [Int: [Int]] = [:]

    func original(line: Int, column: Int) -> XMLPosition {
        var column = column
        if let inserted = insertions[line] {
            column -= 4 * inserted.filter { $0 < column }.count
        }
        if line == 1 { column += strippedColumns }
        return XMLPosition(line: line + strippedLines, column: max(column, 1))
    }
}

/// A place in an XML page, as an editor shows it.
struct XMLPosition: Sendable, Hashable, CustomStringConvertible {
    var line: Int
    var column: Int

    var description: String { "line \(line), column \(column)" }
}
