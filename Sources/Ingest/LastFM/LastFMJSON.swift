/// Last.fm 2.0 JSON, as decoded before normalization.
///
/// Last.fm's JSON is its XML turned over: element names become keys (`geo:point`),
/// attributes move into `"@attr"`, text next to attributes is `"#text"`, numbers are
/// strings, missing values are `""`, an element that appears once is an object or a
/// string rather than an array, and an empty element is a string of white space
/// (`"tickets": "\n  "`). Every leaf is read as text (``LastFMText``) and every object
/// may instead be blank text (``LastFMObject``); meaning is left to ``LastFMNormalizer``.
enum LastFMJSON {
    struct Envelope: Decodable {
        let events: LastFMObject<EventList>?
        let event: LastFMObject<Event>?
        let error: LastFMText?
        let message: LastFMText?
    }

    struct EventList: Decodable {
        let event: OneOrMany<Event>?
        let attributes: Attributes?
        // Older responses put the paging beside "event" instead of in "@attr".
        let page: LastFMText?
        let perPage: LastFMText?
        let total: LastFMText?

        enum CodingKeys: String, CodingKey {
            case event, page, perPage, total
            case attributes = "@attr"
        }
    }

    struct Attributes: Decodable {
        let page: LastFMText?
        let perPage: LastFMText?
        let total: LastFMText?
    }

    struct Event: Decodable {
        let id: LastFMText?
        let title: LastFMText?
        let artists: LastFMObject<Artists>?
        let venue: LastFMObject<Venue>?
        let startDate: LastFMText?
        let startTime: LastFMText?
        let endDate: LastFMText?
        let url: LastFMText?
        let tickets: LastFMObject<Tickets>?
        let cancelled: LastFMText?
    }

    struct Artists: Decodable {
        let artist: OneOrMany<LastFMText>?
        let headliner: LastFMText?
    }

    struct Venue: Decodable {
        let id: LastFMText?
        let name: LastFMText?
        let location: LastFMObject<Location>?
        let url: LastFMText?
        let website: LastFMText?
    }

    struct Location: Decodable {
        let point: LastFMObject<GeoPoint>?
        let city: LastFMText?
        let country: LastFMText?
        let street: LastFMText?
        let postalcode: LastFMText?
        let timezone: LastFMText?

        enum CodingKeys: String, CodingKey {
            case city, country, street, postalcode, timezone
            case point = "geo:point"
        }
    }

    struct GeoPoint: Decodable {
        let lat: LastFMText?
        let long: LastFMText?

        enum CodingKeys: String, CodingKey {
            case lat = "geo:lat"
            case long = "geo:long"
        }
    }

    struct Tickets: Decodable {
        let ticket: OneOrMany<LastFMText>?
    }
}

/// A Last.fm leaf value as text: a string, a number, a boolean, null, or an element
/// with attributes written as `{"#text": "...", "supplier": "..."}` (its text).
struct LastFMText: Decodable {
    let value: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = nil
        } else if let text = try? container.decode(String.self) {
            value = text
        } else if let number = try? container.decode(Int64.self) {
            value = String(number)
        } else if let number = try? container.decode(Double.self) {
            value = String(number)
        } else if let flag = try? container.decode(Bool.self) {
            value = flag ? "1" : "0"
        } else {
            let object = try decoder.container(keyedBy: TextKey.self)
            value = try object.decodeIfPresent(LastFMText.self, forKey: .text)?.value
        }
    }

    private enum TextKey: String, CodingKey {
        case text = "#text"
    }
}

/// An object Last.fm may instead write as a blank string (an empty element): nil then.
struct LastFMObject<Wrapped: Decodable>: Decodable {
    let value: Wrapped?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = nil
        } else if let text = try? container.decode(String.self) {
            guard text.allSatisfy(\.isWhitespace) else {
                throw DecodingError.typeMismatch(
                    Wrapped.self,
                    .init(codingPath: decoder.codingPath, debugDescription: "expected an object, found the text \"\(text)\""))
            }
            value = nil
        } else {
            value = try Wrapped(from: decoder)
        }
    }
}
