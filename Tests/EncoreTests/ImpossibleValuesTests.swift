import Catalog
import Foundation
import GRDB
@testable import Ingest
import Listings
import Testing

/// Values no calendar holds are not stored as they came.
struct ImpossibleValuesTests {
    static let impossible = ["2027-02-30", "2026-00-10", "0000-00-00", "Sat, 30 Feb 2027 20:00:00", "2027-02-14T25:00:00", "tomorrow"]

    @Test func onSaleDatesAreValidated() {
        let values = ListingValues(locator: "p")
        var warnings: [ListingWarning] = []
        for good in ["2027-02-14", "2027-02-14T10:00:00", "2027-02-14T10:00:00Z", "2027-02-14T10:00:00.250-05:00",
            "2027-02-14 10:00", "2027-02-14T10:00:00+0530"]
        {
            #expect(values.onSale(good, at: "x", warnings: &warnings) == good, "\(good)")
        }
        #expect(values.onSale("  ", at: "x", warnings: &warnings) == nil)
        #expect(warnings.isEmpty)
        for bad in Self.impossible {
            #expect(values.onSale(bad, at: "x", warnings: &warnings) == nil, "\(bad)")
        }
        #expect(warnings.count == Self.impossible.count)
    }

    /// One warning an impossible date, naming the file, the position and the value.
    static func expectOnSaleWarnings(_ page: ListingPage, at position: (Int) -> String) {
        #expect(page.warnings.count == impossible.count)
        for (index, value) in impossible.enumerated() {
            let warning = page.warnings.first { $0.position == position(index) }
            #expect(warning?.locator == "p", "no warning at \(position(index)): \(page.warnings)")
            #expect(warning?.message.contains("\"\(value)\"") == true && warning?.message.contains("offer kept") == true)
        }
        #expect(page.skipped.isEmpty, "warned about, not counted as skipped")
    }

    /// Bandsintown `on_sale_datetime`: the date is dropped with a warning, the offer stays.
    @Test func bandsintownDropsAnImpossibleOnSaleDateAndKeepsTheOffer() throws {
        let events = Self.impossible.enumerated().map { index, onSale in
            """
            {"id": "\(900 + index)", "datetime": "2027-03-12T20:00:00", "on_sale_datetime": "\(onSale)",
             "venue": {"name": "The Lantern Rooms", "city": "Boston", "country": "United States"},
             "lineup": ["Night Ferry"],
             "offers": [{"type": "Tickets", "url": "https://example.com/t/\(index)", "status": "available"}]}
            """
        }
        let page = try BandsintownIngester().parse(Data("[\(events.joined(separator: ","))]".utf8), context: PageContext(locator: "p"))
        #expect(page.events.count == Self.impossible.count)
        for event in page.events {
            #expect(event.offers.count == 1)
            #expect(event.offers.first?.url != nil && event.offers.first?.onSale == nil)
        }
        Self.expectOnSaleWarnings(page) { "[\($0)].on_sale_datetime" }
    }

    /// Ticketmaster `sales.public.startDateTime`: the same.
    @Test func ticketmasterDropsAnImpossibleOnSaleDateAndKeepsTheOffer() throws {
        let events = Self.impossible.enumerated().map { index, onSale in
            """
            {"name": "Night Ferry", "type": "event", "id": "tm\(index)", "url": "https://example.com/e/\(index)",
             "dates": {"start": {"localDate": "2027-03-12", "localTime": "20:00:00"}, "status": {"code": "onsale"}},
             "classifications": [{"primary": true, "segment": {"name": "Music"}}],
             "priceRanges": [{"type": "standard", "currency": "usd", "min": 25.0, "max": 45.5}],
             "sales": {"public": {"startDateTime": "\(onSale)"}}}
            """
        }
        let body = #"{"_embedded": {"events": ["# + events.joined(separator: ",") + "]}}"
        let page = try TicketmasterIngester().parse(Data(body.utf8), context: PageContext(locator: "p"))
        #expect(page.events.count == Self.impossible.count)
        for event in page.events {
            #expect(event.offers.count == 1)
            #expect(event.offers.first?.priceMin == 25 && event.offers.first?.onSale == nil)
        }
        Self.expectOnSaleWarnings(page) { "_embedded.events[\($0)].sales.public.startDateTime" }
    }

    /// JSON-LD's `validFrom` (an offer's on-sale date): the same, where it failed the page.
    @Test func jsonLDDropsAnImpossibleOnSaleDateAndKeepsTheOffer() throws {
        let events = Self.impossible.enumerated().map { index, onSale in
            """
            {"@type": "MusicEvent", "name": "Night Ferry \(index)", "startDate": "2027-03-12T20:00:00",
             "location": {"@type": "Place", "name": "The Lantern Rooms", "address": "Boston"},
             "offers": {"@type": "Offer", "url": "https://example.com/t/\(index)", "validFrom": "\(onSale)"}}
            """
        }
        let body = #"{"@context": "https://schema.org", "@graph": ["# + events.joined(separator: ",") + "]}"
        let page = try JSONLDIngester().parse(Data(body.utf8), context: PageContext(locator: "p"))
        #expect(page.events.count == Self.impossible.count)
        for event in page.events {
            #expect(event.offers.count == 1)
            #expect(event.offers.first?.url != nil && event.offers.first?.onSale == nil)
        }
        Self.expectOnSaleWarnings(page) { "@graph[\($0)].offers.validFrom" }
    }

    /// A page that changes nothing (rejected, or already applied) does not move the
    /// catalog's revision: the next incremental build would look for changes in vain.
    @Test func aPageThatChangesNothingDoesNotMoveTheRevision() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        let good = TestSupport.fixture("songkick-json/metro-24426-calendar.json")
        #expect(TestSupport.ingest([good], into: catalog).pagesApplied == 1)
        let revision = try catalog.catalogRevision()
        let bad = TestSupport.fixture("bad/songkick-json/february-30.json")
        #expect(TestSupport.ingest([bad], into: catalog).pagesFailed == 1)
        #expect(try catalog.catalogRevision() == revision)
        #expect(TestSupport.ingest([good], into: catalog).pagesUnchanged == 1)
        #expect(try catalog.catalogRevision() == revision)
        // A page that changes something still moves it.
        let changed = try TestSupport.temporaryDirectory().appendingPathComponent("changed.json")
        let text = try String(contentsOfFile: good, encoding: .utf8).replacingOccurrences(of: "19:30:00", with: "20:15:00")
        try Data(text.utf8).write(to: changed)
        #expect(TestSupport.ingest([changed.path], into: catalog).pagesApplied == 1)
        #expect(try catalog.catalogRevision() == revision + 1)
    }

    /// Control characters leave names the same way in every format: removed (line breaks
    /// and tabs become spaces), and a name of nothing else refuses the page as "" does.
    @Test(arguments: ["songkick-json/metro-24426-calendar.json", "bandsintown/artist-events-night-ferry.json",
        "ticketmaster/events-search-boston.json"])
    func controlCharactersAreRemovedFromNames(fixture: String) throws {
        let original = try String(contentsOfFile: TestSupport.fixture(fixture), encoding: .utf8)
        #expect(original.contains("Night Ferry") || original.contains("Velvet Harbour"))
        let name = original.contains("Night Ferry") ? "Night Ferry" : "Velvet Harbour"
        let spaced = name.replacingOccurrences(of: " ", with: "\\u0000 \\t")
        let directory = try TestSupport.temporaryDirectory()
        let dirty = directory.appendingPathComponent("dirty.json")
        try Data(original.replacingOccurrences(of: "\"\(name)\"", with: "\"\\u0007\(spaced)\\u0000\"").utf8).write(to: dirty)
        let (catalog, path) = try TestSupport.makeCatalog()
        let summary = TestSupport.ingest([dirty.path], into: catalog)
        #expect(summary.pagesApplied == 1, "\(summary.failures)")
        let names = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT name FROM artist") }
        #expect(names.contains(name.replacingOccurrences(of: " ", with: "  ")), "\(names.map { Array($0.unicodeScalars) })")
        #expect(!names.contains { NameControlCharacters.hasControl($0) })

        let only = directory.appendingPathComponent("only.json")
        try Data(original.replacingOccurrences(of: "\"\(name)\"", with: "\"\\u0000\\u0001\"").utf8).write(to: only)
        let refused = TestSupport.ingest([only.path], into: try TestSupport.makeCatalog().0)
        #expect(refused.pagesFailed == 1)
        #expect(refused.failures.first?.description.contains("control characters") == true, "\(refused.failures)")
    }

    /// One rule for bytes that are not UTF-8, in every format: each invalid sequence
    /// becomes U+FFFD, the page is applied, and its summary says how many were replaced
    /// (the JSON readers replaced them silently, the XML readers refused the page).
    @Test(arguments: [
        "songkick-json/metro-24426-calendar.json", "songkick-xml/metro-24426-calendar.xml",
        "lastfm-json/geo-getevents-millbrook.json", "lastfm-xml/geo-getevents-millbrook.xml",
        "bandsintown/artist-events-night-ferry.json", "ticketmaster/events-search-boston.json",
        "jsonld/events-graph-signal-box.jsonld", "jsonld/venue-page-lantern-rooms.html",
    ])
    func invalidUTF8IsReplacedAndCountedInEveryFormat(fixture: String) throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture(fixture)))
        let text = String(decoding: original, as: UTF8.self)
        let name = text.contains("Night Ferry") ? "Night Ferry" : "Velvet Harbour"
        #expect(text.contains(name))
        // "Night\xFFFerry": a byte no UTF-8 text holds, in every place the name is.
        var bytes = Data()
        var rest = original[...]
        let needle = Data(name.utf8)
        while let found = rest.range(of: needle) {
            bytes += rest[..<found.lowerBound]
            bytes += Data(name.utf8.prefix(while: { $0 != UInt8(ascii: " ") })) + Data([0xFF])
                + Data(name.utf8.drop(while: { $0 != UInt8(ascii: " ") }).dropFirst())
            rest = rest[found.upperBound...]
        }
        bytes += rest
        let file = try TestSupport.temporaryDirectory().appendingPathComponent(URL(fileURLWithPath: fixture).lastPathComponent)
        try bytes.write(to: file)
        let (catalog, path) = try TestSupport.makeCatalog()
        let summary = TestSupport.ingest([file.path], into: catalog)
        #expect(summary.pagesApplied == 1, "\(summary.failures)")
        #expect((summary.skipped[UTF8Repair.reason] ?? 0) > 0)
        let replaced = name.replacingOccurrences(of: " ", with: "\u{FFFD}")
        let names = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT name FROM artist") }
        #expect(names.contains(replaced), "\(names)")
    }

    @Test func validUTF8IsLeftAlone() {
        let text = "Søren Lys · Алёна · ソラ · 🎸"
        #expect(UTF8Repair.repaired(Data(text.utf8)) == nil)
        #expect(UTF8Repair.repaired(Data([0x61, 0xC3])) != nil)
        #expect(UTF8Repair.repaired(Data([0xED, 0xA0, 0x80])) != nil, "a surrogate")
        #expect(UTF8Repair.repaired(Data([0xF4, 0x90, 0x80, 0x80])) != nil, "past U+10FFFF")
        #expect(UTF8Repair.repaired(Data([0xC0, 0xAF])) != nil, "overlong")
    }
}
