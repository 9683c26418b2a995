import Foundation
import SampleWorld
import Testing

struct SampleWorldTests {
    /// The committed sample is exactly what the generator writes: it can be regenerated,
    /// and nobody edits it by hand.
    @Test func regeneratingTheSampleGivesTheCommittedFiles() throws {
        let directory = try TestSupport.temporaryDirectory()
        let summary = try SampleWorld(configuration: .init()).writeSongkickJSON(to: directory)
        #expect(summary.events == 1000)
        let committed = URL(fileURLWithPath: TestSupport.fixture("sample"))
        let generated = try files(under: directory)
        #expect(generated == (try files(under: committed)))
        for relative in generated {
            let a = try Data(contentsOf: directory.appendingPathComponent(relative))
            let b = try Data(contentsOf: committed.appendingPathComponent(relative))
            #expect(a == b, "\(relative) differs from the generator's output")
        }
    }

    @Test func theSameSeedGivesTheSameWorldAndAnotherSeedAnother() throws {
        let first = try TestSupport.temporaryDirectory()
        let second = try TestSupport.temporaryDirectory()
        let third = try TestSupport.temporaryDirectory()
        _ = try SampleWorld(configuration: .init(seed: 7, eventCount: 200)).writeSongkickJSON(to: first)
        _ = try SampleWorld(configuration: .init(seed: 7, eventCount: 200)).writeSongkickJSON(to: second)
        _ = try SampleWorld(configuration: .init(seed: 8, eventCount: 200)).writeSongkickJSON(to: third)
        #expect(try contents(of: first) == contents(of: second))
        #expect(try contents(of: first) != contents(of: third))
    }

    private func files(under directory: URL) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".json") { files.append(path) }
        }
        return files.sorted()
    }

    private func contents(of directory: URL) throws -> [Data] {
        try files(under: directory).map { try Data(contentsOf: directory.appendingPathComponent($0)) }
    }
}
