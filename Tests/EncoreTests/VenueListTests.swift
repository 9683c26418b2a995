import Foundation
@testable import Ingest
import SampleWorld
import Testing

/// A scene's venues listed in a file (`urls_file`), its sitemaps, and the run's limits on
/// connections, as `encore.toml` says them.
struct VenueListTests {
    static func write(_ venues: String, config extra: String = "") throws -> String {
        let folder = try TestSupport.temporaryDirectory()
        try venues.write(to: folder.appendingPathComponent("venues.txt"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("encore.toml").path
        try """
            max_connections = 4
            [[source]]
            name = "bilbao"
            format = "jsonld"
            urls_file = "venues.txt"
            contact = "ops@example.org"
            \(extra)
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aVenueListIsReadBesideTheConfigurationAndABadLineIsNamedByNumber() throws {
        let path = try Self.write("""
            # Bilbao's venues, one calendar a line

            https://sala-itsaso.example/agenda
            https://teatro.example/calendar#this-week   # the fragment stays, the comment goes
            sala-jaguar.example/events
            """)
        let configuration = try SourcesConfiguration(parsing: String(contentsOfFile: path, encoding: .utf8), file: path)
        let source = try #require(configuration.sources.first)
        #expect(source.urls.map(\.absoluteString) == ["https://sala-itsaso.example/agenda", "https://teatro.example/calendar#this-week"])
        #expect(source.urlListProblems.map(\.line) == [5])
        #expect(source.urlListProblems.first?.description == "venues.txt:5: not an http(s) URL: \"sala-jaguar.example/events\"; this line is skipped")
        #expect(configuration.maxConnections == 4)

        let check = try CLIRun.run(["config", "check", "--config", path])
        #expect(check.status == 3)
        #expect(check.stderr.contains("error: venues.txt:5: not an http(s) URL"), "\(check.stderr)")
    }

    @Test func aMissingVenueListIsAnErrorOnItsKeysLine() throws {
        let folder = try TestSupport.temporaryDirectory()
        let text = """
            [[source]]
            name = "bilbao"
            format = "jsonld"
            urls_file = "nowhere.txt"
            contact = "ops@example.org"
            """
        let path = folder.appendingPathComponent("encore.toml").path
        #expect(throws: ConfigurationError.self) { try SourcesConfiguration(parsing: text, file: path) }
        do {
            _ = try SourcesConfiguration(parsing: text, file: path)
        } catch {
            #expect(error.line == 4 && error.description.contains("urls_file \"nowhere.txt\" cannot be read"))
        }
    }

    @Test func sitemapsAndConnectionLimitsAreRead() throws {
        let path = try Self.write("https://sala.example/agenda\n", config: """
            sitemaps = true
            sitemap = "https://teatro.example/sitemap_index.xml"
            connections_per_host = 2
            """)
        let source = try #require(try SourcesConfiguration(parsing: String(contentsOfFile: path, encoding: .utf8), file: path).sources.first)
        #expect(source.readsSitemaps && source.connectionsPerHost == 2)
        #expect(source.sitemapURLs.map(\.absoluteString) == ["https://teatro.example/sitemap_index.xml"])

        for (text, line) in [("max_connections = 0\n", 1), ("[[source]]\nname = \"x\"\nformat = \"jsonld\"\nurls = [\"https://a.example/\"]\ncontact = \"o@example.org\"\nsitemaps = \"yes\"\n", 6)] {
            do {
                _ = try SourcesConfiguration(parsing: text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.line == line, "\(error)")
            }
        }
    }

    @Test func sitemapsAreReadWhetherIndexesGzippedOrNotAndABrokenOneNamesItsLine() throws {
        let index = try Sitemap(Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("sitemaps/index.xml"))), locator: "index.xml")
        #expect(index.isIndex && index.entries.map(\.location).count == 2)
        let plain = try Sitemap(Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("sitemaps/events.xml"))), locator: "events.xml")
        let zipped = try Sitemap(
            Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("sitemaps/events.xml.gz"))), locator: "events.xml.gz")
        #expect(plain == zipped && !plain.isIndex)
        #expect(plain.entries.map(\.location) == (1...3).map { "https://sala.example/events/\($0)" }, "an entry without loc is passed over")
        // A date alone means the end of that day; a time without seconds is read too.
        #expect(plain.entries[0].lastModified == ISO8601DateFormatter().date(from: "2026-12-01T00:00:00Z"))
        #expect(plain.entries[1].lastModified == ISO8601DateFormatter().date(from: "2026-12-01T19:15:00Z"))
        #expect(plain.entries[2].lastModified == nil)
        let broken = try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixture("sitemaps/broken.xml")))
        do throws(IngestError) {
            _ = try Sitemap(broken, locator: "broken.xml")
            Issue.record("a broken sitemap was read")
        } catch {
            #expect(error.description.hasPrefix("broken.xml"), "\(error)")
            #expect(error.position?.hasPrefix("line ") == true, "\(error)")
        }
    }

    @Test func aGzipBombStopsAtTheBound() {
        let bomb = Data(repeating: 0x20, count: 4 * 1024 * 1024)
        let compressed = Self.gzip(bomb)
        let result = Sitemap.gunzip(compressed, capacity: 1024 * 1024)
        #expect(result?.truncated == true && result?.data.count == 1024 * 1024)
        #expect(Sitemap.gunzip(Data([0x1f, 0x8b, 0, 1, 2])) == nil, "corrupt gzip")
    }

    /// Compresses with the system's gzip, which every test machine has.
    static func gzip(_ data: Data) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try? process.run()
        DispatchQueue.global().async {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return compressed
    }
}
