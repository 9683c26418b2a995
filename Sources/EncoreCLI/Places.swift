import Foundation
import Geo

/// Turns what a fan types ("Bilbao", "Columbus, OH", "43.26,-2.93") into a place.
struct ResolvedPlace {
    let label: String
    let coordinate: Coordinate
    let city: City?
}

enum Places {
    static func resolve(_ text: String) throws -> ResolvedPlace {
        if let coordinate = CoordinateExpression.parse(text) {
            return ResolvedPlace(label: coordinate.description, coordinate: coordinate, city: nil)
        }
        if looksLikeCoordinates(text) {
            throw UsageError(
                "\"\(text)\" is not a valid coordinate: latitude must be within -90...90 and longitude within -180...180.")
        }
        let gazetteer = try Gazetteer.bundled()
        do {
            let resolution = try gazetteer.resolve(text)
            let city = resolution.chosen
            if !resolution.alternatives.isEmpty {
                let others = resolution.alternatives.prefix(5).map(describe).joined(separator: "; ")
                Output.error("note: \"\(text)\" is ambiguous; using \(describe(city)). Others: \(others)")
            }
            return ResolvedPlace(label: describe(city), coordinate: city.coordinate, city: city)
        } catch {
            throw UsageError("\(error)")
        }
    }

    static func describe(_ city: City) -> String {
        var parts = [city.name]
        if !city.admin1Code.isEmpty, city.countryCode == "US" || city.countryCode == "CA" || city.countryCode == "AU" {
            parts.append(city.admin1Code)
        }
        parts.append(city.countryCode)
        return parts.joined(separator: ", ")
    }

    private static func looksLikeCoordinates(_ text: String) -> Bool {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return parts.count == 2 && parts.allSatisfy { Double($0) != nil }
    }
}
