import Foundation

/// Builds the venues of one metro area.
///
/// Every metro gets at least a club, a theatre, a park (for festivals) and a bar, so any
/// kind of event can happen anywhere; larger metros get about one venue per 20 events.
/// Hand-written venues from the catalogue come first. Generated venues sit within 15 km
/// of their city's centre, and a few have no coordinates, as in real listings.
enum VenueFactory {
    private static let basicKinds: [SampleVenue.Kind] = [.club, .theatre, .park, .bar, .arena]
    private static let extraKinds: [SampleVenue.Kind] = [.bar, .club, .theatre, .arena, .park]
    private static let extraKindWeights = [25.0, 42, 20, 5, 8]
    private static let secondRooms = ["Upstairs", "Studio", "Annex", "Backroom", "Lounge", "Garden", "Loft", "Basement"]
    private static let topLevelDomains = [
        "UK": "co.uk", "Spain": "es", "France": "fr", "Germany": "de", "Netherlands": "nl", "Belgium": "be",
        "Portugal": "pt", "Italy": "it", "Austria": "at", "Switzerland": "ch", "Czech Republic": "cz",
        "Poland": "pl", "Sweden": "se", "Denmark": "dk", "Norway": "no", "Iceland": "is", "Japan": "jp",
        "Australia": "com.au", "Canada": "ca", "Mexico": "mx", "Brazil": "com.br",
    ]

    /// Venues for `metroIndex`, with global indices starting at `firstIndex`.
    static func make(
        count: Int, firstIndex: Int, metroIndex: Int, metro: SampleMetroArea,
        cities: [SampleCity], seed: UInt64
    ) -> [SampleVenue] {
        let signatures = metro.cityIndices.flatMap { cityIndex in
            CityCatalog.entries[cityIndex].venues.map { (cityIndex: cityIndex, name: $0.name, kind: $0.kind) }
        }
        let missingBasics = basicKinds.filter { kind in !signatures.contains { $0.kind == kind } }
        let cityWeights = metro.cityIndices.map { cities[$0].weight }
        // One name per room in a metro area: two "Kellerkeller" in Berlin would be one
        // venue to every source that knows venues by name and city (Bandsintown does).
        var names = Set(signatures.map { nameKey($0.name) })
        return (0..<max(count, signatures.count + 4)).map { slot in
            let index = firstIndex + slot
            var rng = SplitMix64(seed: seed, stream: .venue, index: index)
            let id = 1_000 + index * 37 + rng.int(below: 37)
            let cityIndex: Int
            let kind: SampleVenue.Kind
            let name: String
            var located = true
            if slot < signatures.count {
                (cityIndex, name, kind) = signatures[slot]
            } else {
                let generated = slot - signatures.count
                kind = generated < missingBasics.count
                    ? missingBasics[generated] : extraKinds[rng.weightedIndex(extraKindWeights)]
                cityIndex = metro.cityIndices[rng.weightedIndex(cityWeights)]
                let city = cities[cityIndex]
                var drawn = NameBank.fill(rng.element(of: city.style.venueTemplates(kind)), style: city.style, city: city.displayName, rng: &rng)
                for _ in 0..<20 where names.contains(nameKey(drawn)) {
                    drawn = NameBank.fill(rng.element(of: city.style.venueTemplates(kind)), style: city.style, city: city.displayName, rng: &rng)
                }
                // A big metro area runs out of names: the second room of a name is its
                // upstairs or its studio, as real ones are.
                let base = drawn
                for suffix in Self.secondRooms + (2...99).map(String.init) where names.contains(nameKey(drawn)) {
                    drawn = base + " " + suffix
                }
                names.insert(nameKey(drawn))
                name = drawn
                located = !rng.chance(0.04)
            }
            let city = cities[cityIndex]
            let street = rng.chance(0.85)
                ? NameBank.fill(city.style.streetTemplate, style: city.style, city: city.displayName, rng: &rng) : nil
            let website = rng.chance(0.7) ? Self.website(name, city: city) : nil
            return SampleVenue(
                id: id, displayName: name, kind: kind, cityIndex: cityIndex, metroAreaIndex: metroIndex,
                coordinate: located ? position(near: city.centre, rng: &rng) : nil,
                capacity: capacity(kind, rng: &rng), street: street, website: website)
        }
    }

    private static func website(_ name: String, city: SampleCity, qualified: Bool = false) -> String {
        let host = Slug.make(qualified ? name + " " + city.displayName : name).replacingOccurrences(of: "-", with: "")
        return "http://www.\(host).\(topLevelDomains[city.countryName] ?? "com")/"
    }

    /// The venue's website, with its city's name added when a venue of the same name in
    /// another city has the plain one ("Vantage Center" in New York and in Suva), or its
    /// id when even that is taken.
    static func uniqueWebsite(_ venue: SampleVenue, in cities: [SampleCity], taken: inout Set<String>) -> String? {
        guard let plain = venue.website else { return nil }
        let city = cities[venue.cityIndex]
        let qualified = website(venue.displayName, city: city, qualified: true)
        let numbered = qualified.dropLast() + "/\(venue.id)/"
        for candidate in [plain, qualified, String(numbered)] where taken.insert(candidate).inserted { return candidate }
        return nil
    }

    /// A name as a reader that ignores case, accents, punctuation and a leading "The" sees it.
    private static func nameKey(_ name: String) -> String {
        var folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        if folded.hasPrefix("the ") { folded.removeFirst(4) }
        return String(folded.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// A point within 15 km of `centre`, denser towards the middle as music venues are.
    private static func position(near centre: SampleCoordinate, rng: inout SplitMix64) -> SampleCoordinate {
        var dx: Double
        var dy: Double
        repeat {
            dx = rng.unit() * 2 - 1
            dy = rng.unit() * 2 - 1
        } while dx * dx + dy * dy > 1
        let kilometres = 15 * rng.unit()
        let kilometresPerDegree = 111.32
        let latitude = centre.latitude + dy * kilometres / kilometresPerDegree
        var longitude = centre.longitude
            + dx * kilometres / (kilometresPerDegree * cos(centre.latitude * .pi / 180))
        if longitude >= 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return SampleCoordinate(latitude: latitude, longitude: longitude)
    }

    private static func capacity(_ kind: SampleVenue.Kind, rng: inout SplitMix64) -> Int {
        switch kind {
        case .bar: rng.int(in: 6...25) * 10
        case .club: rng.int(in: 4...24) * 50
        case .theatre: rng.int(in: 8...35) * 100
        case .arena: rng.int(in: 10...40) * 500
        case .park: rng.int(in: 10...60) * 1_000
        }
    }
}
