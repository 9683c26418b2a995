/// Songkick API v3 JSON, as read before normalization.
///
/// Field names follow the API. Every response is wrapped in `resultsPage`; `results`
/// holds `event` (a list, or one object for event details), `artist`, `location` or
/// `venue`, and is `{}` when there is nothing. Only the fields Encore uses are read
/// (SongkickJSON+Reader.swift); the rest are skipped.
enum SongkickJSON {
    struct Envelope {
        let resultsPage: ResultsPage
    }

    struct ResultsPage {
        let status: String
        let results: Results?
        let page: Int?
        let perPage: Int?
        let totalEntries: Int?
        let error: APIError?
    }

    struct APIError {
        let message: String?
    }

    struct Results {
        let event: OneOrMany<Event>?
        let artist: OneOrMany<Artist>?
        let location: [Location]?
        let venue: OneOrMany<Venue>?
    }

    struct Event {
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

    struct Moment {
        let date: String?
        let time: String?
        let datetime: String?
    }

    /// A performance's own id and display name are not read: the artist carries both.
    struct Performance {
        let billing: String?
        let billingIndex: Int?
        let artist: Artist?
    }

    struct Artist {
        let id: FlexibleID?
        let displayName: String?
        let uri: String?
        let identifier: [Identifier]?
        let onTourUntil: String?
    }

    struct Identifier {
        let mbid: String?
    }

    struct Venue {
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

    struct MetroArea {
        let id: FlexibleID?
        let displayName: String?
        let uri: String?
        let country: Named?
        let state: Named?
        let lat: FlexibleDouble?
        let lng: FlexibleDouble?
    }

    struct City {
        let id: FlexibleID?
        let displayName: String?
        let country: Named?
        let state: Named?
        let lat: FlexibleDouble?
        let lng: FlexibleDouble?
    }

    struct Named {
        let displayName: String?
    }

    struct EventLocation {
        let city: String?
        let lat: FlexibleDouble?
        let lng: FlexibleDouble?
    }

    struct Location {
        let city: City?
        let metroArea: MetroArea?
    }
}
