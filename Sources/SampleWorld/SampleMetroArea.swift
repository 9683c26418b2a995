/// A Songkick-style metro area: the unit a calendar is published for.
///
/// Several cities can share one (Minneapolis and St. Paul are both "Twin Cities"), which is
/// exactly the case an aggregator must get right when it maps a listing's city to a place.
public struct SampleMetroArea: Sendable, Hashable {
    /// Stable per metro area, taken from recorded Songkick responses where one was seen.
    public let id: Int
    /// As Songkick shows it: "Twin Cities", "Los Angeles (LA)", "Zürich".
    public let displayName: String
    /// As Songkick writes countries: "UK", "US", "Spain", "Czech Republic".
    public let countryName: String
    /// State or province abbreviation, only for the US, Canada and Australia.
    public let stateName: String?
    public let centre: SampleCoordinate
    /// Indices into ``SampleWorld/cities``, main city first.
    public let cityIndices: [Int]
}
