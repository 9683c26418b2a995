import Foundation

/// A real city with its real centre and IANA time zone.
///
/// Real places matter to the app under test: distance search, antimeridian handling (Suva),
/// half-hour offsets (St. John's, Adelaide, Mumbai), zones without daylight saving
/// (Phoenix, Brisbane) and southern-hemisphere summers all come from these values.
public struct SampleCity: Sendable, Hashable {
    /// Equal to the metro area id for a metro's main city, a separate stable id otherwise.
    public let id: Int
    public let displayName: String
    public let countryName: String
    public let stateName: String?
    public let centre: SampleCoordinate
    public let timeZone: TimeZone
    public let metroAreaIndex: Int
    /// Which language venue names (and concert start times) follow.
    let style: NameStyle
    /// Relative amount of live music, used to share events (and so venues) among metro areas.
    let weight: Double
}

extension SampleCity {
    /// The UTC offset in seconds at a local wall-clock time, daylight saving included —
    /// what Songkick prints after a datetime ("+0100" in a Madrid winter, "+0200" in summer).
    public func utcOffset(on date: SampleDate, atMinutes minutes: Int) -> Int {
        let wallClock = Double(date.daysSince1970 * 86_400 + minutes * 60)
        let guess = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wallClock))
        return timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wallClock - Double(guess)))
    }
}
