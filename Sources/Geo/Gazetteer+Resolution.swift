import Foundation

/// Resolving what people type into a place.
///
/// Accepted: a name (`Madrid`, `madrid`, `Malaga` for Málaga, `Bilbo` for Bilbao), a
/// name qualified by country or first-level division (`Madrid, ES`, `Madrid, Spain`,
/// `Columbus, OH`, `Columbus, Ohio`, `Columbus, US`). Ambiguous names choose the first
/// of ``Gazetteer/cities(named:)`` (most populous, cities of that very name first) and
/// report the others; unknown names fail with the nearest spellings.
extension Gazetteer {
    public func resolve(_ query: String) throws(PlaceResolutionError) -> PlaceResolution {
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw PlaceResolutionError(query: query, suggestions: []) }
        var name = trimmed
        var qualifier: String?
        if let comma = trimmed.lastIndex(of: ",") {
            name = String(trimmed[..<comma]).trimmingCharacters(in: .whitespaces)
            qualifier = String(trimmed[trimmed.index(after: comma)...]).trimmingCharacters(in: .whitespaces)
        }
        var matches = cities(named: name)
        if let qualifier, !qualifier.isEmpty {
            let filtered = matches.filter { matchesQualifier($0, qualifier) }
            // "St. Paul, MN" is one name with a comma when no city matches the qualifier.
            matches = filtered.isEmpty && !matches.isEmpty ? [] : filtered
            if matches.isEmpty { matches = cities(named: trimmed) }
        }
        guard let chosen = matches.first else {
            throw PlaceResolutionError(query: query, suggestions: suggestions(for: name))
        }
        return PlaceResolution(chosen: chosen, alternatives: Array(matches.dropFirst()))
    }

    private func matchesQualifier(_ city: City, _ qualifier: String) -> Bool {
        let folded = NameFolding.fold(qualifier)
        if let code = countryCodes[folded], code == city.countryCode { return true }
        if folded == city.admin1Code.lowercased() { return true }
        if let code = admin1Codes[city.countryCode]?[folded], code == city.admin1Code { return true }
        return false
    }

    /// The nearest spellings among city names, best five, most populous first on ties.
    func suggestions(for name: String, limit: Int = 5) -> [String] {
        let key = NameFolding.fold(name)
        guard !key.isEmpty else { return [] }
        let threshold = max(2, key.count / 3)
        var scored: [(distance: Int, population: Int, label: String)] = []
        for city in allCities {
            let candidate = NameFolding.fold(city.name)
            guard abs(candidate.count - key.count) <= threshold,
                candidate.first == key.first || NameFolding.editDistance(String(candidate.prefix(2)), String(key.prefix(2))) <= 1
            else { continue }
            let distance = NameFolding.editDistance(candidate, key)
            if distance <= threshold {
                scored.append((distance, city.population, "\(city.name), \(city.countryCode)"))
            }
        }
        var seen = Set<String>()
        return scored.sorted { ($0.distance, $1.population) < ($1.distance, $0.population) }
            .map(\.label).filter { seen.insert($0).inserted }.prefix(limit).map { $0 }
    }
}

/// The outcome of resolving a place name: the city chosen and any others it could mean.
public struct PlaceResolution: Sendable, Hashable {
    public let chosen: City
    /// Other cities with that name, in the order of ``Gazetteer/cities(named:)``.
    public let alternatives: [City]
}

/// A place name that matches no city.
public struct PlaceResolutionError: Error, Sendable, Hashable, CustomStringConvertible {
    public let query: String
    /// Nearest spellings ("Bilbao, ES").
    public let suggestions: [String]

    public var description: String {
        var text = "no place called \"\(query)\" is known"
        if !suggestions.isEmpty {
            text += "; did you mean " + suggestions.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
        } else {
            text += "; try a larger nearby city, or LAT,LNG"
        }
        return text
    }
}

extension Gazetteer {
    /// The ISO 3166-1 alpha-2 code for a country as sources write it ("Spain", "UK",
    /// "US", "ESP"), or nil when unknown.
    public func countryCode(for country: String) -> String? {
        countryCodes[NameFolding.fold(country)]
    }

    /// The country's name for an ISO 3166-1 alpha-2 code ("ES" → "Spain"), or nil.
    public func countryName(for code: String) -> String? {
        countryNames[code]
    }

    /// The most populous city of that name, in `country` when it names a known one; without
    /// a country, in `region` when that is a first-level division or a country code of one
    /// of them ("Portland, ME" is in Maine, "Berlin, DE" in Germany).
    public func bestCity(named name: String, country: String?, region: String? = nil) -> City? {
        let candidates = cities(named: name)
        if let country, let code = countryCode(for: country) {
            return candidates.first { $0.countryCode == code }
        }
        if let region, let inRegion = candidates.first(where: { $0.admin1Code == region || $0.countryCode == region }) {
            return inRegion
        }
        return candidates.first
    }
}
