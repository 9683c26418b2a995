import Foundation
import Geo
import Listings

/// The artist a similar-artists list is for, as a source names it: by MusicBrainz id
/// (`mbid:…`) or by name (`name:<folded name>`). The catalog resolves either to its artist
/// when asked, so a list may come before any listing of the artist.
enum SimilarTarget {
    static func key(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("mbid:") || trimmed.hasPrefix("name:") { return trimmed }
        return ListeningTally.isMBID(trimmed.lowercased()) ? "mbid:" + trimmed.lowercased() : "name:" + NameFolding.fold(trimmed)
    }

    /// A query parameter of the page's URL (`artist_mbids=…`, `artist=…`).
    static func queryValue(_ name: String, in locator: String) -> String? {
        URLComponents(string: locator)?.queryItems?.first { $0.name == name }?.value.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A similar-artist source's configuration takes artists, nothing else.
    static func artistsOnly(_ api: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: ["metro_areas", "venues"].map { key in
            (key, "\(api) lists similar artists only: give artists (names or MusicBrainz ids), not \(key)")
        })
    }

    static func failure(_ error: ListeningImportError, locator: String) -> IngestError {
        IngestError(locator: locator, position: error.position, reason: .malformed(error.message))
    }
}

/// Which followed artists a similar-artist source is asked about in a run: at most `cap`,
/// taking turns by day so that every followed artist's list is asked for in
/// `count / cap` days, and a nightly run stays polite however many artists fans follow.
public enum SimilarArtistTurns {
    public static func artists(followed: [(name: String, mbid: String?)], listBrainzIDsOnly: Bool, cap: Int, today: LocalDate) -> [String] {
        // ListenBrainz knows artists by MusicBrainz id only; Last.fm by either.
        let asked = followed.compactMap { artist in listBrainzIDsOnly ? artist.mbid : (artist.mbid ?? artist.name) }
        guard cap > 0, !asked.isEmpty else { return [] }
        guard asked.count > cap else { return asked }
        let start = (today.daysSinceEpoch * cap) % asked.count
        return (0..<cap).map { asked[(start + $0) % asked.count] }
    }
}
