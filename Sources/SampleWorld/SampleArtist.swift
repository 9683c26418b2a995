/// A performer with an invented name (from word lists, never a real act's tour dates).
public struct SampleArtist: Sendable, Hashable {
    public let id: Int
    public let displayName: String
    /// Fake but well-formed MusicBrainz ids: none for some artists, two for a few,
    /// as Songkick returns them.
    public let musicBrainzIDs: [String]
    /// One coarse tag ("indie", "jazz"...), used for lineups and similar-artist lists.
    public let genre: String
    /// 0...1, highest for artist 0; popular artists headline bigger rooms more often.
    public let popularity: Double
}
