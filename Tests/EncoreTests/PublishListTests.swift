import Catalog
import Feeds
import Foundation
import Testing

/// Each build tells the publisher exactly which files it wrote or removed
/// (`.<name>.state/publish-pending`), so a publish puts and deletes those alone.
extension IncrementalFeedTests {
    /// The paths the builds listed since the last call, sorted and once each; the list is
    /// taken, as a publisher takes it.
    func takePublishList(_ writer: FeedTreeWriter) throws -> [String] {
        guard let text = try? String(contentsOfFile: writer.publishListPath, encoding: .utf8) else { return [] }
        try FileManager.default.removeItem(atPath: writer.publishListPath)
        return Set(text.split(separator: "\n").map(String.init)).sorted()
    }

    /// Paths added, changed or removed from `before` to `after`.
    func differences(_ before: [String: Data], _ after: [String: Data]) -> [String] {
        Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    @Test func everyBuildListsForThePublisherExactlyTheFilesItWroteOrRemoved() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("sample-multi")], into: catalog)
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        let writer = FeedTreeWriter(outputDirectory: out)

        _ = try builder(catalog).write(to: writer)
        #expect(try takePublishList(writer) == ["*"], "a first build cannot list its files: publish everything")
        _ = try builder(catalog).write(to: writer)
        #expect(try takePublishList(writer) == [], "nothing changed, nothing to publish")

        var removals = 0
        for round in 1...3 {
            let before = try files(under: out)
            try relistWithChanges(into: catalog, round: round)
            // The third round is a full build over the live tree.
            let outcome = try builder(catalog).write(to: writer, full: round == 3)
            #expect(outcome.incremental == (round != 3))
            let after = try files(under: out)
            let listed = try takePublishList(writer)
            #expect(listed == differences(before, after), "round \(round)")
            #expect(!listed.isEmpty)
            removals += listed.filter { after[$0] == nil }.count
        }
        #expect(removals > 0, "the rounds remove files too (a list page gone), so deletions are listed")
    }

    @Test func buildsBetweenTwoPublishesAddUpTheirChanges() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([TestSupport.fixture("sample-multi")], into: catalog)
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("feeds")
        let writer = FeedTreeWriter(outputDirectory: out)
        _ = try builder(catalog).write(to: writer)
        _ = try takePublishList(writer)
        let published = try files(under: out)
        for round in 1...2 {
            try relistWithChanges(into: catalog, round: round)
            _ = try builder(catalog).write(to: writer)
        }
        // Every difference since the publish is listed; a file changed and changed back
        // may be listed too (put again, harmlessly).
        let listed = Set(try takePublishList(writer))
        let changed = differences(published, try files(under: out))
        #expect(listed.isSuperset(of: changed) && !changed.isEmpty, "\(Set(changed).subtracting(listed).sorted())")
    }
}
