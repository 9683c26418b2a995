import Foundation
import Listings

/// An event as lists show it (metro, band and venue pages, fans' pages): enough to choose
/// a show and find it; its concert page (`path`) keeps everything else. Lists repeat an
/// event many times (a festival is on dozens of band pages), so the entry stays small.
///
/// Keys are a subset of the concert page's, with the same names and meanings, but a
/// festival's lineup is cut to its first ``actsListed`` acts (`more_acts` counts the
/// rest): it is on every act's band page, and whole lineups there grew with the square
/// of the bill.
struct EventSummary: Encodable, Sendable {
    static let actsListed = 5

    let id: Int64
    let title: String
    let status: EventStatus
    let start: EventStart
    let unlistedSince: String?
    let venue: VenueSummary?
    let lineup: ArraySlice<LineupEntry>
    /// Acts left out of `lineup`.
    let moreActs: Int

    init(_ event: EventDetail) {
        id = event.id
        title = event.title
        status = event.status
        start = event.start
        unlistedSince = event.unlistedSince
        venue = event.venue
        lineup = event.lineup.prefix(Self.actsListed)
        moreActs = event.lineup.count - lineup.count
    }

    /// The concert page, from the tree's root.
    var path: String { "events/\(id).json" }

    enum CodingKeys: String, CodingKey {
        case id, title, status, start, venue, lineup, path
        case unlistedSince = "unlisted_since", moreActs = "more_acts"
    }

    enum StartKeys: String, CodingKey {
        case localDate = "local_date", localTime = "local_time", timezone
    }

    enum VenueKeys: String, CodingKey { case id, name, city }

    enum ActKeys: String, CodingKey {
        case name
        case artistID = "artist_id"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(status, forKey: .status)
        try container.encode(path, forKey: .path)
        var startContainer = container.nestedContainer(keyedBy: StartKeys.self, forKey: .start)
        try startContainer.encode(start.localDate, forKey: .localDate)
        try startContainer.encode(start.localTime, forKey: .localTime)
        try startContainer.encode(start.timeZone, forKey: .timezone)
        if let venue {
            var venueContainer = container.nestedContainer(keyedBy: VenueKeys.self, forKey: .venue)
            try venueContainer.encode(venue.id, forKey: .id)
            try venueContainer.encode(venue.name, forKey: .name)
            try venueContainer.encode(venue.city, forKey: .city)
        } else {
            try container.encodeNil(forKey: .venue)
        }
        var acts = container.nestedUnkeyedContainer(forKey: .lineup)
        for act in lineup {
            var actContainer = acts.nestedContainer(keyedBy: ActKeys.self)
            try actContainer.encode(act.artistID, forKey: .artistID)
            try actContainer.encode(act.name, forKey: .name)
        }
        if moreActs > 0 { try container.encode(moreActs, forKey: .moreActs) }
        try container.encodeIfPresent(unlistedSince, forKey: .unlistedSince)
    }
}

extension EventSummary: FeedJSONWritable {
    func write(to json: inout FeedJSONWriter) {
        json.openObject()
        json.key("id")
        json.integer(id)
        json.key("lineup")
        json.openArray()
        for act in lineup {
            json.element()
            json.openObject()
            json.key("artist_id")
            json.integer(act.artistID)
            json.key("name")
            json.string(act.name)
            json.closeObject()
        }
        json.closeArray()
        if moreActs > 0 {
            json.key("more_acts")
            json.integer(moreActs)
        }
        json.key("path")
        json.string(path)
        json.key("start")
        json.openObject()
        json.key("local_date")
        json.string(start.localDate.description)
        json.key("local_time")
        json.string(start.localTime?.description)
        json.key("timezone")
        json.string(start.timeZone)
        json.closeObject()
        json.key("status")
        json.string(status.rawValue)
        json.key("title")
        json.string(title)
        if let unlistedSince {
            json.key("unlisted_since")
            json.string(unlistedSince)
        }
        json.key("venue")
        if let venue {
            json.openObject()
            json.key("city")
            json.string(venue.city)
            json.key("id")
            json.integer(venue.id)
            json.key("name")
            json.string(venue.name)
            json.closeObject()
        } else {
            json.null()
        }
        json.closeObject()
    }
}

extension UserPlansFeed {
    /// A plan as the fan's list shows it: the event's summary.
    private struct Plan: Encodable {
        let entry: PlanEntry

        enum CodingKeys: String, CodingKey {
            case event, conflicts, alert
            case addedAt = "added_at"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(EventSummary(entry.event), forKey: .event)
            try container.encode(entry.addedAt, forKey: .addedAt)
            try container.encode(entry.conflicts, forKey: .conflicts)
            try container.encode(entry.alert, forKey: .alert)
        }
    }

    enum CodingKeys: String, CodingKey { case user, plans }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        try container.encode(plans.map(Plan.init), forKey: .plans)
    }
}

extension UserFeed {
    /// A suggestion as the fan's feed shows it: the event's summary and its distance.
    private struct Entry: Encodable {
        let entry: FeedEntry

        enum CodingKeys: String, CodingKey {
            case event
            case distanceKilometres = "distance_km", isNew = "new"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(EventSummary(entry.event), forKey: .event)
            try container.encode((entry.distanceKilometres * 1000).rounded() / 1000, forKey: .distanceKilometres)
            try container.encode(entry.isNew, forKey: .isNew)
        }
    }

    enum CodingKeys: String, CodingKey {
        case user
        case entries = "events"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        try container.encode(entries.map(Entry.init), forKey: .entries)
    }
}
