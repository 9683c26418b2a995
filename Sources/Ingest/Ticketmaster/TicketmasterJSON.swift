/// Ticketmaster Discovery API v2 JSON, as decoded before normalization.
///
/// Searches answer `{"_embedded": {"events" | "attractions" | "venues": [...]},
/// "_links": {...}, "page": {size, totalElements, totalPages, number}}` (no `_embedded`
/// when nothing matched); event details answer one event object. Errors come as
/// `{"fault": {"faultstring": ...}}` (gateway: bad key, quota) or
/// `{"errors": [{"code": "DIS1004", "detail": ...}]}`.
enum TicketmasterJSON {
    struct Response: Decodable {
        let _embedded: Embedded?
        let page: Page?
        let fault: Fault?
        let errors: [APIError]?
        /// The response itself, when it is one event (event details: it has `dates`).
        let event: Event?

        private enum CodingKeys: String, CodingKey { case _embedded, page, fault, errors, dates }

        init(_embedded: Embedded?, page: Page?, fault: Fault?, errors: [APIError]?, event: Event?) {
            self._embedded = _embedded
            self.page = page
            self.fault = fault
            self.errors = errors
            self.event = event
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            fault = try container.decodeIfPresent(Fault.self, forKey: .fault)
            errors = try container.decodeIfPresent([APIError].self, forKey: .errors)
            // An event's own `_embedded` holds its venues and attractions: read it once, as the event's.
            if container.contains(.dates), try !container.decodeNil(forKey: .dates) {
                event = try Event(from: decoder)
                _embedded = nil
                page = nil
            } else {
                event = nil
                _embedded = try container.decodeIfPresent(Embedded.self, forKey: ._embedded)
                page = try container.decodeIfPresent(Page.self, forKey: .page)
            }
        }
    }

    /// A single resource's `type` (`attraction`, `venue`): details pages have no envelope.
    struct Resource: Decodable {
        let type: String?
    }

    struct Embedded: Decodable {
        let events: [Event]?
        let attractions: [Attraction]?
        let venues: [Venue]?
    }

    struct Page: Decodable {
        let size: Int?
        let totalElements: Int?
        let totalPages: Int?
        let number: Int?
    }

    struct Fault: Decodable {
        let faultstring: String?
        let detail: FaultDetail?
    }

    struct FaultDetail: Decodable {
        let errorcode: String?
    }

    struct APIError: Decodable {
        let code: String?
        let detail: String?
    }

    struct Event: Decodable {
        let id: FlexibleID?
        let name: String?
        let url: String?
        let test: Bool?
        let dates: Dates?
        let classifications: [Classification]?
        let priceRanges: [PriceRange]?
        let sales: Sales?
        let _embedded: EventEmbedded?
    }

    struct Dates: Decodable {
        let start: Moment?
        let end: Moment?
        let timezone: String?
        let status: Status?
    }

    struct Moment: Decodable {
        let localDate: String?
        let localTime: String?
        let dateTime: String?
        let dateTBD: Bool?
        let dateTBA: Bool?
        let timeTBA: Bool?
        let noSpecificTime: Bool?
    }

    struct Status: Decodable {
        let code: String?
    }

    struct Classification: Decodable {
        let primary: Bool?
        let segment: Named?
        let genre: Named?
        let subGenre: Named?
        let type: Named?
        let subType: Named?
    }

    struct Named: Decodable {
        let name: String?
    }

    struct PriceRange: Decodable {
        let currency: String?
        let min: FlexibleDouble?
        let max: FlexibleDouble?
    }

    struct Sales: Decodable {
        let `public`: SalesWindow?
        let presales: [SalesWindow]?
    }

    struct SalesWindow: Decodable {
        let startDateTime: String?
        /// A presale's name ("Artist Fan Presale").
        let name: String?
    }

    struct EventEmbedded: Decodable {
        let venues: [Venue]?
        let attractions: [Attraction]?
    }

    struct Venue: Decodable {
        let id: FlexibleID?
        let name: String?
        let url: String?
        let timezone: String?
        let city: Named?
        let state: State?
        let country: Country?
        let address: Address?
        let postalCode: String?
        let location: Location?
    }

    struct State: Decodable {
        let name: String?
        let stateCode: String?
    }

    struct Country: Decodable {
        let name: String?
        let countryCode: String?
    }

    struct Address: Decodable {
        let line1: String?
    }

    struct Location: Decodable {
        let latitude: FlexibleDouble?
        let longitude: FlexibleDouble?
    }

    struct Attraction: Decodable {
        let id: FlexibleID?
        let name: String?
        let url: String?
        let externalLinks: ExternalLinks?
    }

    struct ExternalLinks: Decodable {
        let musicbrainz: [ExternalID]?
    }

    struct ExternalID: Decodable {
        let id: String?
    }
}
