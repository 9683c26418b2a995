@testable import Ingest
import Testing

struct JSONSyntaxLocatorTests {
    @Test func acceptsWellFormedJSON() {
        for text in [#"{"a":[1,2.5e3,-0,true,false,null,"\u00e9\n"]}"#, "[]", " 3 ", #""x""#] {
            #expect(JSONSyntaxLocator.firstError(in: Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test func pointsAtTheLineAndColumnOfTheFirstError() {
        let failure = JSONSyntaxLocator.firstError(in: Array("{\n  \"a\": [1,\n  2,, 3]}".utf8))
        #expect(failure?.line == 3)
        #expect(failure?.column == 5)
        #expect(JSONSyntaxLocator.firstError(in: Array(#"{"a": 01}"#.utf8))?.message.contains("leading zeros") == true)
        #expect(JSONSyntaxLocator.firstError(in: Array(#"{"a": 1} x"#.utf8))?.message.contains("after the top-level") == true)
        #expect(JSONSyntaxLocator.firstError(in: Array(#"{"a": "#.utf8))?.message.contains("end of input") == true)
    }

    @Test func boundsNestingDepth() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(JSONSyntaxLocator.firstError(in: Array(deep.utf8))?.message.contains("nesting") == true)
    }
}
