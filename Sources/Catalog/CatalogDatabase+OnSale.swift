import Foundation
import GRDB
import Geo
import Listings

/// Tickets going on sale, and the ranked home feed.
extension CatalogDatabase {
    /// Offers whose on-sale or presale time falls from `now` to `days` days after it, for
    /// upcoming concerts of artists and venues the fan follows and at venues within her
    /// radius of a city she tracks; soonest first (then event, source). Past times, times
    /// after the show starts and impossible dates are left out.
    public func onSales(user: String, now: UTCInstant, days: Int, today: LocalDate) throws -> [OnSaleEntry] {
        let until = UTCInstant(secondsSinceEpoch: now.secondsSinceEpoch + Int64(days) * 86_400)
        let settings = try settings(user: user)
        let tracked = try tracked(user: user)
        let cities = tracked.filter { $0.kind == .city }
        var near: [Int64: String] = [:]
        for city in cities {
            guard let lat = city.latitude, let lng = city.longitude else { continue }
            for venue in try venueDistances(near: Coordinate(latitude: lat, longitude: lng), radiusKilometres: settings.radiusKilometres).keys
            where near[venue] == nil {
                near[venue] = city.name
            }
        }
        let venues = Dictionary(tracked.filter { $0.kind == .venue }.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        return try reader.read { db in
            let followed = try Self.followedArtistIDs(db, user: user)
            // The text sorts by date whatever its form: a day's margin either side for zones.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT o.event_id, o.position, o.source, o.url, o.status, o.on_sale FROM offer o
                    JOIN event e ON e.id = o.event_id
                    WHERE o.on_sale >= ? AND o.on_sale < ? AND e.local_date >= ? AND \(listedEvents) AND e.status != 'cancelled'
                    ORDER BY o.event_id, o.position
                    """,
                arguments: [now.date.adding(days: -1).description, until.date.adding(days: 2).description, today.description])
            let events = Dictionary(
                uniqueKeysWithValues: try Self.details(db, ids: Array(Set(rows.map { $0[0] as Int64 })).sorted(), listed: "1").map { ($0.id, $0) })
            var entries: [OnSaleEntry] = []
            var seen: Set<String> = []
            for row in rows {
                guard let event = events[row[0] as Int64], let text = row[5] as String? else { continue }
                let zone = event.venue?.timeZone ?? event.start.timeZone
                guard let instant = OnSaleTime.instant(text, venueZone: zone), instant >= now, instant <= until else { continue }
                if let start = event.start.utc, instant > start { continue }
                let reason: String
                if let act = event.lineup.first(where: { followed.contains($0.artistID) }) {
                    reason = "you follow \(act.name)"
                } else if let venue = event.venue?.id, let name = venues[venue] {
                    reason = "you follow \(name)"
                } else if let venue = event.venue?.id, let city = near[venue] {
                    reason = "near \(city)"
                } else {
                    continue
                }
                let url: String? = row[3]
                // Two sources announcing the same sale for one link say it once.
                guard seen.insert("\(event.id) \(instant) \(url ?? "") \(row[4] as String? ?? "")").inserted else { continue }
                let local = zone.flatMap { UTCInstant.wallClock(of: instant, in: $0) } ?? (instant.date, Self.timeOfDay(instant))
                entries.append(OnSaleEntry(
                    event: event, source: row[2], url: url, status: row[4], onSale: instant, localDate: local.date,
                    localTime: local.time, timeZone: zone, reason: reason))
            }
            return entries.sorted { ($0.onSale, $0.event.id, $0.source) < ($1.onSale, $1.event.id, $1.source) }
        }
    }

    static func timeOfDay(_ instant: UTCInstant) -> LocalTime {
        let seconds = Int((instant.secondsSinceEpoch % 86_400 + 86_400) % 86_400)
        return LocalTime(hour: seconds / 3600, minute: seconds / 60 % 60, second: seconds % 60)!
    }

    /// The feed's entries scored (see ``FeedScore``), best first; ties by date, then id.
    func ranked(_ entries: [FeedEntry], user: String, radius: Double, today: LocalDate) throws -> [FeedEntry] {
        try reader.read { db in
            let (seeds, followed) = try Self.seeds(db, user: user)
            let likes = try Self.likenesses(db, seeds: seeds, among: Set(entries.flatMap { $0.event.lineup.map(\.artistID) }))
            let listened = try Self.listenedArtists(db, user: user)
            let mostPlayed = Double(listened.values.map(\.plays).max() ?? 0)
            let tracked = try Self.trackedVenues(db, user: user)
            let settings = try Self.settings(db, user: user)
            let hasTrackedCities = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM fan_tracked WHERE fan = ? AND kind = 'city'", arguments: [user]) ?? 0 > 0
            let home = settings.homeLatitude.flatMap { lat in settings.homeLongitude.map { Coordinate(latitude: lat, longitude: $0) } }
            var scored = entries.map { entry -> FeedEntry in
                var score = FeedScore()
                let event = entry.event
                if let act = event.lineup.first(where: { followed.contains($0.artistID) }) {
                    score.follow = 3
                    score.because = "you follow \(act.name)"
                } else if let venue = event.venue, tracked.contains(venue.id) {
                    score.follow = 1.5
                    score.because = "you follow \(venue.name)"
                } else if hasTrackedCities,
                    home == nil || event.venue?.coordinate.map({ haversineDistance(from: home!, to: $0) > radius }) == true
                {
                    score.follow = 0.5
                    score.because = "near a city you track"
                }
                if mostPlayed > 0, let (act, plays) = event.lineup.compactMap({ act in listened[act.artistID].map { (act, $0.plays) } })
                    .max(by: { ($0.1, $1.0.artistID) < ($1.1, $0.0.artistID) })
                {
                    score.listening = 2 * log1p(Double(plays)) / log1p(mostPlayed)
                    if score.because == nil { score.because = "you listen to \(act.name)" }
                }
                if let (act, like) = event.lineup.filter({ !followed.contains($0.artistID) })
                    .compactMap({ act in likes[act.artistID].map { (act, $0) } })
                    .max(by: { ($0.1.strength, $1.0.artistID) < ($1.1.strength, $0.0.artistID) })
                {
                    score.similarity = 1.5 * like.strength
                    if score.because == nil { score.because = "\(act.name): \(like.reason)" }
                }
                score.distance = max(0, 1 - entry.distanceKilometres / max(radius, 0.001))
                score.soon = pow(0.5, Double(max(0, event.start.localDate.daysSinceEpoch - today.daysSinceEpoch)) / 30)
                score.popularity = 0.5 * min(1, max(0, event.popularity ?? 0))
                var entry = entry
                entry.score = score
                return entry
            }
            scored.sort { a, b in
                let (x, y) = (Recommendation.rounded(a.score!.total), Recommendation.rounded(b.score!.total))
                return x != y ? x > y : (a.event.start.localDate, a.event.id) < (b.event.start.localDate, b.event.id)
            }
            return scored
        }
    }

    static func trackedVenues(_ db: Database, user: String) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: "SELECT ref FROM fan_tracked WHERE fan = ? AND kind = 'venue'", arguments: [user]))
    }
}
