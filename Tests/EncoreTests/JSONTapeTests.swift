import Foundation
@testable import Ingest
import Testing

struct JSONTapeTests {
    /// Every Songkick JSON file we hold: the sample world, hand-made fixtures, and the
    /// recorded real responses when they sit beside the checkout.
    static func songkickFiles() throws -> [String] {
        var roots = ["songkick-json", "sample", "sample-multi"].map(TestSupport.fixture)
        if let realWorld = TestSupport.realWorld("songkick-json") { roots.append(realWorld) }
        return try roots.flatMap { try FileIngestion.listingFiles(at: $0) }.filter { path in
            guard path.hasSuffix(".json"), let data = FileManager.default.contents(atPath: path) else { return false }
            return SongkickJSONIngester().recognizes(ContentSample(data))
        }
    }

    @Test func readsEverySongkickFileExactlyAsJSONDecoderDoes() throws {
        let files = try Self.songkickFiles()
        #expect(files.count > 90)
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            let tape = try #require(JSONTape(data), "\(file)")
            let fast = try #require(try? SongkickJSON.Envelope(tape: tape.root), "\(file)")
            let decoded = try JSONDecoder().decode(SongkickJSON.Envelope.self, from: data)
            var fastText = "", decodedText = ""
            dump(fast, to: &fastText)
            dump(decoded, to: &decodedText)
            #expect(fastText == decodedText, "\(file)")
        }
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
