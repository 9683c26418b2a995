/// SeatGeek Platform API v2 JSON, as decoded before normalization.
///
/// Searches answer `{"events" | "venues" | "performers": [...], "meta": {"total",
/// "per_page", "page", "took", "geolocation"}}`; `/events/{id}`, `/venues/{id}` and
/// `/performers/{id}` answer the one object. Errors come as `{"errors": [{"code",
/// "message"}], "message": ..., "status": 403}` (or with only `message` and `status`).
enum SeatGeekJSON {
    struct Response: Decodable {
        let events: [Event]?
        let venues: [Venue]?
        let performers: [Performer]?
        let meta: Meta?
        let errors: [APIError]?
        let message: String?
        /// The response itself, when it is one event (it has `datetime_local`).
        let event: Event?
        /// The response itself, when it is one venue (it has `location` or `timezone`).
        let venue: Venue?
        /// The response itself, when it is one performer (it has `slug`).
        let performer: Performer?

        private enum CodingKeys: String, CodingKey {
            case events, venues, performers, meta, errors, message, datetime_local, location, timezone, slug
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            errors = try container.decodeIfPresent([APIError].self, forKey: .errors)
            message = try? container.decodeIfPresent(String.self, forKey: .message)
            meta = try container.decodeIfPresent(Meta.self, forKey: .meta)
            // One event has `performers` of its own: read it once, as the event's.
            if container.contains(.datetime_local), !container.contains(.events) {
                event = try Event(from: decoder)
                (events, venues, performers, venue, performer) = (nil, nil, nil, nil, nil)
                return
            }
            event = nil
            events = try container.decodeIfPresent([Event].self, forKey: .events)
            venues = try container.decodeIfPresent([Venue].self, forKey: .venues)
            performers = try container.decodeIfPresent([Performer].self, forKey: .performers)
            let isList = events != nil || venues != nil || performers != nil
            venue = !isList && (container.contains(.location) || container.contains(.timezone)) ? try Venue(from: decoder) : nil
            performer = !isList && venue == nil && container.contains(.slug) ? try Performer(from: decoder) : nil
        }
    }

    struct Meta: Decodable {
        let total: Int?
        let per_page: Int?
        let page: Int?
    }

    struct APIError: Decodable {
        let code: FlexibleID?
        let message: String?
    }

    struct Event: Decodable {
        let id: FlexibleID?
        let title: String?
        let short_title: String?
        let type: String?
        let status: String?
        let url: String?
        let datetime_local: String?
        let datetime_utc: String?
        let enddatetime_utc: String?
        let time_tbd: Bool?
        let date_tbd: Bool?
        let datetime_tbd: Bool?
        let taxonomies: [Taxonomy]?
        let venue: Venue?
        let performers: [Performer]?
        let stats: Stats?
    }

    struct Taxonomy: Decodable {
        let id: Int?
        let name: String?
        let parent_id: Int?
    }

    struct Venue: Decodable {
        let id: FlexibleID?
        let name: String?
        let url: String?
        let address: String?
        let city: String?
        let state: String?
        let postal_code: String?
        let country: String?
        let timezone: String?
        let location: Location?
    }

    struct Location: Decodable {
        let lat: FlexibleDouble?
        let lon: FlexibleDouble?
    }

    struct Performer: Decodable {
        let id: FlexibleID?
        let name: String?
        let slug: String?
        let url: String?
        let primary: Bool?
    }

    struct Stats: Decodable {
        let lowest_price: FlexibleDouble?
        let highest_price: FlexibleDouble?
    }
}
