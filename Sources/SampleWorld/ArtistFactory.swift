/// Builds artist `index` of the pool from the seed alone.
///
/// Each artist has its own random stream, so the pool can be built in any order (or in
/// part) with identical results. Lower indices are more popular; the event generator
/// leans on that to put popular acts in big rooms.
enum ArtistFactory {
    private static let genreWeights = NameBank.genres.map(\.weight)
    private static let styleWeights = NameBank.artistStyles.map(\.weight)

    static func make(index: Int, poolSize: Int, seed: UInt64) -> SampleArtist {
        var rng = SplitMix64(seed: seed, stream: .artist, index: index)
        let id = 100_000 + index * 53 + rng.int(below: 53)
        let genre = NameBank.genres[rng.weightedIndex(genreWeights)].name
        let style = NameBank.artistStyles[rng.weightedIndex(styleWeights)].style
        let name = NameBank.artistName(style: style, genre: genre, rng: &rng)
        let identifiers: Int
        switch rng.unit() {
        case ..<0.15: identifiers = 0
        case ..<0.20: identifiers = 2
        default: identifiers = 1
        }
        let mbids = (0..<identifiers).map { _ in uuid(&rng) }
        return SampleArtist(
            id: id, displayName: name, musicBrainzIDs: mbids, genre: genre,
            popularity: popularity(index: index, poolSize: poolSize))
    }

    /// (1 - rank)^10 falls from 0.5 for the top act to ~0.0001 half-way down the pool, the
    /// long tail Songkick's figures show. Multiplications, not pow(), so every platform
    /// rounds the same way; a function of the index alone, so the event generator can
    /// recompute it instead of reading the artist.
    static func popularity(index: Int, poolSize: Int) -> Double {
        let x = 1 - Double(index) / Double(poolSize)
        let x2 = x * x
        let x8 = x2 * x2 * x2 * x2
        return (x8 * x2 * 500_000).rounded(.down) / 1_000_000
    }

    /// A random (version 4, RFC 4122 variant) UUID in MusicBrainz's lowercase form.
    static func uuid(_ rng: inout SplitMix64) -> String {
        let high = (rng.next() & ~0xF000) | 0x4000
        let low = (rng.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = hex16(high) + hex16(low)
        var parts: [Substring] = []
        var start = hex.startIndex
        for length in [8, 4, 4, 4, 12] {
            let end = hex.index(start, offsetBy: length)
            parts.append(hex[start..<end])
            start = end
        }
        return parts.joined(separator: "-")
    }

    private static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
