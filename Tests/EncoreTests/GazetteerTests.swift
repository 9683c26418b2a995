import Foundation
import Geo
import Testing

struct GazetteerTests {
    let gazetteer: Gazetteer

    init() throws {
        gazetteer = try Gazetteer.bundled()
    }

    @Test func findsCitiesByNameOnAnyLineAndRefusesAFileWithANulByte() throws {
        let lines = [
            "1\tAlpha\t10.0\t20.0\tES\t01\t20000\tEurope/Madrid\t\t|alpha|",
            "2\tBeta\t11.0\t21.0\tES\t01\t30000\tEurope/Madrid\t\t|beta|alpha|",
            "3\tGamma\t12.0\t22.0\tFR\t01\t40000\tEurope/Paris\t\t|gamma|",
            "4\tDelta\t13.0\t23.0\tFR\t01\t200001\tEurope/Paris\t\t|delta|alpha|",
        ]
        let small = try Gazetteer(cities: Data(lines.joined(separator: "\n").utf8))
        // The city of that name before one more populous that has it as another name,
        // unless that one is more than ten times its size.
        #expect(small.cities(named: "alpha").map(\.name) == ["Delta", "Alpha", "Beta"])
        #expect(small.cities(named: "Gamma").map(\.name) == ["Gamma"])
        #expect(small.cities(named: "epsilon").isEmpty)
        var broken = lines
        broken[1] = broken[1].replacingOccurrences(of: "|beta|", with: "|be\u{0}ta|")
        let error = #expect(throws: GazetteerFileError.self) { try Gazetteer(cities: Data(broken.joined(separator: "\n").utf8)) }
        #expect(error?.line == 2)
    }

    @Test func holdsEveryCityOfFifteenThousandPeople() {
        #expect(gazetteer.count > 30_000)
        #expect(gazetteer.city(geonameID: 3_128_026)?.name == "Bilbao")
        #expect(gazetteer.city(geonameID: 1) == nil)
    }

    @Test(arguments: [
        ("Madrid", "Madrid", "ES"),
        ("madrid", "Madrid", "ES"),
        ("Madrid, ES", "Madrid", "ES"),
        ("Madrid, Spain", "Madrid", "ES"),
        ("Bilbo", "Bilbao", "ES"),
        ("Malaga", "Málaga", "ES"),
        ("New York", "New York City", "US"),
        ("Columbus, US", "Columbus", "US"),
        ("London, UK", "London", "GB"),
        // A city of that very name, not a bigger one once called so (Tijuana, Changchun)...
        ("Zaragoza", "Zaragoza", "ES"),
        ("Cancun", "Cancún", "MX"),
        // ...unless the bigger one is the one everybody means.
        ("Mexico", "Mexico City", "MX"),
        ("St Petersburg", "Saint Petersburg", "RU"),
        ("Calcutta", "Kolkata", "IN"),
    ])
    func resolvesNamesAsPeopleTypeThem(query: String, name: String, country: String) throws {
        let resolution = try gazetteer.resolve(query)
        #expect(resolution.chosen.name == name)
        #expect(resolution.chosen.countryCode == country)
    }

    @Test func distinguishesNamesakesByStateAndPicksTheMostPopulousOtherwise() throws {
        #expect(try gazetteer.resolve("Columbus, OH").chosen.admin1Code == "OH")
        #expect(try gazetteer.resolve("Columbus, GA").chosen.admin1Code == "GA")
        #expect(try gazetteer.resolve("Columbus, Ohio").chosen.admin1Code == "OH")
        let ambiguous = try gazetteer.resolve("Columbus")
        #expect(ambiguous.chosen.admin1Code == "OH")
        #expect(ambiguous.alternatives.contains { $0.admin1Code == "GA" })
        #expect(ambiguous.alternatives.map(\.population) == ambiguous.alternatives.map(\.population).sorted(by: >))
    }

    @Test func listsCitiesOfThatNameBeforeThoseOnceCalledSo() throws {
        // Sandusky, Ohio and Blue Island, Illinois were once called Portland.
        let portland = try gazetteer.resolve("Portland")
        #expect(portland.chosen.admin1Code == "OR")
        let others = portland.alternatives.map(\.name)
        let lastPortland = try #require(others.lastIndex(of: "Portland"))
        let sandusky = try #require(others.firstIndex(of: "Sandusky"))
        #expect(lastPortland < sandusky)
        #expect(others.contains("Blue Island"))
    }

    @Test func suggestsNearestSpellingsForUnknownNames() {
        let error = #expect(throws: PlaceResolutionError.self) { try gazetteer.resolve("Bilbaoo") }
        #expect(error?.suggestions.first == "Bilbao, ES")
        #expect(error?.description.contains("did you mean") == true)
        #expect(throws: PlaceResolutionError.self) { try gazetteer.resolve("Xyzzyqwv") }
    }

    @Test func knowsEachCitysTimeZone() throws {
        #expect(try gazetteer.resolve("Bilbao").chosen.timeZone == "Europe/Madrid")
        #expect(try gazetteer.resolve("Suva").chosen.timeZone == "Pacific/Fiji")
    }

    @Test func findsTheNearestCityAsABruteForceScanDoes() {
        var random = SeededRandom(seed: 42)
        let cities = gazetteer.allCities
        for _ in 0..<60 {
            let point = Coordinate(latitude: random.uniform(-89.9, 89.9), longitude: random.uniform(-180, 180))
            let expected = cities.min {
                (haversineDistance(from: point, to: $0.coordinate), $0.geonameID)
                    < (haversineDistance(from: point, to: $1.coordinate), $1.geonameID)
            }
            let found = gazetteer.nearestCity(to: point)
            #expect(
                haversineDistance(from: point, to: found!.coordinate) == haversineDistance(from: point, to: expected!.coordinate),
                "\(point): \(found!.name) vs \(expected!.name)")
            let bare = gazetteer.nearestCity(to: point, withAlternateNames: false)
            #expect(bare?.geonameID == found?.geonameID && bare?.alternateNames == [])
        }
    }

    @Test func findsNeighboursAcrossTheAntimeridian() {
        // Just west of 180° in Fiji: the nearest cities are in Fiji, on both sides.
        let nearTaveuni = Coordinate(latitude: -16.9, longitude: -179.99)
        #expect(gazetteer.nearestCity(to: nearTaveuni)?.countryCode == "FJ")
    }
}

/// A deterministic random source (SplitMix64), so property tests replay exactly.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) / Double(1 << 53)
    }
}
