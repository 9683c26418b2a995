import Foundation
import Geo
import Testing

/// Joogpoint's questions: what is on inside the map area on screen, and which venue is at
/// an address.
@Suite(.serialized)
struct MapAreaAndAddressTests {
    let scratch: CLIScratch

    init() throws {
        scratch = try CLIScratch(ingesting: "places")
    }

    func encore(_ arguments: String...) throws -> CLIRun {
        try scratch.encore(arguments)
    }

    func titles(_ run: CLIRun) throws -> [String] {
        try #require(try run.json() as? [[String: Any]], "\(run.stderr)").compactMap { $0["title"] as? String }
    }

    @Test func aMapAreaListsTheConcertsAtTheVenuesInsideIt() throws {
        // Valencia's old town: the Spanish Sala Vesta, not its Bogotá namesake.
        let valencia = try encore("near", "--bbox", "39.40,-0.45,39.55,-0.30", "--json")
        #expect(valencia.status == 0)
        #expect(try titles(valencia) == ["Marea Alta", "Luz de Gas", "Ola Fría"])
        let table = try encore("near", "--bbox", "39.40,-0.45,39.55,-0.30")
        #expect(table.stdout.hasPrefix("Inside 39.40,-0.45,39.55,-0.30 (south,west,north,east), 2026-11-22 to 2027-02-20: 3 events at 1 venue"))
        #expect(table.stdout.contains("Sala Vesta, Valencia"))
        // A hair short of the venue's latitude, it is outside, though the R*Tree's rounded
        // box reaches that far.
        #expect(try encore("near", "--bbox", "39.40,-0.45,39.4744999,-0.30", "--json").status == 1)
    }

    @Test func aMapAreaAcrossTheAntimeridianHoldsBothSides() throws {
        // West 175 to east -170 is the 15° across the date line, Suva (178.4) and Apia (-171.8).
        let across = try encore("near", "--bbox", "-20,175,-10,-170", "--json")
        #expect(try titles(across) == ["Island Static", "Trade Winds"])
        // The same numbers the other way round are the rest of the world, without them.
        let rest = try titles(try encore("near", "--bbox", "-20,-170,-10,175", "--json"))
        #expect(!rest.contains("Island Static") && !rest.contains("Trade Winds"))
        #expect(BoundingBox(minLatitude: -20, maxLatitude: -10, minLongitude: 175, maxLongitude: -170).crossesAntimeridian)
    }

    @Test func aMapAreaIsCheckedLikeEveryOtherArgument() throws {
        for box in ["1,2,3", "10,0,5,1", "0,0,91,1", "0,-181,1,1", "a,b,c,d"] {
            let run = try encore("near", "--bbox", box)
            #expect(run.status == 2, "\(box)")
            #expect(run.stderr.contains("--bbox must be SOUTH,WEST,NORTH,EAST"), "\(box): \(run.stderr)")
        }
        #expect(try encore("near", "Valencia", "--bbox", "0,0,1,1").status == 2)
        #expect(try encore("near", "--bbox", "0,0,1,1", "--radius", "5km").status == 2)
    }

    @Test func searchFindsAVenueByItsAddress() throws {
        let hits = try #require(try encore("search", "calle mayor", "--json").json() as? [[String: Any]])
        #expect(hits.count == 1)
        #expect(hits.first?["kind"] as? String == "venue")
        #expect(hits.first?["name"] as? String == "Sala Vesta")
        #expect(hits.first?["place"] as? String == "Calle Mayor 12, Valencia, ES")
        // Forgiving as name search is: no accents needed, the last word a prefix, a postal code.
        #expect(try encore("search", "carrera 7 45").stdout.contains("Sala Vesta"))
        #expect(try encore("search", "46001").stdout.contains("Calle Mayor 12"))
        // A venue matching by name and by address is listed once.
        let both = try #require(try encore("search", "sala", "--json").json() as? [[String: Any]])
        let ids = both.compactMap { $0["id"] as? Int }
        #expect(ids.count == Set(ids).count)
    }
}
