/// A recurring festival ("Golden Harbour Festival"); each edition is one festival event.
public struct SampleFestivalSeries: Sendable, Hashable {
    public let id: Int
    public let displayName: String
}
