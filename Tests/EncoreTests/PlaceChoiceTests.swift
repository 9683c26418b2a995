import Foundation
import Testing

/// A place name with namesakes means the one the catalog has concerts near.
@Suite(.serialized)
struct PlaceChoiceTests {
    let scratch: CLIScratch

    init() throws {
        scratch = try CLIScratch(ingesting: "places")
    }

    func encore(_ arguments: String...) throws -> CLIRun {
        try scratch.encore(arguments)
    }

    @Test func anAmbiguousNamePrefersTheNamesakeWithConcertsAndNamesTheOthersCountries() throws {
        let city = try encore("city", "Valencia", "--to", "+365d")
        #expect(city.status == 0, "\(city.stderr)")
        #expect(city.stdout.hasPrefix("Valencia, Spain, 2026-11-22 to 2027-11-22: 3 events"), "\(city.stdout)")
        #expect(city.stderr.contains("using Valencia, Spain, the one with concerts in the catalog. Others: Valencia, Venezuela"))
        #expect(!city.stderr.contains(", VE"))
        let near = try encore("near", "Valencia", "--to", "+365d", "--json")
        let titles = try #require(try near.json() as? [[String: Any]]).compactMap { $0["title"] as? String }
        #expect(titles == ["Marea Alta", "Luz de Gas", "Ola Fría"])
        // Without concerts to go by, the gazetteer's order stands: the most populous.
        let empty = try scratch.encore(["metros", "--near", "London"])
        #expect(empty.stderr.contains("using London, United Kingdom. Others: London, Canada"), "\(empty.stderr)")
    }

    @Test func aVenueNamedInTwoCitiesIsTheOneInThePlaceMeant() throws {
        let page = try #require(try encore("venue", "Sala Vesta", "--in", "Valencia", "--json").json() as? [String: Any])
        #expect((page["venue"] as? [String: Any])?["city"] as? String == "Valencia")
        let bogota = try #require(try encore("venue", "Sala Vesta", "--in", "Bogota", "--json").json() as? [String: Any])
        #expect((bogota["venue"] as? [String: Any])?["city"] as? String == "Bogotá")
    }

    @Test func cityOpensAMetroAreaByTheIDSearchPrints() throws {
        let hits = try #require(try encore("search", "valencia", "--json").json() as? [[String: Any]])
        let metro = try #require(hits.first { $0["kind"] as? String == "metro_area" })
        let id = try #require(metro["id"] as? Int)
        let byID = try encore("city", "#\(id)", "--to", "+365d", "--json")
        let byName = try encore("city", "Valencia, ES", "--to", "+365d", "--json")
        #expect(byID.status == 0, "\(byID.stderr)")
        #expect(byID.stdout == byName.stdout)
        #expect(try encore("city", "#\(id)", "--to", "+365d").stdout.hasPrefix("\(metro["name"] as? String ?? "?"), "))
        let missing = try encore("city", "#99999")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no metro area #99999 in the catalog"))
    }
}
