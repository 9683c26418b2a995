import Foundation
import Testing

@testable import Feeds

struct FeedTreeRemovalTests {
    @Test func removingATreeDeletesEveryFileAndFolderUnderItAndNothingBesideIt() throws {
        let base = try TestSupport.temporaryDirectory()
        let tree = base.appendingPathComponent("tree")
        for folder in ["events", "artists/deep/deeper", "empty"] {
            try FileManager.default.createDirectory(at: tree.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for index in 0..<500 { try Data("\(index)".utf8).write(to: tree.appendingPathComponent("events/\(index).json")) }
        try Data("x".utf8).write(to: tree.appendingPathComponent("artists/deep/deeper/band.html"))
        try Data("beside".utf8).write(to: base.appendingPathComponent("tree.json"))
        var files: [String] = []
        FileTreeWalk.forEachFile(under: tree.path, skipping: ["artists"]) { files.append($0); return true }
        #expect(files.count == 500 && files.allSatisfy { $0.hasPrefix("events/") })

        try FileTreeWalk.remove(tree.path)
        #expect(!FileManager.default.fileExists(atPath: tree.path))
        #expect(FileManager.default.fileExists(atPath: base.appendingPathComponent("tree.json").path))
        try FileTreeWalk.remove(tree.path)  // already gone: nothing to do
    }

    @Test func aFullBuildOverAnEarlierTreeKeepsWhatIsUnchangedAndRemovesWhatItNoLongerWrites() throws {
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        let writer = FeedTreeWriter(outputDirectory: out, preserving: ["schema"])
        var tree = FeedTree()
        for index in 0..<20 { try tree.add("events/\(index).json", Data("event \(index)".utf8)) }
        try tree.add("index.json", Data("index".utf8))
        _ = try writer.write(tree)
        // The live tree as a hand or an older build left it: one file edited, one the
        // next build does not write, and a committed schema.
        try Data("edited".utf8).write(to: out.appendingPathComponent("events/3.json"))
        try Data("gone".utf8).write(to: out.appendingPathComponent("events/99.json"))
        try FileManager.default.createDirectory(at: out.appendingPathComponent("schema"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: out.appendingPathComponent("schema/event.schema.json"))
        let before = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("events/5.json").path)

        let report = try writer.write(tree)
        #expect(report.written == 1 && report.unchanged == 20 && report.removed == 1)
        #expect(try Data(contentsOf: out.appendingPathComponent("events/3.json")) == Data("event 3".utf8))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("events/99.json").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("schema/event.schema.json").path))
        // Unchanged files are the same files, linked rather than written again.
        let after = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("events/5.json").path)
        #expect(after[.systemFileNumber] as? UInt64 == before[.systemFileNumber] as? UInt64)
    }
}
