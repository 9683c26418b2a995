import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An element as it opens outside any record: name, attributes, where it is.
struct XMLOpenElement: Sendable, Hashable {
    var name: String
    var attributes: [String: String]
    var position: XMLPosition

    /// An attribute's value, or nil when the attribute is missing or empty.
    func attribute(_ name: String) -> String? {
        guard let value = attributes[name], !value.isEmpty else { return nil }
        return value
    }
}

/// The elements open around the current one outside any record, outermost first.
struct XMLElementPath: Sendable, Hashable, CustomStringConvertible {
    var elements: [XMLOpenElement] = []

    var names: [String] { elements.map(\.name) }
    var depth: Int { elements.count }

    /// `lfm.events`: the names joined with dots.
    var description: String { names.joined(separator: ".") }
}

/// What a page reader does with the elements a ``SafeXMLReader`` streams to it.
///
/// Elements outside any record are offered one at a time (for envelope attributes such
/// as `status` or `page`); when the handler says to collect one, that element and
/// everything inside it arrive as one ``XMLFragment`` once it closes.
protocol XMLRecordHandler: AnyObject {
    /// An element opened outside any record; `path` holds its ancestors.
    /// Return true to collect it as a record.
    func shouldCollect(_ element: XMLOpenElement, in path: XMLElementPath) throws(IngestError) -> Bool
    /// A collected element closed; `path` holds its ancestors.
    func didCollect(_ record: XMLFragment, in path: XMLElementPath) throws(IngestError)
}

/// Streams an XML page through Foundation's `XMLParser` (SAX style: no tree of the
/// whole page is built), with the safety settings every Encore XML reader shares:
///
/// - the bytes go through ``XMLPreparation`` first: DOCTYPEs declaring entities or
///   naming external DTDs are refused before parsing; leading white space and raw `&`
///   are repaired;
/// - external entities are never resolved (`shouldResolveExternalEntities = false`,
///   `externalEntityResolvingPolicy = .never`);
/// - elements may nest at most ``maximumDepth`` deep;
/// - the first error ends the parse (Foundation's parser would otherwise recover and
///   go on), and is reported as `line L, column C` in the bytes as received.
struct SafeXMLReader {
    /// Listing pages nest 7 or 8 deep; anything past this is refused.
    static let maximumDepth = 64

    let locator: String

    init(locator: String) {
        self.locator = locator
    }

    func read(_ data: Data, into handler: some XMLRecordHandler) throws(IngestError) {
        let prepared = try XMLPreparation.prepare(data, locator: locator)
        let parser = XMLParser(data: prepared.data)
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        let delegate = Delegate(locator: locator, sourceMap: prepared.sourceMap, handler: handler)
        parser.delegate = delegate
        let succeeded = parser.parse()
        parser.delegate = nil
        if let failure = delegate.failure { throw failure }
        if !succeeded {
            let code = (parser.parserError as? NSError)?.code ?? 0
            throw IngestError(
                locator: locator,
                position: prepared.sourceMap.original(line: parser.lineNumber, column: parser.columnNumber).description,
                reason: .malformed(Self.message(forParserError: code)))
        }
        if !delegate.sawRootElement {
            throw IngestError(locator: locator, reason: .malformed(Self.message(forParserError: 4)))
        }
    }

    private final class Delegate<Handler: XMLRecordHandler>: NSObject, XMLParserDelegate {
        let locator: String
        let sourceMap: XMLSourceMap
        let handler: Handler
        var failure: IngestError?
        var sawRootElement = false

        /// The open elements outside the record being collected (the handler's context).
        var path = XMLElementPath()
        /// The record being collected: its open elements, outermost first. They are not
        /// on `path` too: handlers see the path only outside records.
        var collecting: [XMLFragment] = []

        init(locator: String, sourceMap: XMLSourceMap, handler: Handler) {
            self.locator = locator
            self.sourceMap = sourceMap
            self.handler = handler
        }

        func position(_ parser: XMLParser) -> XMLPosition {
            sourceMap.original(line: parser.lineNumber, column: parser.columnNumber)
        }

        func fail(_ error: IngestError, _ parser: XMLParser) {
            guard failure == nil else { return }
            failure = error
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            guard failure == nil else { return }
            sawRootElement = true
            let here = position(parser)
            guard path.depth + collecting.count < SafeXMLReader.maximumDepth else {
                let names = path.names + collecting.map(\.name)
                fail(
                    IngestError(
                        locator: locator, position: here.description,
                        reason: .malformed(
                            "elements nest more than \(SafeXMLReader.maximumDepth) deep (inside "
                                + names.prefix(4).joined(separator: ".") + "...)")),
                    parser)
                return
            }
            if !collecting.isEmpty {
                collecting.append(XMLFragment(name: elementName, attributes: attributes, position: here))
                return
            }
            let element = XMLOpenElement(name: elementName, attributes: attributes, position: here)
            do {
                if try handler.shouldCollect(element, in: path) {
                    collecting.append(XMLFragment(name: elementName, attributes: attributes, position: here))
                } else {
                    path.elements.append(element)
                }
            } catch {
                fail(error, parser)
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard failure == nil else { return }
            guard let closed = collecting.popLast() else {
                if !path.elements.isEmpty { path.elements.removeLast() }
                return
            }
            if collecting.isEmpty {
                do {
                    try handler.didCollect(closed, in: path)
                } catch {
                    fail(error, parser)
                }
            } else {
                collecting[collecting.count - 1].children.append(closed)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard failure == nil, !collecting.isEmpty else { return }
            collecting[collecting.count - 1].text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            guard failure == nil, !collecting.isEmpty else { return }
            collecting[collecting.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
            nil
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            let code = (parseError as NSError).code
            fail(
                IngestError(
                    locator: locator, position: position(parser).description,
                    reason: .malformed(SafeXMLReader.message(forParserError: code))),
                parser)
        }

        func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
            // No DTD validation is asked for; nothing to report.
        }
    }

    /// Words for libxml2's error codes (which `XMLParser` passes on), for the ones a
    /// broken page realistically produces.
    static func message(forParserError code: Int) -> String {
        let text: String
        switch code {
        case 4: text = "the document is empty"
        case 5: text = "the document ends too early, or has content after its root element"
        case 9: text = "a character that XML does not allow"
        case 6, 7, 8: text = "a character reference to an invalid character"
        case 22, 23: text = "an '&' that does not start an entity reference (write &amp;)"
        case 26, 27: text = "a reference to an undeclared entity"
        case 31, 32, 81: text = "an unsupported or wrong character encoding"
        case 34, 40: text = "an attribute value without its closing quote"
        case 38: text = "a '<' inside an attribute value"
        case 39, 41, 75: text = "an attribute without a quoted value"
        case 42: text = "the same attribute twice on one element"
        case 45: text = "a comment that is not closed"
        case 63: text = "a CDATA section that is not closed"
        case 64: text = "an XML declaration that is not at the very start of the document"
        case 68: text = "a name was expected (a stray '<' or '&'?)"
        case 73: text = "a tag that is not closed with '>'"
        case 76: text = "an end tag that does not match the open element"
        case 77: text = "an element that is never closed"
        case 85, 86: text = "content after the root element"
        case 89: text = "an entity that refers to itself"
        case 111: text = "parsing was stopped"
        default: text = "XML error \(code)"
        }
        return "not well-formed XML: \(text)"
    }
}
