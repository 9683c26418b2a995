import GRDB
import Geo
import Listings

extension PageApplier {
    /// How far from a city's centre its venues are looked for when one side's position is
    /// only the city's: a metropolis's venues lie within about this of its centre.
    static let sameCityKilometres = 25.0

    /// A venue in the same city whose name agrees, when one side's position is only its
    /// city's (a source that gives none, or its city's centre): "Teatro Faro" and "Faro",
    /// "Rider Works (Barcelona)" and "Rider Works", the venue of a source writing
    /// "Cologne" and one writing "Köln" (one gazetteer city). Only pairs that the position
    /// cannot tell apart are compared: this venue, approximate, with any venue near its
    /// city; this venue, exactly placed, with venues placed at their city only.
    func sameCityCandidate(for venue: VenueListing) throws -> (id: Int64, reason: String)? {
        guard !othersAbsent, let coordinate = venue.coordinate, venue.city != nil || venue.place != nil else {
            return nil
        }
        let box = BoundingBox(around: coordinate, radiusKilometres: Self.sameCityKilometres)
        let key = MatchKey.of(venue.name)
        var best: (sameKey: Bool, id: Int64, name: String)?
        for rows in try venues(in: box, approximateOnly: !venue.coordinateIsApproximate) {
            for row in rows {
                let sameKey = MatchKey.of(row.name) == key
                let sameCore = sameKey || Self.sameCore(row.name, venue)
                guard sameCore || MatchKey.venueNamesAgree(row.name, venue.name),
                    Self.sameCity(venue, row.city, row.geonameID),
                    try sameCore || !hasRecordFromThisSource(.venue, entityID: row.id)
                else { continue }
                // The same key first, then the oldest: whichever order records arrive in.
                if best == nil || (sameKey && !best!.sameKey) || (sameKey == best!.sameKey && row.id < best!.id) {
                    best = (sameKey, row.id, row.name)
                }
            }
        }
        guard let best else { return nil }
        let city = venue.place?.name ?? venue.city ?? ""
        return (best.id, "names agree (\"\(best.name)\" / \"\(venue.name)\") in the same city (\(city)), no exact coordinates")
    }

    /// Whether a stored venue's name and a record's are spellings of one core, or one
    /// behind a sponsor's name (``VenueNameCore``): then even a venue this source already
    /// names may take it.
    static func sameCore(_ stored: String, _ venue: VenueListing) -> Bool {
        let cities = [venue.city, venue.place?.name].compactMap { $0 }
        return VenueNameCore.agree(stored, venue.name, cities: cities)
    }

    /// One gazetteer city, or names of one city in any language (``CityNames``).
    private static func sameCity(_ venue: VenueListing, _ city: String?, _ geonameID: Int64?) -> Bool {
        if let geonameID, let own = venue.place?.geonameID, Int64(own) == geonameID { return true }
        guard let city else { return false }
        return [venue.city, venue.place?.name].contains { $0.map { CityNames.nameOneCity(city, $0) } ?? false }
    }
}
