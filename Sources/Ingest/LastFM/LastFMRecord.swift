/// One Last.fm event as read from either format, before normalization.
///
/// Last.fm's XML and JSON say the same things with the same names (JSON mirrors the
/// XML, down to `geo:point`), so both readers fill this one shape with the raw text
/// and ``LastFMNormalizer`` alone decides what it means: the two formats cannot drift.
/// Empty text means missing.
struct LastFMEventRecord {
    var id: String?
    var title: String?
    /// `<artists><artist>`, in the order listed (possibly with empty entries, kept so
    /// that positions line up).
    var artists: [String] = []
    /// `<artists><headliner>`.
    var headliner: String?
    var venue: LastFMVenueRecord?
    /// `Thu, 03 Jun 2010 20:00:00`, venue-local.
    var startDate: String?
    /// `<startTime>` (`15:00`), which older pages give apart from a date-only `startDate`.
    var startTime: String? = nil
    var endDate: String?
    var url: String?
    /// Ticket links (`<tickets><ticket supplier="...">url</ticket>`).
    var tickets: [String] = []
    /// `"0"` or `"1"`.
    var cancelled: String?
    /// Where a field is, for messages: given a path relative to the event with Last.fm's
    /// names (`venue.location.geo:point.geo:lat`, `artists.artist[2]`), the position to
    /// report (a JSON path, or a line and column with the element path).
    var locate: (String) -> String
}

/// A Last.fm venue as read from either format.
struct LastFMVenueRecord {
    var id: String?
    var name: String?
    /// As Last.fm writes it: `Toronto`, `Denver, CO`, `Philadelphia PA`, `Las Vegas(, NV)`.
    var city: String?
    var country: String?
    var street: String?
    var postalCode: String?
    var latitude: String?
    var longitude: String?
    /// `<location><timezone>`, when present: an IANA zone.
    var timeZone: String?
    var url: String?
    var website: String?

    /// Whether the source said anything at all about the venue.
    var isEmpty: Bool {
        [id, name, city, country, street, postalCode, latitude, longitude, timeZone, url, website]
            .allSatisfy { ListingValues.clean($0) == nil }
    }
}

/// Last.fm's paging attributes (`<events page= perPage= totalPages= total=>` or
/// `"@attr"`), as text.
struct LastFMPagingRecord {
    var page: String?
    var perPage: String?
    var total: String?
    /// The position to report for a paging field (`page`, `total`).
    var locate: (String) -> String
}
