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

    /// Artists among `candidates` (the acts of the shows in question) like the seeds
    /// (artist id → what the fan does with it: "follow" or "listen to"), the strongest
    /// reason for each; the seeds themselves left out. Only the candidates' ties are read:
    /// a hundred well-followed artists share bills with most of a big catalog.
    static func likenesses(_ db: Database, seeds: [Int64: (name: String, verb: String)], among candidates: Set<Int64>) throws
        -> [Int64: Likeness]
    {
        guard !seeds.isEmpty, !candidates.isEmpty else { return [:] }
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
        // Seeds first, joined in this order (CROSS JOIN): a seed's lists and bills are short,
        // so the acts not in question are dropped here rather than searched for in SQL.
        let listed = try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT a.id, s.similar_artist_id, s.rank, s.score FROM json_each(?) seeds
                CROSS JOIN artist a ON a.id = seeds.value
                CROSS JOIN similar_artist s ON s.artist_source_id IN ('mbid:' || a.mbid, 'name:' || a.folded_name)
                UNION ALL
                SELECT r.entity_id, s.similar_artist_id, s.rank, s.score FROM json_each(?) seeds
                CROSS JOIN source_record r ON r.kind = 'artist' AND r.entity_id = seeds.value
                CROSS JOIN similar_artist s ON s.source = r.source AND s.artist_source_id = r.source_id
                """),
            arguments: [seedList, seedList]
        ) { row in (row.int64(0), row.int64(1), row.int(2), row.optionalDouble(3)) }
        while let (seed, similar, rank, score) = try listed.next() {
            guard candidates.contains(similar), let named = seeds[seed] else { continue }
            offer(similar, Likeness(strength: strength(rank: rank, score: score), reason: "because you \(named.verb) \(named.name)"))
        }
        // Bills shared in the catalog: a festival's lineup is a weaker tie than a night's bill.
        let shared = try ColumnCursor(
            db.cachedStatement(sql: """
                SELECT l1.artist_id, l2.artist_id, e.kind = 'festival' FROM json_each(?) seeds
                CROSS JOIN lineup l1 ON l1.artist_id = seeds.value
                CROSS JOIN event e ON e.id = l1.event_id
                CROSS JOIN lineup l2 ON l2.event_id = l1.event_id AND l2.artist_id != l1.artist_id
                """),
            arguments: [seedList]
        ) { row in (row.int64(0), row.int64(1), row.bool(2)) }
        var nights: [Int64: [Int64: Int]] = [:]
        var festivals: [Int64: Set<Int64>] = [:]
        while let (seed, other, festival) = try shared.next() {
            guard candidates.contains(other) else { continue }
            if festival { festivals[other, default: []].insert(seed) } else { nights[other, default: [:]][seed, default: 0] += 1 }
        }
        for (other, bySeed) in festivals {
            for seed in bySeed { offer(other, Likeness(strength: 0.3, reason: "on a festival lineup with \(seeds[seed]!.name)")) }
        }
        for (other, bySeed) in nights {
            for (seed, times) in bySeed {
                offer(other, Likeness(strength: times > 1 ? 0.7 : 0.6, reason: "shares a bill with \(seeds[seed]!.name)"))
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
            guard !distances.isEmpty else { return [] }
            let rows = try ColumnCursor(
                db.cachedStatement(sql: """
                    SELECT e.id, e.venue_id, e.local_date, l.artist_id FROM json_each(?) venues
                    CROSS JOIN event e ON e.venue_id = venues.value
                    JOIN lineup l ON l.event_id = e.id
                    WHERE \(Self.windowCondition) AND \(listedEvents) AND e.status != 'cancelled'
                    """),
                arguments: [Self.jsonArray(distances.keys.sorted())] + Self.windowArguments(db, window)
            ) { row in (event: row.int64(0), venue: row.int64(1), date: row.localDate(2), artist: row.int64(3)) }.all()
            let acts = Set(rows.map(\.artist)).subtracting(followed).subtracting(hidden)
            let likes = try Self.likenesses(db, seeds: seeds, among: acts)
            // Each show once, for its most alike act; scored before any show is loaded, so
            // only the shows shown are read whole.
            struct Candidate {
                var event: Int64
                var date: LocalDate
                var distance: Double
                var artist: Int64
                var like: Likeness
                var score: Double
            }
            var best: [Int64: Candidate] = [:]
            for row in rows {
                guard let like = likes[row.artist], let distance = distances[row.venue], let date = row.date else { continue }
                if let current = best[row.event], (current.like.strength, -current.artist) >= (like.strength, -row.artist) { continue }
                let score = like.strength * Self.nearness(distance, radius: radius) * Self.soonness(date, today: today)
                best[row.event] = Candidate(event: row.event, date: date, distance: distance, artist: row.artist, like: like, score: score)
            }
            var ranked = best.values.sorted {
                (Recommendation.rounded($0.score), $1.date, $1.event) > (Recommendation.rounded($1.score), $0.date, $0.event)
            }
            if let limit { ranked = Array(ranked.prefix(limit)) }
            let events = Dictionary(uniqueKeysWithValues: try Self.details(db, ids: ranked.map(\.event), listed: "1").map { ($0.id, $0) })
            let recommendations = ranked.compactMap { candidate -> Recommendation? in
                guard let event = events[candidate.event], let act = event.lineup.first(where: { $0.artistID == candidate.artist })
                else { return nil }
                return Recommendation(
                    event: event, distanceKilometres: candidate.distance, artist: ArtistReference(id: candidate.artist, name: act.name),
                    reason: candidate.like.reason, similarity: candidate.like.strength,
                    nearness: Self.nearness(candidate.distance, radius: radius), soonness: Self.soonness(candidate.date, today: today))
            }
            return recommendations
        }
    }
}
