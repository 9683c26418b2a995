import Foundation
import Testing

@testable import Feeds

/// What a build leaves for the next one must read back exactly, or not at all.
struct FeedBuildStateTests {
    @Test func concertPagesAreKeptByIdWithoutHashesOnlyUnderThePathsABuildWrites() {
        #expect(FeedFileHashes.eventFile("events/7.json")! == (7, 0))
        #expect(FeedFileHashes.eventFile("events/7.html")! == (7, 1))
        #expect(FeedFileHashes.eventFile("events/7.ics")! == (7, 2))
        #expect(FeedFileHashes.eventFile("events/0.json")! == (0, 0))
        for path in [
            "events/007.json", "events/+7.json", "events/.json", "events/.ics", "events/7/page-2.json", "venues/7.json",
            "events/99999999999999999999.json", "events/7.json.json", "events/7.atom",
        ] {
            #expect(FeedFileHashes.eventFile(path) == nil, "\(path)")
        }
        var hashes = FeedFileHashes()
        hashes.insert("events/7.json", hash: 1)
        hashes.insert("events/7.ics", hash: 4)
        hashes.insert("events/007.json", hash: 2)
        hashes.insert("artists/band.json", hash: 3)
        hashes.insert("artists/band.json", hash: 5)
        #expect(hashes.count == 4)
        #expect(hashes.contains("events/7.json") && hashes.contains("events/7.ics") && !hashes.contains("events/7.html"))
        #expect(hashes.hash(of: "events/7.json") == nil, "a concert page's hash is not kept")
        #expect(hashes.hash(of: "events/007.json") == 2 && hashes.hash(of: "artists/band.json") == 5)
        #expect(["events/7.json", "events/7.ics", "events/007.json", "artists/band.json"].allSatisfy(hashes.contains))
        #expect(hashes.remove("events/7.json") && !hashes.remove("events/7.json"))
        #expect(!hashes.contains("events/7.json") && hashes.contains("events/7.ics") && hashes.count == 3)
        hashes.remove("events/7.ics")
        #expect(hashes.contains("events/007.json") && hashes.contains("artists/band.json") && hashes.count == 2)
        #expect(!hashes.contains("events/7.ics"))
    }

    @Test func anEventTableFindsEveryIdWhateverOrderTheyArriveInAndListsThemInIdOrder() {
        var table = EventTable<String>()
        for id: Int64 in [3, 5, 9, 4, 12, 1] { table[id] = "v\(id)" }
        table[5] = nil
        table[4] = nil
        table[4] = "again"
        table[9] = "nine"
        #expect(table.count == 5)
        #expect(table[1] == "v1" && table[3] == "v3" && table[4] == "again" && table[5] == nil && table[9] == "nine")
        #expect(table[12] == "v12" && table[2] == nil && table[13] == nil)
        var visited: [Int64] = []
        table.forEach { id, _ in visited.append(id) }
        #expect(visited == [1, 3, 4, 9, 12])
        #expect(table.filter { id, _ in id > 3 }.values == ["again", "nine", "v12"])
        let same: EventTable<String> = [12: "v12", 9: "nine", 4: "again", 3: "v3", 1: "v1"]
        #expect(table == same)
        table[5] = "back"
        #expect(table != same && table[5] == "back")
    }

    @Test func aSavedStateReadsBackAsItWasWrittenAndADamagedOneNotAtAll() throws {
        var files = FeedFileHashes()
        files.insert("events/12.json", hash: 9)
        files.insert("events/12.html", hash: 0)
        files.insert("metros/1.json", hash: 8)
        let state = FeedBuildState(
            today: "2026-11-22", revision: 42, liveInode: 7, spareInode: 8, files: files,
            changedInLastBuild: ["metros/1.json"],
            entries: [12: RenderedEvents.Location(offset: 0, length: 49)],
            entriesLength: 13, eventPages: [12, 13],
            lists: [.metroArea(1): FeedListRecord(events: [12, 13], pages: 1), .artist(5): FeedListRecord(events: [12, 13], similar: [6], pages: 1, upcoming: 1)],
            slugs: [5: "band"])
        let path = try TestSupport.temporaryDirectory().appendingPathComponent("state").path
        try state.write(to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.withUnsafeBytes { FeedBuildState(decoding: $0) } == state)
        // Lists a full build spooled as it rendered them read back as if kept in the state.
        // So do files other than concert pages.
        let spool = try StateSpool(directory: TestSupport.temporaryDirectory().path)
        let fileSpool = try StateSpool(directory: TestSupport.temporaryDirectory().path)
        var spooled = state
        spooled.lists = [.metroArea(1): state.lists[.metroArea(1)]!]
        try spool.append(.artist(5), state.lists[.artist(5)]!)
        spooled.files.remove("metros/1.json")
        try fileSpool.append("metros/1.json", hash: 8)
        try spooled.write(to: path + ".spooled", spooledLists: spool, spooledFiles: fileSpool)
        let spooledData = try Data(contentsOf: URL(fileURLWithPath: path + ".spooled"))
        #expect(spooledData.withUnsafeBytes { FeedBuildState(decoding: $0) } == state)
        // A full build names no concert page: every event with a page has its three files.
        var whole = state
        whole.files = FeedFileHashes()
        whole.files.insert("metros/1.json", hash: 8)
        try whole.write(to: path + ".whole", allConcertPages: true)
        let wholeData = try Data(contentsOf: URL(fileURLWithPath: path + ".whole"))
        let read = try #require(wholeData.withUnsafeBytes { FeedBuildState(decoding: $0) })
        #expect(read.files.count == 7 && read.files.contains("events/13.ics") && read.files.hash(of: "metros/1.json") == 8)
        // Cut short (a full disk, say): no state, so the next build is a full one.
        #expect(Data(data.dropLast(3)).withUnsafeBytes { FeedBuildState(decoding: $0) } == nil)
    }
}
