import Foundation
import GRDB
import Geo
import Listings

/// Recommendations: artists like the ones a fan follows or listens to, playing near her.
///
/// Similarity comes from the sources' similar-artist lists (Songkick's ranks, Last.fm's
/// match, ListenBrainz's score) and from the catalog itself: artists who shared a bill
/// (0.6) or a festival's lineup (0.3) with one she follows or listens to.
extension CatalogDatabase {
    /// An artist like one the fan follows or listens to, and why.
    struct Likeness {
        var strength: Double
        var reason: String
    }

    /// How alike a source's listed artist is: its score, else from its rank (1 for the
    /// first, 0.04 less each rank, at least 0.2).
    static func strength(rank: Int, score: Double?) -> Double {
        if let score { return min(1, max(0, score)) }
        return max(0.2, 1 - 0.04 * Double(rank - 1))
    }

    /// Artists like the seeds (artist id → what the fan does with it: "follow" or
    /// "listen to"), the strongest reason for each; the seeds themselves left out.
    static func likenesses(_ db: Database, seeds: [Int64: (name: String, verb: String)]) throws -> [Int64: Likeness] {
        guard !seeds.isEmpty else { return [:] }
        let seedList = jsonArray(seeds.keys.sorted())
        var result: [Int64: Likeness] = [:]
        // The strongest tie wins; between equals, the first reason in text order (the same
        // answer every time).
        func offer(_ candidate: Int64, _ likeness: Likeness) {
            guard seeds[candidate] == nil else { return }
            if let known = result[candidate],
                known.strength > likeness.strength || (known.strength == likeness.strength && known.reason <= likeness.reason)
            {
                return
            }
            result[candidate] = likeness
        }
        let listed = try Row.fetchAll(
            db,
            sql: """
                SELECT a.id, s.similar_artist_id, s.rank, s.score FROM json_each(?) seeds
                JOIN artist a ON a.id = seeds.value
                JOIN similar_artist s ON s.artist_source_id IN ('mbid:' || a.mbid, 'name:' || a.folded_name)
                UNION ALL
                SELECT r.entity_id, s.similar_artist_id, s.rank, s.score FROM json_each(?) seeds
                JOIN source_record r ON r.kind = 'artist' AND r.entity_id = seeds.value
                JOIN similar_artist s ON s.source = r.source AND s.artist_source_id = r.source_id
                """,
            arguments: [seedList, seedList])
        for row in listed {
            guard let seed = seeds[row[0]] else { continue }
            offer(row[1], Likeness(strength: strength(rank: row[2], score: row[3]), reason: "because you \(seed.verb) \(seed.name)"))
        }
        // Bills shared in the catalog: a festival's lineup is a weaker tie than a night's bill.
        let shared = try Row.fetchAll(
            db,
            sql: """
                SELECT l1.artist_id, l2.artist_id, e.kind, e.title, COUNT(*) FROM json_each(?) seeds
                JOIN lineup l1 ON l1.artist_id = seeds.value
                JOIN event e ON e.id = l1.event_id
                JOIN lineup l2 ON l2.event_id = l1.event_id AND l2.artist_id != l1.artist_id
                GROUP BY l1.artist_id, l2.artist_id, e.kind
                """,
            arguments: [seedList])
        for row in shared {
            guard let seed = seeds[row[0]] else { continue }
            let kind: String = row[2]
            if kind == EventKind.festival.rawValue {
                offer(row[1], Likeness(strength: 0.3, reason: "on a festival lineup with \(seed.name)"))
            } else {
                let times: Int = row[4]
                offer(row[1], Likeness(strength: times > 1 ? 0.7 : 0.6, reason: "shares a bill with \(seed.name)"))
            }
        }
        return result
    }

    /// The fan's seeds: what she follows and what she listens to (her 200 most played
    /// that the catalog knows), listening named first.
    static func seeds(_ db: Database, user: String) throws -> (seeds: [Int64: (name: String, verb: String)], followed: Set<Int64>) {
        let followed = try followedArtistIDs(db, user: user)
        var seeds: [Int64: (name: String, verb: String)] = [:]
        if !followed.isEmpty {
            for row in try Row.fetchAll(
                db, sql: "SELECT id, name FROM artist WHERE id IN (SELECT value FROM json_each(?))", arguments: [jsonArray(followed.sorted())])
            {
                seeds[row[0]] = (row[1], "follow")
            }
        }
        let listened = try listenedArtists(db, user: user).sorted { ($0.value.plays, $1.key) > ($1.value.plays, $0.key) }.prefix(200)
        for (id, entry) in listened { seeds[id] = (entry.name, "listen to") }
        return (seeds, followed)
    }

    /// Where the fan's feed looks: home and tracked cities, with her radius.
    func fanCentres(user: String) throws -> (centres: [Coordinate], radius: Double) {
        let settings = try settings(user: user)
        var centres: [Coordinate] = []
        if let lat = settings.homeLatitude, let lng = settings.homeLongitude { centres.append(Coordinate(latitude: lat, longitude: lng)) }
        for city in try tracked(user: user) where city.kind == .city {
            if let lat = city.latitude, let lng = city.longitude { centres.append(Coordinate(latitude: lat, longitude: lng)) }
        }
        return (centres, settings.radiusKilometres)
    }

    /// Venues within `radius` of any centre, each with its distance to the nearest.
    func venueDistances(near centres: [Coordinate], radiusKilometres: Double) throws -> [Int64: Double] {
        var nearest: [Int64: Double] = [:]
        for centre in centres {
            for (venue, distance) in try venueDistances(near: centre, radiusKilometres: radiusKilometres) {
                nearest[venue] = min(distance, nearest[venue] ?? .infinity)
            }
        }
        return nearest
    }

    /// 1 at the centre, ½ at the radius.
    static func nearness(_ distance: Double, radius: Double) -> Double { max(0, 1 - 0.5 * distance / max(radius, 0.001)) }
    /// 1 today, halving every 60 days.
    static func soonness(_ date: LocalDate, today: LocalDate) -> Double {
        pow(0.5, Double(max(0, date.daysSinceEpoch - today.daysSinceEpoch)) / 60)
    }

    /// Concerts near the fan (her home and tracked cities, or `center`) in the window by
    /// artists like hers and not followed or hidden, best first (score, then date, id).
    public func discover(
        user: String, center: Coordinate? = nil, radiusKilometres: Double? = nil, window: DateWindow, today: LocalDate,
        limit: Int? = nil
    ) throws -> [Recommendation] {
        let fan = try fanCentres(user: user)
        let centres = center.map { [$0] } ?? fan.centres
        guard !centres.isEmpty else { throw CatalogError.noHome(user) }
        let radius = radiusKilometres ?? fan.radius
        let distances = try venueDistances(near: centres, radiusKilometres: radius)
        return try reader.read { db in
            let (seeds, followed) = try Self.seeds(db, user: user)
            let hidden = Set(try Int64.fetchAll(db, sql: "SELECT artist_id FROM fan_hidden WHERE fan = ?", arguments: [user]))
            let likes = try Self.likenesses(db, seeds: seeds).filter { !followed.contains($0.key) && !hidden.contains($0.key) }
            guard !likes.isEmpty, !distances.isEmpty else { return [] }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT e.id, l.artist_id FROM json_each(?) venues CROSS JOIN event e ON e.venue_id = venues.value
                    JOIN lineup l ON l.event_id = e.id
                    WHERE \(Self.windowCondition) AND \(listedEvents) AND e.status != 'cancelled'
                    """,
                arguments: [Self.jsonArray(distances.keys.sorted())] + Self.windowArguments(db, window))
            var best: [Int64: Int64] = [:]
            for row in rows {
                let event: Int64 = row[0]
                let artist: Int64 = row[1]
                guard let like = likes[artist] else { continue }
                if let current = best[event], let known = likes[current], (known.strength, -current) >= (like.strength, -artist) { continue }
                best[event] = artist
            }
            let events = try Self.details(db, ids: best.keys.sorted(), listed: "1")
            var recommendations = events.compactMap { event -> Recommendation? in
                guard let artist = best[event.id], let like = likes[artist], let venue = event.venue?.id,
                    let distance = distances[venue], let act = event.lineup.first(where: { $0.artistID == artist })
                else { return nil }
                return Recommendation(
                    event: event, distanceKilometres: distance, artist: ArtistReference(id: artist, name: act.name), reason: like.reason,
                    similarity: like.strength, nearness: Self.nearness(distance, radius: radius),
                    soonness: Self.soonness(event.start.localDate, today: today))
            }
            recommendations.sort {
                ($0.score, $1.event.start.localDate, $1.event.id) > ($1.score, $0.event.start.localDate, $0.event.id)
            }
            if let limit { recommendations = Array(recommendations.prefix(limit)) }
            return recommendations
        }
    }
}
