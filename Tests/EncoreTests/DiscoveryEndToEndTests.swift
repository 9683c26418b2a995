import Foundation
import SampleWorld
import Testing

/// `discover`, `onsale` and the ranked `feed` on a generated sample world: Songkick's and
/// Ticketmaster's listings (Ticketmaster's with on-sale and presale times) and similar
/// artists in ListenBrainz's and Last.fm's shapes, as `encore-sample --similar` writes.
@Suite(.serialized)
struct DiscoveryEndToEndTests {
    struct World {
        let scratch: CLIScratch
        let followed: String
        let home: (lat: Double, lng: Double)
        let city: String
    }

    /// Built once: generating and ingesting the world is the slow part.
    nonisolated(unsafe) static var built: Result<World, any Error>?

    static func world() throws -> World {
        if let built { return try built.get() }
        let result = Result { try build() }
        built = result
        return try result.get()
    }

    static func build() throws -> World {
        let scratch = try CLIScratch()
        let sample = SampleWorld(configuration: .init(eventCount: 1500))
        let directory = scratch.directory.appendingPathComponent("world")
        _ = try sample.write(formats: [.songkickJSON, .ticketmaster], to: directory)
        _ = try SimilarArtistsWriter(world: sample).write(to: directory)
        let ingest = try scratch.encore(["ingest", directory.path])
        guard ingest.status == 0 else { throw CLIScratchError(message: ingest.stderr) }
        let metros = try scratch.encore(["metros", "--json"]).json() as? [[String: Any]] ?? []
        let busiest = try #require(metros.max { ($0["upcoming_events"] as? Int ?? 0) < ($1["upcoming_events"] as? Int ?? 0) })
        let home = (lat: busiest["lat"] as? Double ?? 0, lng: busiest["lng"] as? Double ?? 0)
        let city = busiest["name"] as? String ?? ""
        let followed = sample.artists[0].displayName
        for user in ["fan", "hider"] {
            for command in [
                ["settings", "--user", user, "--home", "\(home.lat),\(home.lng)", "--radius", "300km"],
                ["track", "artist", followed, "--user", user],
            ] {
                let run = try scratch.encore(command)
                guard run.status == 0 else { throw CLIScratchError(message: "\(command): \(run.stderr)") }
            }
        }
        return World(scratch: scratch, followed: followed, home: home, city: city)
    }

    static func recommendations(_ world: World, user: String) throws -> [[String: Any]] {
        let run = try world.scratch.encore(["discover", "--json", "--user", user, "--to", "+240d"])
        return try run.json() as? [[String: Any]] ?? []
    }

    @Test func discoverRecommendsUnfollowedSimilarArtistsNearHomeBestFirst() throws {
        let world = try Self.world()
        let items = try Self.recommendations(world, user: "fan")
        #expect(!items.isEmpty)
        let scores = items.compactMap { $0["score"] as? Double }
        #expect(scores == scores.sorted(by: >))
        for item in items {
            let artist = (item["artist"] as? [String: Any])?["name"] as? String
            #expect(artist != world.followed)
            let reason = item["reason"] as? String ?? ""
            #expect(reason.contains(world.followed), "\(reason)")
            #expect((item["distance_km"] as? Double ?? .infinity) <= 300)
            let score = (item["similarity"] as? Double ?? 0) * (item["nearness"] as? Double ?? 0) * (item["soonness"] as? Double ?? 0)
            #expect(abs(score - (item["score"] as? Double ?? -1)) < 0.002)
        }
        // Same catalog, same answer.
        #expect(try world.scratch.encore(["discover", "--json", "--user", "fan", "--to", "+240d"]).stdout
            == (try world.scratch.encore(["discover", "--json", "--user", "fan", "--to", "+240d"]).stdout))
    }

    @Test func aHiddenArtistIsNeverRecommended() throws {
        let world = try Self.world()
        let first = try #require(try Self.recommendations(world, user: "hider").first)
        let name = try #require((first["artist"] as? [String: Any])?["name"] as? String)
        let hide = try world.scratch.encore(["discover", "--user", "hider", "--hide", name])
        #expect(hide.status == 0, "\(hide.stderr)")
        let after = try Self.recommendations(world, user: "hider")
        #expect(!after.contains { ($0["artist"] as? [String: Any])?["name"] as? String == name })
        let unhide = try world.scratch.encore(["discover", "--user", "hider", "--unhide", name])
        #expect(unhide.status == 0)
    }

    @Test func onsaleListsTicketsGoingOnSaleSoonestFirstAtLocalTime() throws {
        let world = try Self.world()
        let track = try world.scratch.encore(["track", "city", "\(world.home.lat),\(world.home.lng)", "--user", "buyer"])
        // A coordinate is no city: track the busiest metro's name instead.
        if track.status != 0 { _ = try world.scratch.encore(["track", "city", world.city, "--user", "buyer"]) }
        _ = try world.scratch.encore(["settings", "--user", "buyer", "--radius", "300km"])
        let run = try world.scratch.encore(["onsale", "--json", "--user", "buyer", "--days", "30"])
        #expect(run.status == 0, "\(run.stderr)")
        let entries = try #require(run.json() as? [[String: Any]])
        #expect(!entries.isEmpty)
        let times = entries.compactMap { $0["on_sale_utc"] as? String }
        #expect(times.count == entries.count)
        #expect(times == times.sorted())
        #expect(times.allSatisfy { $0 >= "2026-11-22T00:00:00Z" && $0 <= "2026-12-22T00:00:00Z" })
        #expect(entries.allSatisfy { $0["on_sale_local_time"] is String && $0["url"] is String })
        #expect(entries.contains { ($0["status"] as? String)?.hasPrefix("presale: ") == true })
        let table = try world.scratch.encore(["onsale", "--user", "buyer", "--days", "30"])
        #expect(table.stdout.contains("on-sale time"))
    }

    @Test func theFeedIsRankedWithItsPartsAndSortDateKeepsTheOldOrder() throws {
        let world = try Self.world()
        let ranked = try #require(try world.scratch.encore(["feed", "--json", "--user", "fan"]).json() as? [[String: Any]])
        #expect(!ranked.isEmpty)
        let totals = ranked.compactMap { ($0["score"] as? [String: Any])?["total"] as? Double }
        #expect(totals.count == ranked.count)
        #expect(totals == totals.sorted(by: >))
        let top = try #require(ranked.first?["score"] as? [String: Any])
        #expect(top["follow"] as? Double == 3, "a followed artist's show comes first: \(top)")
        let byDate = try #require(try world.scratch.encore(["feed", "--json", "--user", "fan", "--sort", "date"]).json() as? [[String: Any]])
        let dates = byDate.compactMap { (($0["event"] as? [String: Any])?["start"] as? [String: Any])?["local_date"] as? String }
        #expect(dates == dates.sorted())
        #expect(byDate.allSatisfy { $0["score"] == nil })
        let byDistance = try #require(
            try world.scratch.encore(["feed", "--json", "--user", "fan", "--sort", "distance"]).json() as? [[String: Any]])
        let distances = byDistance.compactMap { $0["distance_km"] as? Double }
        #expect(distances == distances.sorted())
        let explained = try world.scratch.encore(["feed", "--explain", "--user", "fan"])
        #expect(explained.stdout.contains("follow 3.00"), "\(explained.stdout.prefix(2000))")
    }

    @Test func theFansAtomFeedAnnouncesRecommendationsAndSalesOnceWithStableIDs() throws {
        let world = try Self.world()
        let out = world.scratch.directory.appendingPathComponent("feeds")
        let build = try world.scratch.encore(["build", "--out", out.path, "--publish-fans"])
        #expect(build.status == 0, "\(build.stderr)")
        let atom = try String(contentsOf: out.appendingPathComponent("users/fan/feed.atom"), encoding: .utf8)
        #expect(atom.contains(":user/fan/recommendation/"))
        let ids = atom.components(separatedBy: "<id>").dropFirst().map { $0.components(separatedBy: "</id>")[0] }
        #expect(Set(ids).count == ids.count, "each announced once")
        let again = try world.scratch.encore(["build", "--out", out.path, "--full", "--publish-fans"])
        #expect(again.status == 0)
        #expect(try String(contentsOf: out.appendingPathComponent("users/fan/feed.atom"), encoding: .utf8) == atom)
        // Band pages list similar artists with their upcoming shows.
        let artists = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("artists").path)
            .filter { $0.hasSuffix(".json") }
        var sawSimilar = false
        for file in artists.prefix(400) {
            let page = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("artists/" + file))) as? [String: Any]
            let similar = page?["similar"] as? [[String: Any]] ?? []
            if similar.contains(where: { ($0["upcoming"] as? Int ?? 0) > 0 }) {
                sawSimilar = true
                let html = try String(contentsOf: out.appendingPathComponent("artists/" + file.replacingOccurrences(of: ".json", with: ".html")), encoding: .utf8)
                #expect(html.contains("Similar artists playing soon"))
                break
            }
        }
        #expect(sawSimilar)
    }
}
