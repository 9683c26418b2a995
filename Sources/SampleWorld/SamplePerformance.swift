/// One artist's slot on an event's bill.
public struct SamplePerformance: Sendable, Hashable {
    public enum Billing: String, Sendable, Hashable {
        case headline
        case support
    }

    public let id: Int
    /// Index into ``SampleWorld/artists``.
    public let artistIndex: Int
    public let billing: Billing
    /// 1-based position on the bill.
    public let billingIndex: Int
}
