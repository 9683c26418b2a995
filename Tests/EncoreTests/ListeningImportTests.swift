import Foundation
@testable import Ingest
import Listings
import Testing

/// `encore track import` reads each export by its content, summing listening per artist.
struct ListeningImportTests {
    static func tally(_ files: String...) throws -> ListeningTally {
        var tally = ListeningTally()
        for file in files { try tally.read(file: TestSupport.fixture("listening/" + file)) }
        return tally
    }

    static func plays(_ tally: ListeningTally) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: tally.ranked.map { ($0.name, $0.plays) })
    }

    @Test func spotifyLibraryCountsSavedTracksAndFollowedArtists() throws {
        let tally = try Self.tally("YourLibrary.json")
        #expect(tally.files.map(\.kind) == [.spotifyLibrary])
        #expect(Self.plays(tally) == ["Mavi Vapur": 2, "Tessa Whitlock": 1, "Uzak Kuşlar": 1])
    }

    @Test func spotifyHistoryCountsAPlayFromThirtySecondsAndTimeAlways() throws {
        let tally = try Self.tally("StreamingHistory_music_0.json")
        #expect(tally.files.map(\.kind) == [.spotifyHistory])
        let otis = try #require(tally.ranked.first { $0.name == "Otis Marsh" })
        #expect(otis.plays == 0 && otis.millisecondsPlayed == 9067)
        #expect(tally.ranked.first?.name == "Mavi Vapur")
        #expect(tally.ranked.first?.millisecondsPlayed == 536_561)
    }

    @Test func extendedHistorySkipsPodcastsAndKeepsCreditsWhole() throws {
        let tally = try Self.tally("Streaming_History_Audio_2026.json")
        #expect(tally.files.first?.records == 5)
        #expect(Self.plays(tally) == [
            "Mavi Vapur": 1, "Tessa Whitlock": 0, "Mavi Vapur feat. Uzak Kuşlar": 1, "Κατερίνα Οικονόμου & the Giants": 1,
        ])
    }

    @Test func lastfmScrobblesWithAndWithoutAHeader() throws {
        let plain = try Self.tally("lastfm-scrobbles.csv")
        #expect(Self.plays(plain) == ["Mavi Vapur": 2, "Κατερίνα Οικονόμου & the Giants": 1, "Tessa Whitlock": 1])
        // Under a header, MusicBrainz ids merge spellings ("MAVI VAPUR" folds the same anyway).
        let headed = try Self.tally("lastfm-scrobbles-header.csv")
        #expect(headed.ranked.first.map { ($0.name, $0.plays, $0.musicBrainzID) }! == ("Mavi Vapur", 2, "1f2857e9-147e-41b9-b160-28f5842f5e17"))
    }

    @Test(arguments: ["lastfm-topartists.xml", "lastfm-topartists.json"])
    func lastfmTopArtistsGivePlaycountsAndIDs(file: String) throws {
        let tally = try Self.tally(file)
        #expect(tally.files.map(\.kind) == [.lastfmTopArtists])
        #expect(tally.ranked.first.map { ($0.name, $0.plays, $0.musicBrainzID) }! == ("Mavi Vapur", 412, "1f2857e9-147e-41b9-b160-28f5842f5e17"))
        #expect(tally.ranked.contains { $0.name == "Les Orages Dorés" && $0.plays == 97 })
    }

    @Test func listenBrainzLinesAndArraysMergeSpellingsByMusicBrainzID() throws {
        let tally = try Self.tally("listenbrainz-listens.jsonl", "listenbrainz-listens.json")
        #expect(tally.files.map(\.kind) == [.listenBrainz, .listenBrainz])
        // "Mavi Vapour" shares Mavi Vapur's id: one artist.
        #expect(Self.plays(tally) == ["Mavi Vapur": 2, "Deniz Güneş": 2, "Tessa Whitlock": 1])
    }

    @Test func appleMusicLibraryReadsPlayCountsOfTracks() throws {
        let tally = try Self.tally("Library.xml")
        #expect(tally.files.first?.records == 3)
        #expect(Self.plays(tally) == ["Mavi Vapur": 12, "Κατερίνα Οικονόμου & the Giants": 5])
    }

    @Test func formatsAreToldByContentNotByName() throws {
        let directory = try TestSupport.temporaryDirectory()
        let renamed = directory.appendingPathComponent("Streaming_History_Audio_2026.json").path
        try FileManager.default.copyItem(atPath: TestSupport.fixture("listening/Library.xml"), toPath: renamed)
        var tally = ListeningTally()
        try tally.read(file: renamed)
        #expect(tally.files.map(\.kind) == [.appleMusicLibrary])
    }

    @Test func creditsNameEachActOfFeatAndAmpersand() {
        #expect(ListeningTally.credits(of: "Mavi Vapur feat. Uzak Kuşlar") == ["Mavi Vapur", "Uzak Kuşlar"])
        #expect(ListeningTally.credits(of: "Simon & Garfunkel") == ["Simon", "Garfunkel"])
        #expect(ListeningTally.credits(of: "Mavi Vapur").isEmpty)
    }

    @Test(arguments: [
        ("bad/Streaming_History_Audio_truncated.json", "truncated"),
        ("bad/lastfm-bad-row.csv", "line 2"),
        ("bad/not-an-export.txt", "not a listening export"),
    ])
    func aBadFileNamesItselfAndWhere(file: String, expected: String) throws {
        var tally = try Self.tally("YourLibrary.json")
        let before = tally.ranked
        let path = TestSupport.fixture("listening/" + file)
        do {
            try tally.read(file: path)
            Issue.record("\(file) was read")
        } catch {
            #expect(error.description.hasPrefix(path), "\(error)")
            #expect(error.description.contains(expected), "\(error)")
        }
        #expect(tally.ranked == before, "a file that fails adds nothing")
    }

    @Test func aHugeHistoryIsReadInChunksAcrossBufferEdges() throws {
        // Records straddle the 1 MB chunks: every one must still be counted.
        let directory = try TestSupport.temporaryDirectory()
        let path = directory.appendingPathComponent("history.json").path
        let record = #"{"ts":"2026-06-15T10:30:00Z","ms_played":40000,"master_metadata_album_artist_name":"Band \"Ünïcode\" \u00e9"}"#
        let count = 3 * ByteStream.chunkSize / record.utf8.count + 7
        try ("[" + Array(repeating: record, count: count).joined(separator: ",\n") + "]").write(toFile: path, atomically: true, encoding: .utf8)
        var tally = ListeningTally()
        try tally.read(file: path)
        #expect(tally.ranked.map(\.name) == ["Band \"Ünïcode\" é"])
        #expect(tally.ranked.first?.plays == count)
    }
}
