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

    @Test func trimsSpacesAsFoundationTrimsWhitespacesForEveryScalarOfTheBasicPlane() {
        var differing: [String] = []
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for text in [
                "\(scalar)a \(scalar) b\(scalar)", "\(scalar)", "x\(scalar)", "\(scalar)\(scalar)x", " \(scalar)x", "x\(scalar) ",
                " \(scalar) ",
            ] {
                if text.trimmingSpaces() != text.trimmingCharacters(in: .whitespaces)
                    || text[...].trimmingSpaces() != text.trimmingCharacters(in: .whitespaces)
                {
                    differing.append(String(value, radix: 16))
                }
            }
        }
        #expect(differing.isEmpty, "U+\(differing.prefix(10))")
    }

    @Test func spacesTrimButLineBreaksStay() {
        #expect(" \t\u{A0}\u{3000}".trimmingSpaces() == "")
        #expect(" -73.98 ".trimmingSpaces() == "-73.98")
        #expect("\nChicago, IL ".trimmingSpaces() == "\nChicago, IL")
        #expect("Sigur Rós\u{2009}".trimmingSpaces() == "Sigur Rós")
        #expect("".trimmingSpaces() == "")
    }

    @Test func blankTextTrimsToEmptyAndInnerSpaceStays() {
        #expect(" \t\n\u{A0}\u{3000}".trimmingWhitespace() == "")
        #expect("\u{2028} Sigur Rós \r\n".trimmingWhitespace() == "Sigur Rós")
        #expect("Low"[...].trimmingWhitespace() == "Low")
    }
}

/// Finding text by its bytes: as Foundation's `range(of:)` finds an ASCII needle, and
/// other letters as they are written.
struct TextSearchTests {
    @Test(arguments: [
        ("Sigur Rós (CANCELLED) at Roundhouse", "(cancelled)", true, "(CANCELLED)"),
        ("Sigur Rós (Cancelled)", "(CANCELLED)", true, "(Cancelled)"),
        ("Sigur Rós (Cancelled)", "(CANCELLED)", false, nil),
        ("Ticket ab 35 € (inkl. Gebühren)", "€", false, "€"),
        ("https://MusicBrainz.org/artist/0383dadf", "musicbrainz.org/artist/", true, "MusicBrainz.org/artist/"),
        ("Øresund Ølhal", "ØLHAL", true, "Ølhal"),
        ("Øresund Ølhal", "øLHAL", true, nil),
        ("short", "longer than the text", false, nil),
        ("", "x", false, nil),
    ] as [(String, String, Bool, String?)])
    func findsNeedlesByTheirBytes(text: String, needle: String, ignoringCase: Bool, expected: String?) {
        let found = text.range(ofText: needle, ignoringASCIICase: ignoringCase)
        #expect(found.map { String(text[$0]) } == expected)
        #expect(text.containsText(needle, ignoringASCIICase: ignoringCase) == (expected != nil))
        if needle.allSatisfy(\.isASCII) {
            #expect(found == text.range(of: needle, options: ignoringCase ? [.caseInsensitive] : []))
        }
    }
}
