import Foundation
import Ingest
import Testing

/// Which files `encore ingest DIRECTORY` reads, and in what order.
struct ListingFilesTests {
    @Test func aDirectoryIsReadRecursivelyInPathOrderSkippingHiddenEntriesAndOtherFiles() throws {
        let root = try TestSupport.temporaryDirectory().appendingPathComponent("crawl")
        let manager = FileManager.default
        func touch(_ relative: String) throws {
            let url = root.appendingPathComponent(relative)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: url)
        }
        for file in [
            "artists/b.json", "artists/a.JSON", "artists-z.xml", "metro/page-1.html", "metro/page-2.htm",
            "venue.jsonld", "notes.txt", "README", ".hidden.json", ".cache/page.json", "artists/.draft.json",
        ] {
            try touch(file)
        }
        let outside = try TestSupport.temporaryDirectory()
        try Data("{}".utf8).write(to: outside.appendingPathComponent("linked.json"))
        try manager.createSymbolicLink(
            atPath: root.appendingPathComponent("link.json").path, withDestinationPath: outside.appendingPathComponent("linked.json").path)
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("elsewhere").path, withDestinationPath: outside.path)

        let files = try FileIngestion.listingFiles(at: root.path).map { String($0.dropFirst(root.path.count + 1)) }
        #expect(files == [
            "artists-z.xml", "artists/a.JSON", "artists/b.json", "link.json", "metro/page-1.html", "metro/page-2.htm",
            "venue.jsonld",
        ])
        // A trailing slash names the same files.
        #expect(try FileIngestion.listingFiles(at: root.path + "/").count == files.count)
    }

    @Test func aFileNamedExplicitlyIsReadWhateverItsName() throws {
        let file = try TestSupport.temporaryDirectory().appendingPathComponent("response.txt")
        try Data("{}".utf8).write(to: file)
        #expect(try FileIngestion.listingFiles(at: file.path) == [file.path])
    }

    @Test func aMissingPathIsAnErrorNamingIt() throws {
        let missing = try TestSupport.temporaryDirectory().appendingPathComponent("nowhere").path
        #expect(throws: IngestError.self) { try FileIngestion.listingFiles(at: missing) }
    }
}
