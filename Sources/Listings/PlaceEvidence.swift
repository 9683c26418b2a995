/// What a page says about where its events are, besides each event's own address: geo
/// enrichment weighs it when an address leaves the country or zone open.
///
/// Strongest first: the operator's hint for the source (`country`, `place`,
/// `time_zone` in `encore.toml`), the calendar's own zone (`X-WR-TIMEZONE`, or the one
/// zone its `TZID`s name), the country of the page's web address (`.co.uk`, `.de`), and
/// the country most of the page's other venues are in.
public struct PlaceEvidence: Sendable, Hashable {
    /// ISO 3166-1 alpha-2 the operator configured for the source.
    public var configuredCountry: String?
    /// A place the source is about ("Bristol, GB"), as configured.
    public var configuredPlace: String?
    /// An IANA zone the operator configured for the source.
    public var configuredZone: String?
    /// The calendar's zone (IANA), when the page is a calendar that states one.
    public var calendarZone: String?

    public init(
        configuredCountry: String? = nil, configuredPlace: String? = nil, configuredZone: String? = nil,
        calendarZone: String? = nil
    ) {
        self.configuredCountry = configuredCountry
        self.configuredPlace = configuredPlace
        self.configuredZone = configuredZone
        self.calendarZone = calendarZone
    }

    public var isEmpty: Bool { self == PlaceEvidence() }

    /// Takes the operator's settings from a source's hint (its calendar zone stays).
    public mutating func adoptHint(_ hint: PlaceEvidence) {
        configuredCountry = hint.configuredCountry
        configuredPlace = hint.configuredPlace
        configuredZone = hint.configuredZone
    }
}
