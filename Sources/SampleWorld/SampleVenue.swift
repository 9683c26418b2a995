/// A place concerts happen, placed within about 15 km of its city's centre.
public struct SampleVenue: Sendable, Hashable {
    /// What kind of room it is; drives capacity, which artists play there and how often.
    public enum Kind: String, Sendable, Hashable {
        case bar
        case club
        case theatre
        case arena
        case park
    }

    public let id: Int
    public let displayName: String
    public let kind: Kind
    public let cityIndex: Int
    public let metroAreaIndex: Int
    /// Nil for a few venues, as real listings sometimes lack coordinates.
    public let coordinate: SampleCoordinate?
    public let capacity: Int
    public let street: String?
    /// Unique in a world: venue sites publish their own listings, and JSON-LD readers
    /// know a venue by its site.
    public internal(set) var website: String?
}
