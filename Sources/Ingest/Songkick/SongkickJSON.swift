/// Songkick API v3 JSON, as decoded before normalization.
///
/// Field names follow the API. Every response is wrapped in `resultsPage`; `results`
/// holds `event` (a list, or one object for event details), `artist`, `location` or
/// `venue`, and is `{}` when there is nothing. Only the fields Encore uses are declared:
/// `JSONDecoder` skips the rest unread.
enum SongkickJSON {
    struct Envelope: Decodable {
        let resultsPage: ResultsPage
    }

    struct ResultsPage: Decodable {
        let status: String
        let results: Results?
        let page: Int?
        let perPage: Int?
        let totalEntries: Int?
        let error: APIError?
    }

    struct APIError: Decodable {
        let message: String?
    }

    struct Results: Decodable {
        let event: OneOrMany<Event>?
        let artist: OneOrMany<Artist>?
        let location: [Location]?
        let venue: OneOrMany<Venue>?
    }

    struct Event: Decodable {
        let id: FlexibleID?
        let type: String?
        let displayName: String?
        let uri: String?
        let status: String?
        let popularity: FlexibleDouble?
        let start: Moment?
        let end: Moment?
        let performance: [Performance]?
        let ageRestriction: String?
        let venue: Venue?
        let location: EventLocation?
    }

    struct Moment: Decodable {
        let date: String?
        let time: String?
        let datetime: String?
    }

    /// A performance's own id and display name are not read: the artist carries both.
    struct Performance: Decodable {
        let billing: String?
        let billingIndex: Int?
        let artist: Artist?
    }

    struct Artist: Decodable {
        let id: FlexibleID?
        let displayName: String?
        let uri: String?
        let identifier: [Identifier]?
        let onTourUntil: String?
    }

    struct Identifier: Decodable {
        let mbid: String?
    }

    struct Venue: Decodable {
        let id: FlexibleID?
        let displayName: String?
        let uri: String?
        let lat: FlexibleDouble?
        let lng: FlexibleDouble?
        let metroArea: MetroArea?
        let city: City?
        let street: String?
        let zip: String?
        let website: String?
        let capacity: Int?
    }

    struct MetroArea: Decodable {
        let id: FlexibleID?
        let displayName: String?
        let uri: String?
        let country: Named?
        let state: Named?
        let lat: FlexibleDouble?
        let lng: FlexibleDouble?
    }

    struct City: Decodable {
        let id: FlexibleID?
        let displayName: String?
        let country: Named?
        let state: Named?
        let lat: FlexibleDouble?
        let lng: FlexibleDouble?
    }

    struct Named: Decodable {
        let displayName: String?
    }

    struct EventLocation: Decodable {
        let city: String?
        let lat: FlexibleDouble?
        let lng: FlexibleDouble?
    }

    struct Location: Decodable {
        let city: City?
        let metroArea: MetroArea?
    }
}
