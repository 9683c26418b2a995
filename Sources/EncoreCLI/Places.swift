import Catalog
import Foundation
import Geo
import Listings

/// Turns what a fan types ("Bilbao", "Columbus, OH", "43.26,-2.93") into a place.
struct ResolvedPlace {
    let label: String
    let coordinate: Coordinate
    let city: City?
}

enum Places {
    /// How far from a city concerts count as the city's, when choosing among namesakes:
    /// the reach of `encore city`.
    static let concertRadiusKilometres = 30.0

    /// How many namesakes are asked about, most populous first.
    static let candidateLimit = 12

    /// Resolves a place. An ambiguous name takes the first namesake with concerts in
    /// `catalog` (a fan typing "Valencia" means the one the catalog covers), else the
    /// gazetteer's first (the most populous); the choice and the others go to stderr.
    static func resolve(_ text: String, in catalog: CatalogDatabase? = nil, today: LocalDate? = nil) throws -> ResolvedPlace {
        if let coordinate = CoordinateExpression.parse(text) {
            return ResolvedPlace(label: coordinate.description, coordinate: coordinate, city: nil)
        }
        if looksLikeCoordinates(text) {
            throw UsageError(
                "\"\(text)\" is not a valid coordinate: latitude must be within -90...90 and longitude within -180...180.")
        }
        let gazetteer = try Gazetteer.bundled()
        let resolution: PlaceResolution
        do {
            resolution = try gazetteer.resolve(text)
        } catch {
            throw UsageError("\(error)")
        }
        var candidates = [resolution.chosen] + resolution.alternatives
        var why = ""
        if candidates.count > 1, let catalog, let today {
            for (index, candidate) in candidates.prefix(candidateLimit).enumerated() {
                guard try catalog.hasUpcomingEvents(
                    near: candidate.coordinate, radiusKilometres: concertRadiusKilometres, today: today)
                else { continue }
                if index > 0 {
                    candidates.insert(candidates.remove(at: index), at: 0)
                    why = ", the one with concerts in the catalog"
                }
                break
            }
        }
        let city = candidates[0]
        if candidates.count > 1 {
            let others = candidates.dropFirst().prefix(5).map { describe($0, in: gazetteer) }.joined(separator: "; ")
            Output.error("note: \"\(text)\" is ambiguous; using \(describe(city, in: gazetteer))\(why). Others: \(others)")
        }
        return ResolvedPlace(label: describe(city, in: gazetteer), coordinate: city.coordinate, city: city)
    }

    /// "Valencia, Spain", "Columbus, OH, United States": the country by name, and a US
    /// state by its code (the one part of a place's name people type as a code).
    static func describe(_ city: City, in gazetteer: Gazetteer) -> String {
        var parts = [city.name]
        if city.countryCode == "US", !city.admin1Code.isEmpty { parts.append(city.admin1Code) }
        parts.append(gazetteer.countryName(for: city.countryCode) ?? city.countryCode)
        return parts.joined(separator: ", ")
    }

    private static func looksLikeCoordinates(_ text: String) -> Bool {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return parts.count == 2 && parts.allSatisfy { Double($0) != nil }
    }
}
