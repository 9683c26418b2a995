import Foundation
import Listings
import Testing

struct TextTrimmingTests {
    @Test func trimsWhatFoundationTrimsForEveryScalarOfTheBasicPlane() {
        var differing: [String] = []
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "\(scalar)a \(scalar) b\(scalar)"
            if text.trimmingWhitespace() != text.trimmingCharacters(in: .whitespacesAndNewlines) {
                differing.append(String(value, radix: 16))
            }
        }
        #expect(differing.isEmpty, "U+\(differing.prefix(10))")
    }

    @Test func blankTextTrimsToEmptyAndInnerSpaceStays() {
        #expect(" \t\n\u{A0}\u{3000}".trimmingWhitespace() == "")
        #expect("\u{2028} Sigur Rós \r\n".trimmingWhitespace() == "Sigur Rós")
        #expect("Low"[...].trimmingWhitespace() == "Low")
    }
}
