/// The sample world's only source of randomness: Steele, Lea and Flood's SplitMix64.
///
/// The world must come out byte-identical for a given seed on every machine and Swift
/// release, so it cannot use `SystemRandomNumberGenerator`, nor the standard library's
/// `random(in:using:)` and `shuffled(using:)`, whose algorithms are not promised to stay
/// the same. Every draw below is plain integer arithmetic (or exact IEEE operations).
///
/// SplitMix64's output function is also a strong 64-bit mixer, which is what
/// ``init(seed:stream:index:)`` uses to give item `index` of a pool its own independent
/// stream: artist 90 000 can be built without building artists 0..<90 000 first.
struct SplitMix64 {
    /// Separates the streams of different pools, so artist 7 and venue 7 draw unrelated numbers.
    enum Stream: UInt64 {
        case artist = 1
        case venue = 2
        case metroAreaCalendar = 3
        case festivalSeries = 4
        /// Which sources list an event, and how each words it (``SourceWorld``).
        case syndication = 5
        /// How each source spells an artist or venue and where it puts the venue.
        case sourceNaming = 6
        /// Events only the non-Songkick sources list.
        case extraEvents = 7
        /// Per-record details a source invents (prices, on-sale dates, descriptions).
        case sourceDetails = 8
        /// How a source's record differs with realistic variations on, and the hard negatives.
        case variations = 9
    }

    private var state: UInt64

    init(seed: UInt64, stream: Stream, index: Int) {
        state = Self.mix(Self.mix(seed ^ (stream.rawValue &* 0xD1B5_4A32_D192_ED03)) ^ UInt64(index))
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-high; the bias is below 2⁻⁴⁰ for
    /// the bounds used here, far under anything a sample could show).
    mutating func int(below bound: Int) -> Int {
        precondition(bound > 0, "empty range")
        return Int(truncatingIfNeeded: UInt64(bound).multipliedFullWidth(by: next()).high)
    }

    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + int(below: range.count)
    }

    /// A uniform double in `0..<1` with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    mutating func element<T>(of array: [T]) -> T {
        array[int(below: array.count)]
    }

    /// An index into `0..<count` skewed towards 0 (`u^power`), so low indices — the popular
    /// artists, the main venues — come up far more often than the long tail.
    mutating func skewedIndex(below count: Int, power: Int) -> Int {
        let u = unit()
        var skewed = u
        for _ in 1..<max(power, 1) { skewed *= u }
        return min(count - 1, Int(skewed * Double(count)))
    }

    /// Picks an index in proportion to `weights` (all non-negative, at least one positive).
    mutating func weightedIndex(_ weights: [Double]) -> Int {
        let total = weights.reduce(0, +)
        var remaining = unit() * total
        for (index, weight) in weights.enumerated() {
            remaining -= weight
            if remaining < 0 { return index }
        }
        return weights.count - 1
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
