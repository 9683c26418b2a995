/// Responses of APIs Encore does not read, told apart by content so that an operator who
/// points Encore at one hears which API it is ("looks like a JamBase response") instead of
/// a missing-field error from whichever reader came closest.
///
/// Checked before detection: JamBase's events carry schema.org `@type`s that the JSON-LD
/// reader would otherwise take on. Each signature is a key or value that only that API
/// writes, so a real listing is never refused.
public struct UnsupportedFormat: Sendable, Hashable {
    /// The API's public name, as the message gives it.
    public let name: String
    let recognizes: @Sendable (ContentSample) -> Bool

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The APIs known by shape.
    public static let known: [UnsupportedFormat] = [
        // Data API v1: identifiers are "jambase:123" and the envelope has `success`.
        UnsupportedFormat(name: "JamBase") { sample in
            sample.firstSignificantByte == UInt8(ascii: "{") && sample.contains("\"jambase:")
                && sample.contains("\"success\"")
        },
        // The earlier API: capitalised keys, `Events` first, venues with `ZipCode`.
        UnsupportedFormat(name: "JamBase") { sample in
            sample.firstObjectKey()?.0 == "Events" && sample.contains("\"Artists\"") && sample.contains("\"Venue\"")
        },
    ]

    /// The API the content looks like, when it is one Encore knows but does not read.
    public static func of(_ sample: ContentSample) -> UnsupportedFormat? {
        known.first { $0.recognizes(sample) }
    }
}
