/// One concert or festival, independent of any source's format.
///
/// Everything a writer needs is here as plain values or indices into the world's pools,
/// so each format (Songkick, Bandsintown, Ticketmaster...) decides its own presentation:
/// display names, URLs and date strings are the writers' business, not the model's.
public struct SampleEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case concert
        case festival
    }

    public enum Status: String, Sendable, Hashable {
        case ok
        case cancelled
        case postponed
    }

    public let id: Int
    public let kind: Kind
    public let status: Status
    public let metroAreaIndex: Int
    public let cityIndex: Int
    /// Nil when the venue is unknown (some festivals), as real listings have it.
    public let venueIndex: Int?
    /// Local date of the (first) day.
    public let startDate: SampleDate
    /// Minutes after local midnight; nil when no start time is announced.
    public let startMinutes: Int?
    /// The venue's UTC offset in seconds at the start, including daylight saving;
    /// nil exactly when `startMinutes` is nil.
    public let utcOffsetSeconds: Int?
    /// Last day of a festival (equal to `startDate` for one-day festivals); nil for concerts.
    public let endDate: SampleDate?
    public let series: SampleFestivalSeries?
    /// The bill in order: headliners first.
    public let performances: [SamplePerformance]
    /// 0...1, Songkick-style.
    public let popularity: Double
    /// "18+", "21+" or nil.
    public let ageRestriction: String?
}
