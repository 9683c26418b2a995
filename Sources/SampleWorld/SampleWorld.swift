import Foundation

/// A deterministic, realistic world of concerts: real cities, invented venues and artists,
/// and any number of events, generated from a seed.
///
/// The pools (cities, venues, artists) are built up front — about one venue per 20 events
/// and one artist per 8 — but events never are: ``events(inMetroAreaAt:)`` produces a
/// metro area's calendar lazily, in Songkick's calendar order, so a million events can be
/// written page by page in constant memory. Writers for each source format read the same
/// world, so the same concert can later appear in several formats with the same facts.
public struct SampleWorld: Sendable {
    public let configuration: Configuration
    public let metroAreas: [SampleMetroArea]
    /// In ``CityCatalog`` order, so catalogue entries and cities share indices.
    public let cities: [SampleCity]
    public let venues: [SampleVenue]
    /// Most popular first.
    public let artists: [SampleArtist]
    let plans: [MetroAreaPlan]

    public init(configuration: Configuration) {
        self.configuration = configuration
        let (cities, metroAreas) = Self.places()
        self.cities = cities
        self.metroAreas = metroAreas
        let weights = metroAreas.map { metro in metro.cityIndices.reduce(0) { $0 + cities[$1].weight } }
        let counts = Self.apportion(configuration.eventCount, weights: weights)
        var venues: [SampleVenue] = []
        var plans: [MetroAreaPlan] = []
        var websites: Set<String> = []
        for (metroIndex, metro) in metroAreas.enumerated() {
            let first = venues.count
            venues += VenueFactory.make(
                count: (counts[metroIndex] + 10) / 20, firstIndex: first, metroIndex: metroIndex,
                metro: metro, cities: cities, seed: configuration.seed)
            for index in first..<venues.count {
                venues[index].website = VenueFactory.uniqueWebsite(venues[index], in: cities, taken: &websites)
            }
            plans.append(MetroAreaPlan(
                metroIndex: metroIndex, metroCount: metroAreas.count, eventCount: counts[metroIndex],
                venueRange: first..<venues.count, venues: venues, city: cities[metro.cityIndices[0]],
                seed: configuration.seed))
        }
        self.venues = venues
        self.plans = plans
        // Festivals need up to 40 distinct acts, so even a tiny world gets a few hundred.
        let artistCount = max(400, configuration.eventCount / 8)
        artists = (0..<artistCount).map {
            ArtistFactory.make(index: $0, poolSize: artistCount, seed: configuration.seed)
        }
    }

    /// How many events ``events(inMetroAreaAt:)`` will produce (a calendar's `totalEntries`).
    public func eventCount(inMetroAreaAt index: Int) -> Int {
        plans[index].eventCount
    }

    /// The metro area's events by start date (then id), generated on demand.
    public func events(inMetroAreaAt index: Int) -> MetroAreaEvents {
        MetroAreaEvents(world: self, metroAreaIndex: index)
    }

    /// Writes the world as recorded Songkick API v3 JSON responses under `directory`.
    public func writeSongkickJSON(to directory: URL) throws -> WriteSummary {
        try SongkickJSONWriter(world: self).write(to: directory)
    }

    private static func places() -> ([SampleCity], [SampleMetroArea]) {
        var metroIndexByID: [Int: Int] = [:]
        var metroCities: [[Int]] = []
        for (cityIndex, entry) in CityCatalog.entries.enumerated() {
            if let metroIndex = metroIndexByID[entry.metroID] {
                metroCities[metroIndex].append(cityIndex)
            } else {
                metroIndexByID[entry.metroID] = metroCities.count
                metroCities.append([cityIndex])
            }
        }
        let cities = CityCatalog.entries.map { entry in
            guard let timeZone = TimeZone(identifier: entry.timeZone) else {
                preconditionFailure("unknown time zone \(entry.timeZone)")
            }
            return SampleCity(
                id: entry.cityID ?? entry.metroID, displayName: entry.name, countryName: entry.country,
                stateName: entry.state, centre: SampleCoordinate(latitude: entry.latitude, longitude: entry.longitude),
                timeZone: timeZone, metroAreaIndex: metroIndexByID[entry.metroID]!, style: entry.style,
                weight: entry.weight)
        }
        let metroAreas = metroCities.map { cityIndices in
            let main = CityCatalog.entries[cityIndices[0]]
            return SampleMetroArea(
                id: main.metroID, displayName: main.metroName ?? main.name, countryName: main.country,
                stateName: main.state, centre: cities[cityIndices[0]].centre, cityIndices: cityIndices)
        }
        return (cities, metroAreas)
    }

    /// Shares `total` among `weights` by largest remainder, giving every metro at least one
    /// event when there are enough to go round (so small cities like Suva always appear).
    private static func apportion(_ total: Int, weights: [Double]) -> [Int] {
        let floor = total >= weights.count ? 1 : 0
        let spare = total - floor * weights.count
        let sum = weights.reduce(0, +)
        let quotas = weights.map { Double(spare) * $0 / sum }
        var counts = quotas.map { floor + Int($0) }
        let order = quotas.indices.sorted { lhs, rhs in
            let l = quotas[lhs] - quotas[lhs].rounded(.down)
            let r = quotas[rhs] - quotas[rhs].rounded(.down)
            return l != r ? l > r : lhs < rhs
        }
        for index in order.prefix(total - counts.reduce(0, +)) {
            counts[index] += 1
        }
        return counts
    }
}
