import Foundation

/// Similar-artist lists in the shapes of the sources open today, for the most popular
/// artists: `similar/listenbrainz/{mbid}.json` (ListenBrainz's similar-artists API: an
/// array of `{artist_mbid, name, comment, type, gender, score, reference_mbid}`, scores
/// relative) for those with a MusicBrainz id, and `similar/lastfm/{id}.json` (Last.fm's
/// `artist.getSimilar`: `{"similarartists": {"artist": [{name, mbid, match, url}],
/// "@attr": {"artist"}}}`), every fifth also as `.xml`. Similar means the same genre,
/// most popular first, as the Songkick lists this world writes.
public struct SimilarArtistsWriter {
    public let world: SampleWorld
    /// How many of the most popular artists get lists.
    public var artists = 60
    /// How long each list is.
    public var length = 20

    public init(world: SampleWorld) {
        self.world = world
    }

    public func write(to directory: URL) throws -> WriteSummary {
        let root = try SampleFileOutput.replaceDirectory(directory.appendingPathComponent("similar", isDirectory: true))
        let listenBrainz = root.appendingPathComponent("listenbrainz", isDirectory: true)
        let lastfm = root.appendingPathComponent("lastfm", isDirectory: true)
        try FileManager.default.createDirectory(at: listenBrainz, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: lastfm, withIntermediateDirectories: true)
        var output = SampleFileOutput()
        for index in world.artists.indices.prefix(artists) {
            let artist = world.artists[index]
            let similar = world.artists.indices.filter { $0 != index && world.artists[$0].genre == artist.genre }
                .sorted { (world.artists[$0].popularity, -$0) > (world.artists[$1].popularity, -$1) }.prefix(length)
            if let mbid = artist.musicBrainzIDs.first {
                var json = JSONBuffer()
                json.raw("[")
                // ListenBrainz lists only artists MusicBrainz knows.
                for (rank, other) in similar.filter({ !world.artists[$0].musicBrainzIDs.isEmpty }).enumerated() {
                    if rank > 0 { json.raw(",") }
                    json.raw("{\"artist_mbid\":")
                    json.string(world.artists[other].musicBrainzIDs[0])
                    json.raw(",\"comment\":\"\",\"gender\":null,\"name\":")
                    json.string(world.artists[other].displayName)
                    json.raw(",\"reference_mbid\":")
                    json.string(mbid)
                    json.raw(",\"score\":")
                    json.int(max(1, 9000 - 371 * rank))
                    json.raw(",\"type\":\"Group\"}")
                }
                json.raw("]")
                try output.save(json, to: listenBrainz.appendingPathComponent("\(mbid).json"))
            }
            var json = JSONBuffer()
            json.raw("{\"similarartists\":{\"artist\":[")
            for (rank, other) in similar.enumerated() {
                if rank > 0 { json.raw(",") }
                json.raw("{\"name\":")
                json.string(world.artists[other].displayName)
                json.raw(",\"mbid\":")
                json.string(world.artists[other].musicBrainzIDs.first ?? "")
                json.raw(",\"match\":\"")
                json.raw(Array(Self.match(rank).utf8))
                json.raw("\",\"url\":")
                json.string("https://www.last.fm/music/" + Slug.make(world.artists[other].displayName))
                json.raw(",\"streamable\":\"0\"}")
            }
            json.raw("],\"@attr\":{\"artist\":")
            json.string(artist.displayName)
            json.raw("}}}")
            try output.save(json, to: lastfm.appendingPathComponent("artist-\(artist.id).json"))
            if index % 5 == 0 {
                var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<lfm status=\"ok\">\n<similarartists artist=\"\(Self.escape(artist.displayName))\">\n"
                for (rank, other) in similar.enumerated() {
                    xml += "<artist><name>\(Self.escape(world.artists[other].displayName))</name>"
                        + "<mbid>\(world.artists[other].musicBrainzIDs.first ?? "")</mbid><match>\(Self.match(rank))</match>"
                        + "<url>https://www.last.fm/music/\(Slug.make(world.artists[other].displayName))</url><streamable>0</streamable></artist>\n"
                }
                xml += "</similarartists></lfm>\n"
                var buffer = JSONBuffer()
                buffer.raw(Array(xml.utf8))
                try output.save(buffer, to: lastfm.appendingPathComponent("artist-\(artist.id).xml"))
            }
        }
        return output.summary
    }

    /// Last.fm's match: 1 for the closest, then down by 0.04 a rank.
    static func match(_ rank: Int) -> String {
        String(format: "%.6f", max(0.05, 1 - 0.04 * Double(rank)))
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
