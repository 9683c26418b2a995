import GRDB
import Geo
import Listings

/// Fans' lists: what each local profile tracks, where she lives, what she plans to see.
///
/// Fans' rows are never written by ingestion. Events are never deleted by merges (a
/// second source's record joins the existing event), so plans follow their concert.
extension CatalogDatabase {
    public func settings(user: String) throws -> FanSettings {
        try reader.read { db in try Self.settings(db, user: user) }
    }

    /// Changes only what is given.
    public func updateSettings(
        user: String, home: (label: String, coordinate: Coordinate)? = nil, radiusKilometres: Double? = nil,
        feedMode: FeedMode? = nil
    ) throws -> FanSettings {
        try writer.write { db in
            try Self.ensureFan(db, user)
            if let home {
                try db.execute(
                    sql: "UPDATE fan SET home_label = ?, home_latitude = ?, home_longitude = ? WHERE name = ?",
                    arguments: [home.label, home.coordinate.latitude, home.coordinate.longitude, user])
            }
            if let radiusKilometres {
                try db.execute(sql: "UPDATE fan SET radius_km = ? WHERE name = ?", arguments: [radiusKilometres, user])
            }
            if let feedMode {
                try db.execute(sql: "UPDATE fan SET feed_mode = ? WHERE name = ?", arguments: [feedMode.rawValue, user])
            }
            return try Self.settings(db, user: user)
        }
    }

    /// Starts tracking; returns false when it was already tracked.
    @discardableResult
    public func track(user: String, _ item: TrackedItem) throws -> Bool {
        let timestamp = Self.timestamp(now())
        return try writer.write { db in
            try Self.ensureFan(db, user)
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO fan_tracked (fan, kind, ref, name, latitude, longitude, added_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [user, item.kind.rawValue, item.id, item.name, item.latitude, item.longitude, timestamp])
            return db.changesCount > 0
        }
    }

    /// Stops tracking; returns false when it was not tracked.
    @discardableResult
    public func untrack(user: String, kind: TrackedKind, id: Int64) throws -> Bool {
        try writer.write { db in
            try db.execute(
                sql: "DELETE FROM fan_tracked WHERE fan = ? AND kind = ? AND ref = ?", arguments: [user, kind.rawValue, id])
            return db.changesCount > 0
        }
    }

    /// What the fan tracks: artists, venues, cities, each by name.
    public func tracked(user: String) throws -> [TrackedItem] {
        try reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT kind, ref, name, latitude, longitude FROM fan_tracked WHERE fan = ?
                    ORDER BY CASE kind WHEN 'artist' THEN 0 WHEN 'venue' THEN 1 ELSE 2 END, name, ref
                    """,
                arguments: [user]
            ).map {
                TrackedItem(kind: TrackedKind(rawValue: $0[0]) ?? .artist, id: $0[1], name: $0[2], latitude: $0[3], longitude: $0[4])
            }
        }
    }

    /// Marks the fan as going; returns false when she already was.
    @discardableResult
    public func addPlan(user: String, eventID: Int64) throws -> Bool {
        let timestamp = Self.timestamp(now())
        return try writer.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT local_date, venue_id FROM event WHERE id = ?", arguments: [eventID])
            else { throw CatalogError.noSuchEvent(eventID) }
            try Self.ensureFan(db, user)
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO fan_plan (fan, event_id, planned_date, planned_venue_id, added_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [user, eventID, row[0] as String, row[1] as Int64?, timestamp])
            return db.changesCount > 0
        }
    }

    @discardableResult
    public func removePlan(user: String, eventID: Int64) throws -> Bool {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM fan_plan WHERE fan = ? AND event_id = ?", arguments: [user, eventID])
            return db.changesCount > 0
        }
    }

    /// The fan's plans, soonest first (or most recent first with `past`), each flagged
    /// when it shares an evening with another plan or its event was cancelled or moved.
    public func plans(user: String, past: Bool = false, today: LocalDate) throws -> [PlanEntry] {
        try reader.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT event_id, planned_date, planned_venue_id, added_at FROM fan_plan WHERE fan = ?",
                arguments: [user])
            let planned = Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0) })
            let ids = rows.map { $0[0] as Int64 }
            guard !ids.isEmpty else { return [] }
            var events = try EventDetailLoader.load(
                db, where: "e.id IN (SELECT value FROM json_each(?))", arguments: [Self.jsonArray(ids)])
            events = events.filter { ($0.endDate ?? $0.start.localDate) < today ? past : !past }
            if past { events.reverse() }
            let byDate = Dictionary(grouping: events.filter { $0.status != .cancelled }, by: \.start.localDate)
            return events.map { event in
                let plan = planned[event.id]!
                let conflicts = event.status == .cancelled
                    ? [] : (byDate[event.start.localDate] ?? []).map(\.id).filter { $0 != event.id }
                var alert: String?
                switch event.status {
                case .cancelled, .postponed, .rescheduled: alert = event.status.rawValue
                case .scheduled:
                    if event.start.localDate.description != plan[1] as String || event.venue?.id != plan[2] as Int64? {
                        alert = "moved"
                    }
                }
                return PlanEntry(event: event, addedAt: plan[3], conflicts: conflicts, alert: alert)
            }
        }
    }

    /// The fan's home feed: upcoming events within her radius of home (and of each city
    /// she tracks), filtered by her feed setting, soonest first; each marked new when it
    /// was not in her feed before. With `markSeen`, remembers what was shown. `order`
    /// `.score` ranks them (``FeedScore``), `.distance` puts the nearest first.
    public func feed(user: String, window: DateWindow, markSeen: Bool) throws -> [FeedEntry] {
        try feed(user: user, window: window, markSeen: markSeen, order: .date)
    }

    public func feed(user: String, window: DateWindow, markSeen: Bool, order: FeedOrder) throws -> [FeedEntry] {
        let settings = try settings(user: user)
        let tracked = try tracked(user: user)
        var centres: [Coordinate] = []
        if let lat = settings.homeLatitude, let lng = settings.homeLongitude {
            centres.append(Coordinate(latitude: lat, longitude: lng))
        }
        for city in tracked where city.kind == .city {
            if let lat = city.latitude, let lng = city.longitude { centres.append(Coordinate(latitude: lat, longitude: lng)) }
        }
        guard !centres.isEmpty else { throw CatalogError.noHome(user) }
        var nearest: [Int64: Double] = [:]
        for centre in centres {
            for (venue, distance) in try venueDistances(near: centre, radiusKilometres: settings.radiusKilometres) {
                nearest[venue] = min(distance, nearest[venue] ?? .infinity)
            }
        }
        // Names followed before the catalog knew them count once it does.
        let artists = try reader.read { db in try Self.followedArtistIDs(db, user: user) }
        let venues = Set(tracked.filter { $0.kind == .venue }.map(\.id))
        let entries = try writer.write { db in
            let events = try Self.nearbyEvents(
                db, distances: nearest, window: window, order: .date, limit: nil, listed: "e.unlisted_since IS NULL")
            let chosen = events.filter { nearby in
                switch settings.feedMode {
                case .all: return true
                case .tracked:
                    return nearby.event.lineup.contains { artists.contains($0.artistID) }
                        || venues.contains(nearby.event.venue?.id ?? -1)
                case .trackedArtists: return nearby.event.lineup.contains { artists.contains($0.artistID) }
                }
            }
            let seen = Set(try Int64.fetchAll(db, sql: "SELECT event_id FROM fan_seen WHERE fan = ?", arguments: [user]))
            if markSeen {
                try Self.ensureFan(db, user)
                for entry in chosen where !seen.contains(entry.event.id) {
                    try db.execute(sql: "INSERT OR IGNORE INTO fan_seen (fan, event_id) VALUES (?, ?)", arguments: [user, entry.event.id])
                }
            }
            return chosen.map { FeedEntry(event: $0.event, distanceKilometres: $0.distanceKilometres, isNew: !seen.contains($0.event.id)) }
        }
        switch order {
        case .date: return entries
        case .distance:
            // Stable: equally near shows keep their date order.
            return entries.enumerated().sorted { ($0.element.distanceKilometres, $0.offset) < ($1.element.distanceKilometres, $1.offset) }
                .map(\.element)
        case .score: return try ranked(entries, user: user, radius: settings.radiusKilometres, today: window.from)
        }
    }

    /// The local profiles that exist.
    public func fans() throws -> [String] {
        try reader.read { db in try String.fetchAll(db, sql: "SELECT name FROM fan ORDER BY name") }
    }

    static func ensureFan(_ db: Database, _ user: String) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO fan (name) VALUES (?)", arguments: [user])
    }

    static func settings(_ db: Database, user: String) throws -> FanSettings {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT home_label, home_latitude, home_longitude, radius_km, feed_mode FROM fan WHERE name = ?",
            arguments: [user])
        else { return FanSettings(user: user) }
        return FanSettings(
            user: user, homeLabel: row[0], homeLatitude: row[1], homeLongitude: row[2], radiusKilometres: row[3],
            feedMode: FeedMode(rawValue: row[4]) ?? .all)
    }
}

/// Requests the catalog cannot honour, with what to do instead.
public enum CatalogError: Error, Equatable, CustomStringConvertible {
    case noSuchEvent(Int64)
    case noHome(String)

    public var description: String {
        switch self {
        case .noSuchEvent(let id):
            return "no event #\(id) in the catalog; find ids with `encore near`, `encore artist` or `encore search`"
        case .noHome(let user):
            return "\(user) has no home set; run `encore settings --home PLACE` (or track a city)"
        }
    }
}

extension CatalogDatabase {
    /// The artists any local fan tracks, by name: a scheduled refresh crawls their
    /// calendars too.
    public func trackedArtistNames() throws -> [String] {
        try reader.read { db in
            // Names followed before the catalog knew them too (`encore track import`).
            try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM fan_tracked WHERE kind = 'artist'
                    UNION SELECT name FROM fan_followed_name ORDER BY name
                    """)
        }
    }
}
