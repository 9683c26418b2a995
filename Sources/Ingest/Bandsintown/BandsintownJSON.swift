/// Bandsintown REST API v3 (and v2) JSON, as decoded before normalization.
///
/// `GET /artists/{name}/events` answers a bare array of events; `GET /artists/{name}`
/// one artist object; errors are `{"errorMessage": "[NotFound] ..."}` (or an API
/// gateway's `{"message": "Forbidden"}`).
enum BandsintownJSON {
    struct Event: Decodable {
        let id: FlexibleID?
        let artist_id: FlexibleID?
        let url: String?
        let datetime: String?
        let starts_at: String?
        let ends_at: String?
        let datetime_display_rule: String?
        let on_sale_datetime: String?
        let title: String?
        let venue: Venue?
        let lineup: [String]?
        let offers: [Offer]?
        let festival_start_date: String?
        let festival_end_date: String?
        let sold_out: Bool?
        /// Present in newer responses: the artist whose calendar this is.
        let artist: Artist?
        /// v2 (`/artists/{name}/events.json`): the bill as objects, and one ticket link.
        let artists: [Artist]?
        let ticket_url: String?
        let ticket_status: String?
    }

    struct Venue: Decodable {
        let id: FlexibleID?
        let name: String?
        let latitude: FlexibleDouble?
        let longitude: FlexibleDouble?
        let city: String?
        let region: String?
        let country: String?
        let street_address: String?
        let postal_code: String?
    }

    struct Offer: Decodable {
        let type: String?
        let url: String?
        let status: String?
    }

    struct Artist: Decodable {
        let id: FlexibleID?
        let name: String?
        let url: String?
        let mbid: String?
    }

    struct ErrorBody: Decodable {
        let errorMessage: String?
        let message: String?
        let error: String?
    }
}
