import Foundation
@testable import Ingest
import Listings
import Testing

struct JSONTapeTests {
    /// Every file of a format we hold: hand-made fixtures, the sample world, and the
    /// recorded real responses when they sit beside the checkout.
    static func files(_ format: String, recognizedBy ingester: some Ingester) throws -> [String] {
        var roots = [format, "sample/\(format)", "sample-multi/\(format)"].map(TestSupport.fixture)
        if let realWorld = TestSupport.realWorld(format) { roots.append(realWorld) }
        return try roots.filter { FileManager.default.fileExists(atPath: $0) }
            .flatMap { try FileIngestion.listingFiles(at: $0) }
            .filter { path in
                guard let data = FileManager.default.contents(atPath: path) else { return false }
                return ingester.recognizes(ContentSample(data))
            }
    }

    /// The tape must take every file (or it is no fast path) and give what
    /// `JSONDecoder` gives, field for field.
    func expectTapeReadsAsJSONDecoder<T: Decodable>(
        _ files: [String], _ type: T.Type, tape read: (JSONTapeValue) throws(JSONTapeMiss) -> T
    ) throws {
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            let tape = try #require(JSONTape(data), "\(file)")
            let fast = try #require(try? read(tape.root), "\(file)")
            let decoded = try JSONDecoder().decode(type, from: data)
            var fastText = "", decodedText = ""
            dump(fast, to: &fastText)
            dump(decoded, to: &decodedText)
            #expect(fastText == decodedText, "\(file)")
        }
    }

    @Test func readsEverySongkickFileExactlyAsJSONDecoderDoes() throws {
        let files = try Self.files("songkick-json", recognizedBy: SongkickJSONIngester())
        #expect(files.count > 90)
        try expectTapeReadsAsJSONDecoder(files, SongkickJSON.Envelope.self, tape: SongkickJSON.Envelope.init(tape:))
    }

    @Test func readsEveryBandsintownEventListExactlyAsJSONDecoderDoes() throws {
        let files = try Self.files("bandsintown", recognizedBy: BandsintownIngester()).filter { path in
            ContentSample(FileManager.default.contents(atPath: path)!, limit: 64).firstSignificantByte == UInt8(ascii: "[")
        }
        #expect(files.count > 5)
        try expectTapeReadsAsJSONDecoder(files, [BandsintownJSON.Event].self) { value throws(JSONTapeMiss) in
            try value.elements().map { v throws(JSONTapeMiss) in try BandsintownJSON.Event(tape: v) }
        }
    }

    @Test func readsEveryTicketmasterFileExactlyAsJSONDecoderDoes() throws {
        let files = try Self.files("ticketmaster", recognizedBy: TicketmasterIngester())
        #expect(files.count >= 5)
        try expectTapeReadsAsJSONDecoder(files, TicketmasterJSON.Response.self, tape: TicketmasterJSON.Response.init(tape:))
        try expectTapeReadsAsJSONDecoder(files, TicketmasterJSON.Event.self, tape: TicketmasterJSON.Event.init(tape:))
    }

    @Test func decodesEscapesAndKeepsTheLastOfARepeatedKey() throws {
        let json = #"{"a": "x\"\\\/\b\f\n\r\t\u00e9\ud83c\udfb8", "b": 1, "b": -2.5e1, "c": [true, false, null, {}, []]}"#
        let tape = try #require(JSONTape(Data(json.utf8)))
        #expect(try tape.root.text("a") == "x\"\\/\u{8}\u{c}\n\r\té🎸")
        #expect(try tape.root.member("b")?.double() == -25)
        #expect(try tape.root.member("c")?.elements().map(\.kind) == [.true, .false, .null, .object, .array])
        #expect(try tape.root.text("missing") == nil)
    }

    @Test(arguments: [
        "", "{", #"{"a":}"#, #"{"a" 1}"#, "[1,]", "[1 2]", "01", "1.", "-", "1e", #""\x""#, "\"a\u{1}b\"", #""\ud800""#,
        "tru", "{} {}", "nul", #"{"a":1,}"#,
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        // Escapes are checked when a string is read, so a bad one may parse and then miss.
        if let tape = JSONTape(Data(text.utf8)) {
            #expect(tape.root.kind == .escapedString)
            #expect(throws: JSONTapeMiss.self) { try tape.root.string() }
        }
    }

    @Test func refusesNestingDeeperThanJSONDecoderAllows() {
        let deep = String(repeating: "[", count: JSONTape.maximumDepth + 1) + String(repeating: "]", count: JSONTape.maximumDepth + 1)
        #expect(JSONTape(Data(deep.utf8)) == nil)
        let allowed = String(repeating: "[", count: JSONTape.maximumDepth) + String(repeating: "]", count: JSONTape.maximumDepth)
        #expect(JSONTape(Data(allowed.utf8)) != nil)
    }

    /// A value of an unexpected type is a miss, so the page is decoded again by
    /// `JSONDecoder`, whose error names the place.
    @Test func aWrongTypeIsLeftToJSONDecoderForItsError() throws {
        let json = #"{"resultsPage": {"status": "ok", "results": {"event": [{"id": 1, "start": {"date": 20270101}}]}}}"#
        let tape = try #require(JSONTape(Data(json.utf8)))
        #expect(throws: JSONTapeMiss.self) { try SongkickJSON.Envelope(tape: tape.root) }
        #expect {
            try SongkickJSONIngester().parse(Data(json.utf8), context: PageContext(locator: "p.json"))
        } throws: { error in
            (error as? IngestError)?.position == "resultsPage.results.event[0].start.date"
        }
    }
}
