import Foundation
import Testing

/// `encore track import` on the bundled sample: matched by MusicBrainz id, then by name;
/// credits count for each act the catalog knows; a failing file changes nothing.
@Suite(.serialized)
struct TrackImportCLITests {
    let scratch: CLIScratch

    init() throws {
        scratch = try CLIScratch(ingesting: "sample")
    }

    func listening(_ file: String) -> String { TestSupport.fixture("listening/" + file) }

    func trackedNames(_ user: String) throws -> [String] {
        let run = try scratch.encore(["tracked", "--json", "--user", user])
        return try (run.json() as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test func aDryRunShowsTheListAndFollowsNothing() throws {
        let run = try scratch.encore(["track", "import", "--dry-run", "--user", "dry", listening("Streaming_History_Audio_2026.json")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Would follow"), "\(run.stdout)")
        #expect(run.stdout.contains("Spotify extended streaming history, 5 records"), "\(run.stdout)")
        #expect(try trackedNames("dry").isEmpty)
    }

    @Test func importFollowsTheMostPlayedMatchingCreditsAndNamesNotInTheCatalog() throws {
        let run = try scratch.encore([
            "track", "import", "--json", "--user", "ana", listening("Streaming_History_Audio_2026.json"),
            listening("StreamingHistory_music_0.json"),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let matches = try #require(run.json() as? [[String: Any]])
        func outcome(_ name: String) -> (String?, [String]) {
            let match = matches.first { ($0["listened"] as? [String: Any])?["name"] as? String == name }
            return (match?["outcome"] as? String, (match?["artists"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        }
        #expect(outcome("Mavi Vapur").0 == "followed")
        // The catalog knows both acts of the credit: it counts for each.
        #expect(outcome("Mavi Vapur feat. Uzak Kuşlar").1 == ["Mavi Vapur", "Uzak Kuşlar"])
        // One act whose name has an "&": not split.
        #expect(outcome("Κατερίνα Οικονόμου & the Giants").1 == ["Κατερίνα Οικονόμου & the Giants"])
        #expect(outcome("Some Band Nobody Lists").0 == "not_in_catalog")
        let tracked = try trackedNames("ana")
        #expect(tracked.contains("Uzak Kuşlar") && tracked.contains("Mavi Vapur"))
        let table = try scratch.encore(["tracked", "--user", "ana"])
        #expect(table.stdout.contains("(not in the catalog yet)"), "\(table.stdout)")
        // Importing again: already followed.
        let again = try scratch.encore(["track", "import", "--user", "ana", listening("StreamingHistory_music_0.json")])
        #expect(again.stdout.contains("Followed 0; already followed 2"), "\(again.stdout)")
    }

    @Test func topAndMinPlaysLimitWhatIsFollowed() throws {
        let run = try scratch.encore([
            "track", "import", "--json", "--user", "few", "--top", "1", "--min-plays", "2", listening("lastfm-topartists.xml"),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let matches = try #require(run.json() as? [[String: Any]])
        #expect(matches.count == 1)
        #expect(try trackedNames("few") == ["Mavi Vapur"])
    }

    @Test func aBadFileAmongGoodOnesChangesNothingAndSaysWhere() throws {
        let bad = listening("bad/lastfm-bad-row.csv")
        let run = try scratch.encore(["track", "import", "--user", "bo", listening("lastfm-scrobbles.csv"), bad])
        #expect(run.status == 2)
        #expect(run.stderr.contains("\(bad): at line 2"), "\(run.stderr)")
        #expect(run.stderr.contains("nothing was imported"))
        #expect(try trackedNames("bo").isEmpty)
    }
}
