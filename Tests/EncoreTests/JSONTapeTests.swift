import Foundation
import Listings
import Testing

struct JSONTapeTests {
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
}
