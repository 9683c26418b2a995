import Foundation
@testable import Ingest
import Listings
import Testing

/// The shared XML layer: hostile pages are refused before parsing, the two defects
/// seen in recorded Last.fm XML are repaired, and positions refer to the bytes as received.
struct XMLSafetyTests {
    static let xmlIngesters: [any Ingester] = [SongkickXMLIngester(), LastFMXMLIngester()]

    func fixtureData(_ relative: String) throws -> (path: String, data: Data) {
        let path = TestSupport.fixture(relative)
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func lastFM(_ xml: String) throws -> ListingPage {
        try LastFMXMLIngester().parse(Data(xml.utf8), context: PageContext(locator: "page.xml"))
    }

    /// A minimal Last.fm page around one event's fields.
    func lastFMEvent(_ fields: String, prolog: String = #"<?xml version="1.0" encoding="utf-8"?>"#) -> String {
        prolog + """

            <lfm status="ok"><events page="1" total="1"><event>
            <id>1</id>\(fields)<startDate>Fri, 12 Mar 2027 20:00:00</startDate>
            </event></events></lfm>
            """
    }

    // MARK: - Refused before parsing

    @Test(arguments: ["songkick-xml", "lastfm-xml"])
    func refusesABillionLaughsPageQuickly(folder: String) throws {
        let (path, data) = try fixtureData("bad/\(folder)/billion-laughs.xml")
        let ingester = try #require(Self.xmlIngesters.first { $0.format == folder })
        #expect(ingester.recognizes(ContentSample(data)))
        // Refused by Encore's scan at the declaration, before libxml2 could expand anything.
        let error = #expect(throws: IngestError.self) {
            try ingester.parse(data, context: PageContext(locator: path))
        }
        #expect(error?.position == "line 2, column 1")
        #expect(error?.description.contains("<!ENTITY") == true, "\(error?.description ?? "")")
        if case .malformed = error?.reason {} else { Issue.record("expected .malformed, got \(String(describing: error))") }
    }

    @Test(arguments: ["songkick-xml", "lastfm-xml"])
    func refusesExternalEntitiesWithoutReadingThem(folder: String) throws {
        let (path, data) = try fixtureData("bad/\(folder)/external-entity.xml")
        #expect(String(decoding: data, as: UTF8.self).contains("file:///etc/passwd"))
        let ingester = try #require(Self.xmlIngesters.first { $0.format == folder })
        let error = #expect(throws: IngestError.self) {
            try ingester.parse(data, context: PageContext(locator: path))
        }
        #expect(error?.description.contains("entit") == true)
        #expect(error?.description.contains("root:") == false)
    }

    @Test func refusesAnExternalDTDButAcceptsAPlainDoctype() throws {
        let external = lastFMEvent("", prolog: #"<!DOCTYPE lfm SYSTEM "file:///etc/passwd">"#)
        let error = #expect(throws: IngestError.self) { try lastFM(external) }
        #expect(error?.description.contains("external DTD") == true)

        let plain = try lastFM(lastFMEvent("", prolog: "<!DOCTYPE lfm>"))
        #expect(plain.events.count == 1)
    }

    @Test func refusesEntityDeclarationsHiddenBehindCommentsAndInstructions() throws {
        for prolog in [
            #"<!DOCTYPE lfm [ <?pi ' ?> <!ENTITY a "b"> <?pi ' ?> ]>"#,
            #"<!DOCTYPE lfm [ <!-- ] > ' --> <!ENTITY a "b"> ]>"#,
            #"<!DOCTYPE lfm [ <!ATTLIST lfm x CDATA "]>"> <!ENTITY a "b"> ]>"#,
        ] {
            let error = #expect(throws: IngestError.self, "\(prolog)") { try lastFM(lastFMEvent("", prolog: prolog)) }
            #expect(error?.description.contains("<!ENTITY") == true, "\(prolog)")
        }
    }

    @Test(arguments: ["songkick-xml", "lastfm-xml"])
    func refusesNestingDeeperThanTheLimit(folder: String) throws {
        let (path, data) = try fixtureData("bad/\(folder)/deep-nesting.xml")
        let ingester = try #require(Self.xmlIngesters.first { $0.format == folder })
        let error = #expect(throws: IngestError.self) {
            try ingester.parse(data, context: PageContext(locator: path))
        }
        #expect(error?.description.contains("nest more than \(SafeXMLReader.maximumDepth) deep") == true)
        #expect(error?.position?.hasPrefix("line 2, column ") == true)
    }

    @Test func acceptsNestingWithinTheLimit() throws {
        let nested = String(repeating: "<x>", count: 50) + String(repeating: "</x>", count: 50)
        let page = try lastFM(lastFMEvent("<description>\(nested)</description>"))
        #expect(page.events.count == 1)
        #expect(SafeXMLReader.maximumDepth == 64)
    }

    // MARK: - Tolerated defects

    @Test func toleratesWhiteSpaceBeforeTheXMLDeclaration() throws {
        let page = try lastFM("\n \r\n" + lastFMEvent("<title>Early</title>"))
        #expect(page.events.map(\.title) == ["Early"])
    }

    @Test func readsARawAmpersandAsALiteralInTextAndAttributes() throws {
        let xml = lastFMEvent("<title>Mumford & Sons &amp; Friends & Co</title>")
            .replacingOccurrences(of: #"<events page="1""#, with: #"<events url="http://x/Mumford+&+Sons" page="1""#)
        let page = try lastFM(xml)
        #expect(page.events.first?.title == "Mumford & Sons & Friends & Co")
    }

    @Test func leavesReferencesCDATACommentsAndInstructionsAlone() throws {
        let text = #"<a t="&amp;&#38;&#x26;&lt;&quot;"><![CDATA[x & y]]><!-- a & b --><?pi c & d?>&apos;</a>"#
        let prepared = try XMLPreparation.prepare(Data(text.utf8), locator: "x")
        #expect(prepared.data == Data(text.utf8))
        #expect(prepared.ampersandsRepaired == 0)

        let page = try lastFM(lastFMEvent("<description><![CDATA[Rock & roll]]></description><title>A &#38; B</title>"))
        #expect(page.events.first?.title == "A & B")
    }

    @Test func repairsOnlyAmpersandsThatStartNoReference() throws {
        let text = "<a>1 & 2 &amp; 3 &# 4 &#x; 5 &#12a; 6 &name 7 &9; 8 &</a>"
        let prepared = try XMLPreparation.prepare(Data(text.utf8), locator: "x")
        #expect(prepared.ampersandsRepaired == 7)
        #expect(
            String(decoding: prepared.data, as: UTF8.self)
                == "<a>1 &amp; 2 &amp; 3 &amp;# 4 &amp;#x; 5 &amp;#12a; 6 &amp;name 7 &amp;9; 8 &amp;</a>")
    }

    @Test func stillRefusesUndeclaredEntities() throws {
        let error = #expect(throws: IngestError.self) { try lastFM(lastFMEvent("<title>A&nbsp;B</title>")) }
        #expect(error?.description.contains("undeclared entity") == true)
    }

    // MARK: - Positions

    @Test func reportsMalformedXMLWithLineAndColumn() throws {
        let error = #expect(throws: IngestError.self) {
            try lastFM("<lfm status=\"ok\">\n<events>\n<event><id>1</id></events></lfm>")
        }
        #expect(error?.position?.hasPrefix("line 3, column ") == true, "\(error?.position ?? "")")
        #expect(error?.description.contains("not well-formed XML") == true)
        if case .malformed = error?.reason {} else { Issue.record("expected .malformed, got \(String(describing: error))") }
    }

    @Test func positionsReferToTheBytesAsReceivedAfterRepairs() throws {
        // The same mistake (a mismatched end tag), once with escaped ampersands and once
        // with raw ones after a stray blank line: the reported column differs by exactly
        // the 8 characters of the two "amp;", and the line counts the blank lines.
        let escaped = #"<lfm status="ok"><events><event><id>1 &amp; 2 &amp; 3</idd></event></events></lfm>"#
        let raw = "\n\n" + #"<lfm status="ok"><events><event><id>1 & 2 & 3</idd></event></events></lfm>"#
        let first = #expect(throws: IngestError.self) { try lastFM(escaped) }
        let second = #expect(throws: IngestError.self) { try lastFM(raw) }
        let column = try #require(first?.position.flatMap { Int($0.split(separator: " ").last ?? "") })
        #expect(first?.position == "line 1, column \(column)")
        #expect(second?.position == "line 3, column \(column - 8)")
    }

    @Test func positionsAfterADoctypeCheckPointAtTheDoctype() throws {
        let xml = "\n\n" + #"<?xml version="1.0"?>"# + "\n" + #"<!DOCTYPE lfm [<!ENTITY a "b">]><lfm status="ok"/>"#
        let error = #expect(throws: IngestError.self) { try lastFM(xml) }
        #expect(error?.position == "line 4, column 1")
    }
}
