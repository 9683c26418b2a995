import Foundation
import Ingest
import SampleWorld
import Testing

/// An API key with URL-reserved characters never reaches a message, the catalog or the
/// feeds, in any spelling: raw, percent-encoded (either hex case, a space as `%20` or `+`),
/// inside a redirect's `Location`, or echoed by the source in the links it lists.
struct SecretRedactionTests {
    static let key = "Zq7+r/t=Key&x 9%"
    /// The key as people and programs write it, spelt out here rather than derived.
    static let spellings = [
        "Zq7+r/t=Key&x 9%", "Zq7%2Br%2Ft%3DKey%26x%209%25", "Zq7%2br%2ft%3dKey%26x%209%25", "Zq7%2Br%2Ft%3DKey%26x+9%25",
        "Zq7+r/t=Key&x%209%25", "Zq7+r\\/t=Key&x 9%",
    ]

    @Test(arguments: spellings)
    func everySpellingOfAKeyIsRedacted(spelling: String) {
        let redaction = SecretRedaction([Self.key])
        #expect(redaction.redact("GET http://h/x?apikey=\(spelling)&page=2") == "GET http://h/x?apikey=REDACTED&page=2")
        let page = Data("{\"uri\": \"http://h/e?apikey=\(spelling)\"}".utf8)
        #expect(redaction.redact(page) == Data("{\"uri\": \"http://h/e?apikey=REDACTED\"}".utf8))
    }

    @Test func aKeyOfLettersAndDigitsHasOneSpellingAndNoKeyChangesNothing() {
        #expect(SecretRedaction(["abc123"]).spellings == ["abc123"])
        let page = Data("abc".utf8)
        #expect(SecretRedaction([]).redact(page) == page)
    }

    /// A refresh whose source echoes the key in its event links, fails one page and
    /// redirects another to a second host: stderr (text and JSON lines), `runs --json`,
    /// the catalog's files and the feed tree hold no spelling of the key.
    @Test func aRefreshLeavesTheKeyNowhere() throws {
        let directory = try TestSupport.temporaryDirectory()
        let calendar = try String(
            contentsOfFile: TestSupport.fixture("songkick-json/metro-24426-calendar.json"), encoding: .utf8)
        // The source echoes the key, as Bandsintown does its app_id, in two spellings.
        let echoed = calendar.replacingOccurrences(
            of: "-at-roundhouse\"", with: "-at-roundhouse?apikey=\(Self.spellings[1])&x=\(Self.spellings[2])\"")
        #expect(echoed != calendar)
        let elsewhere = try LocalHTTPServer { _ in .init(status: 200) }
        defer { elsewhere.stop() }
        let server = try LocalHTTPServer { request in
            guard request.query["apikey"] == Self.key else { return .init(status: 403) }
            switch request.path {
            case "/metro_areas/24426/calendar.json": return .init(status: 200, body: Data(echoed.utf8))
            case "/metro_areas/1/calendar.json": return .init(status: 404)
            default:
                let location = "http://localhost:\(elsewhere.port)/away?apikey=\(Self.spellings[2])"
                return .init(status: 302, headers: ["Location": location])
            }
        }
        defer { server.stop() }
        let config = directory.appendingPathComponent("sources.toml")
        try Data(
            """
            [[source]]
            name = "songkick"
            format = "songkick-json"
            base_url = "\(server.baseURL.absoluteString)"
            api_key_env = "ENCORE_TEST_KEY"
            metro_areas = ["24426", "1", "2"]
            requests_per_second = 1000

            """.utf8
        ).write(to: config)
        let db = directory.appendingPathComponent("catalog.sqlite").path
        let out = directory.appendingPathComponent("feeds")
        var printed = ""
        for format in ["text", "json"] {
            let run = try CLIRun.run(
                ["refresh", "--db", db, "--config", config.path, "--out", out.path, "--log-format", format, "--today", "2026-11-22"],
                environment: ["ENCORE_TEST_KEY": Self.key])
            #expect(run.status == 1, "two listings fail: \(run.stderr)")
            printed += run.stdout + run.stderr
        }
        #expect(printed.contains("REDACTED"), "\(printed)")
        let runs = try CLIRun.run(["runs", "--db", db, "--json"])
        #expect(runs.status == 0)
        var stored = printed + runs.stdout
        for suffix in ["", "-wal"] {
            if let data = FileManager.default.contents(atPath: db + suffix) { stored += String(decoding: data, as: UTF8.self) }
        }
        let files = try #require(FileManager.default.enumerator(at: out, includingPropertiesForKeys: nil)?.allObjects as? [URL])
        #expect(files.count > 10)
        for file in files {
            if let data = FileManager.default.contents(atPath: file.path) { stored += String(decoding: data, as: UTF8.self) }
        }
        #expect(stored.contains("roundhouse?apikey=REDACTED"), "the echoed link is kept, redacted")
        // Every spelling starts with the key's first characters, which nothing else writes.
        #expect(!stored.contains("Zq7"), "\(stored.components(separatedBy: "Zq7").dropFirst().first?.prefix(80) ?? "")")
    }
}
