import Foundation

/// What a ``StreamingXML`` reader meets, in document order.
enum XMLToken {
    case open(name: String, attributes: [String: String], selfClosing: Bool)
    case close(name: String)
    /// Character data between tags, entities decoded; white space included.
    case text(String)
}

/// A small XML tokenizer over a stream, for the two XML exports (an iTunes/Music
/// `Library.xml` property list, a Last.fm response): constant memory whatever the file's
/// size. It declares no entities and resolves nothing external: a DOCTYPE is skipped,
/// and only the five predefined entities and character references are decoded.
struct StreamingXML {
    let stream: ByteStream
    let file: String
    private var open: [String] = []
    private var scratch: [UInt8] = []

    init(stream: ByteStream, file: String) {
        self.stream = stream
        self.file = file
    }

    var depth: Int { open.count }

    func fail(_ message: String) -> ListeningImportError {
        ListeningImportError(file: file, position: stream.position, message: message)
    }

    /// The next token; nil at the end of a well-formed document.
    mutating func next() throws(ListeningImportError) -> XMLToken? {
        guard let byte = stream.peek() else {
            if let unclosed = open.last { throw fail("the file ends inside <\(unclosed)> (truncated?)") }
            return nil
        }
        if byte != UInt8(ascii: "<") { return .text(try text()) }
        _ = stream.next()
        switch stream.peek() {
        case UInt8(ascii: "?"):
            try skip(until: Array("?>".utf8))
            return try next()
        case UInt8(ascii: "!"):
            _ = stream.next()
            if stream.peek() == UInt8(ascii: "-") {
                try skip(until: Array("-->".utf8))
            } else if stream.peek() == UInt8(ascii: "[") {
                try skip(until: Array("[CDATA[".utf8))
                scratch.removeAll(keepingCapacity: true)
                try collect(until: Array("]]>".utf8))
                return .text(String(decoding: scratch, as: UTF8.self))
            } else {
                try skipDeclaration()
            }
            return try next()
        case UInt8(ascii: "/"):
            _ = stream.next()
            let name = try readName()
            skipSpace()
            guard stream.next() == UInt8(ascii: ">") else { throw fail("a malformed end tag </\(name)>") }
            guard open.last == name else {
                throw fail(open.last.map { "</\(name)> closes <\($0)>" } ?? "</\(name)> closes nothing")
            }
            open.removeLast()
            return .close(name: name)
        default:
            let name = try readName()
            var attributes: [String: String] = [:]
            while true {
                skipSpace()
                guard let byte = stream.peek() else { throw fail("the file ends inside a tag (truncated?)") }
                if byte == UInt8(ascii: ">") {
                    _ = stream.next()
                    open.append(name)
                    if open.count > 256 { throw fail("XML nested deeper than 256 elements") }
                    return .open(name: name, attributes: attributes, selfClosing: false)
                }
                if byte == UInt8(ascii: "/") {
                    _ = stream.next()
                    guard stream.next() == UInt8(ascii: ">") else { throw fail("a malformed tag <\(name)>") }
                    return .open(name: name, attributes: attributes, selfClosing: true)
                }
                let attribute = try readName()
                skipSpace()
                guard stream.next() == UInt8(ascii: "=") else { throw fail("attribute \(attribute) of <\(name)> has no value") }
                skipSpace()
                guard let quote = stream.next(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                    throw fail("attribute \(attribute) of <\(name)> is not quoted")
                }
                attributes[attribute] = try decoded(until: quote)
            }
        }
    }

    /// The text of the element just opened, up to its end tag (which is consumed).
    mutating func elementText(_ name: String) throws(ListeningImportError) -> String {
        var result = ""
        while let token = try next() {
            switch token {
            case .text(let text): result += text
            case .close(let closed) where closed == name: return result
            case .open(let inner, _, _): throw fail("<\(inner)> inside <\(name)>, which holds text")
            case .close: break
            }
        }
        throw fail("the file ends inside <\(name)> (truncated?)")
    }

    private func skipSpace() {
        while let byte = stream.peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { _ = stream.next() }
    }

    private mutating func readName() throws(ListeningImportError) -> String {
        scratch.removeAll(keepingCapacity: true)
        while let byte = stream.peek(), byte > 0x20, byte != UInt8(ascii: ">"), byte != UInt8(ascii: "/"),
            byte != UInt8(ascii: "="), byte != UInt8(ascii: "<")
        {
            scratch.append(byte)
            _ = stream.next()
        }
        guard !scratch.isEmpty else { throw fail(stream.peek() == nil ? "the file ends inside a tag (truncated?)" : "a tag without a name") }
        return String(decoding: scratch, as: UTF8.self)
    }

    private mutating func text() throws(ListeningImportError) -> String {
        try decoded(until: UInt8(ascii: "<"), consumeEnd: false)
    }

    private mutating func decoded(until end: UInt8, consumeEnd: Bool = true) throws(ListeningImportError) -> String {
        scratch.removeAll(keepingCapacity: true)
        while let byte = stream.peek() {
            if byte == end {
                if consumeEnd { _ = stream.next() }
                return String(decoding: scratch, as: UTF8.self)
            }
            _ = stream.next()
            if byte == UInt8(ascii: "&") { try entity() } else { scratch.append(byte) }
        }
        if consumeEnd { throw fail("the file ends inside a quoted value (truncated?)") }
        return String(decoding: scratch, as: UTF8.self)
    }

    private mutating func entity() throws(ListeningImportError) {
        var name: [UInt8] = []
        while let byte = stream.next(), byte != UInt8(ascii: ";") {
            name.append(byte)
            if name.count > 10 { throw fail("an unterminated entity reference") }
        }
        let text = String(decoding: name, as: UTF8.self)
        let predefined = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
        if let value = predefined[text] {
            scratch.append(contentsOf: Array(value.utf8))
        } else if text.hasPrefix("#"),
            let code = text.hasPrefix("#x") ? UInt32(text.dropFirst(2), radix: 16) : UInt32(text.dropFirst()),
            let scalar = Unicode.Scalar(code)
        {
            scratch.append(contentsOf: Array(String(scalar).utf8))
        } else {
            throw fail("an unknown entity &\(text);")
        }
    }

    private func skip(until end: [UInt8]) throws(ListeningImportError) {
        var matched = 0
        while let byte = stream.next() {
            matched = byte == end[matched] ? matched + 1 : (byte == end[0] ? 1 : 0)
            if matched == end.count { return }
        }
        throw fail("the file ends inside markup (truncated?)")
    }

    private mutating func collect(until end: [UInt8]) throws(ListeningImportError) {
        var matched = 0
        while let byte = stream.next() {
            scratch.append(byte)
            matched = byte == end[matched] ? matched + 1 : (byte == end[0] ? 1 : 0)
            if matched == end.count {
                scratch.removeLast(end.count)
                return
            }
        }
        throw fail("the file ends inside CDATA (truncated?)")
    }

    /// `<!DOCTYPE …>`, with an internal subset in brackets.
    private func skipDeclaration() throws(ListeningImportError) {
        var brackets = 0
        while let byte = stream.next() {
            if byte == UInt8(ascii: "[") { brackets += 1 }
            if byte == UInt8(ascii: "]") { brackets -= 1 }
            if byte == UInt8(ascii: ">"), brackets <= 0 { return }
        }
        throw fail("the file ends inside a declaration (truncated?)")
    }
}
