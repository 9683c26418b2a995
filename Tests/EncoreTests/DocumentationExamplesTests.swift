import Foundation
import Testing

/// Every console example in the docs (README.md, CONTRIBUTING.md, docs/*.md) is run
/// against the bundled sample world on the day the docs were written, and must print what
/// the docs show, so the docs cannot drift from the program.
///
/// The rules, for whoever writes an example:
/// - a ` ```console ` block holds `$ encore …` commands (or `$ swift run encore …`), each
///   followed by its output (stderr, then stdout); a line `...` stands for any lines;
/// - a command shown without output only has to succeed;
/// - a `# comment` after a command is left out; `> FILE` sends its output to a file;
/// - a block of other commands (a shell pipeline, a server) is ` ```sh `, not checked.
/// Each file runs in order against its own fresh catalog of the sample, in a scratch
/// folder where `Fixtures/` is the repository's.
struct DocumentationExamplesTests {
    /// The day the examples' output was recorded (`ENCORE_TODAY`).
    static let day = "2026-11-22"

    struct Example: CustomStringConvertible {
        var file: String
        var line: Int
        var arguments: [String]
        var redirect: String?
        var expected: [String]
        var description: String { "\(file):\(line): encore \(arguments.joined(separator: " "))" }
    }

    static var documents: [String] {
        let root = TestSupport.packageRoot
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        return ["README.md", "CONTRIBUTING.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// The examples of one document, in order.
    static func examples(in document: String) throws -> [Example] {
        let text = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent(document), encoding: .utf8)
        var examples: [Example] = []
        var inConsole = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                inConsole = !inConsole && line == "```console"
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ ") {
                var words = try shellWords(String(line.dropFirst(2)))
                var redirect: String?
                if let arrow = words.firstIndex(of: ">"), arrow + 1 < words.count {
                    redirect = words[arrow + 1]
                    words.removeSubrange(arrow...)
                }
                if words.starts(with: ["swift", "run", "encore"]) { words.removeFirst(2) }
                #expect(words.first == "encore", "\(document):\(index + 1): a console example runs encore; use ```sh for others")
                examples.append(Example(file: document, line: index + 1, arguments: Array(words.dropFirst()), redirect: redirect, expected: []))
            } else if !examples.isEmpty {
                examples[examples.count - 1].expected.append(String(line))
            }
        }
        return examples
    }

    /// A command line's words: quotes group, `#` starts a comment.
    static func shellWords(_ line: String) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == "#", !inWord {
                break
            } else if character == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// Whether `actual` is `expected`, where a line `...` stands for any lines.
    static func matches(_ expected: [String], _ actual: [String]) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "..." {
            return (0...actual.count).contains { matches(Array(expected.dropFirst()), Array(actual.dropFirst($0))) }
        }
        guard let line = actual.first, line == first else { return false }
        return matches(Array(expected.dropFirst()), Array(actual.dropFirst()))
    }

    static func trimmed(_ lines: [String]) -> [String] {
        var lines = lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        return lines
    }

    /// A scratch folder with the sample's catalog (none when the document's examples make
    /// it), and `Fixtures` linked in.
    static func sampleFolder(filled: Bool) throws -> URL {
        let folder = try TestSupport.temporaryDirectory()
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("Fixtures"), withDestinationURL: TestSupport.packageRoot.appendingPathComponent("Fixtures"))
        guard filled else { return folder }
        let refresh = try CLIRun.run(["refresh", "--no-build", "--quiet"], environment: environment(folder), in: folder)
        #expect(refresh.status == 0, "\(refresh.stderr)")
        return folder
    }

    static func environment(_ folder: URL) -> [String: String] {
        ["ENCORE_DB": folder.appendingPathComponent("encore.sqlite").path, "ENCORE_TODAY": day, "ENCORE_USER": "me", "COLUMNS": "200"]
    }

    @Test(arguments: documents)
    func everyConsoleExamplePrintsWhatTheDocsShow(document: String) throws {
        let examples = try Self.examples(in: document)
        guard !examples.isEmpty else { return }
        let folder = try Self.sampleFolder(filled: examples.first?.arguments.first != "refresh")
        for example in examples {
            let run = try CLIRun.run(example.arguments, environment: Self.environment(folder), in: folder)
            let expected = Self.trimmed(example.expected)
            if let redirect = example.redirect {
                try run.stdout.write(to: folder.appendingPathComponent(redirect), atomically: true, encoding: .utf8)
            }
            if expected.isEmpty {
                #expect(run.status == 0, "\(example) failed: \(run.stderr)")
                continue
            }
            let output = (run.stderr.isEmpty ? "" : run.stderr) + (example.redirect == nil ? run.stdout : "")
            let actual = Self.trimmed(output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            #expect(Self.matches(expected, actual), "\(example) printed:\n\(actual.joined(separator: "\n"))")
        }
    }

    @Test func theExampleMatcherSkipsElidedLinesOnly() {
        #expect(Self.matches(["a", "...", "d"], ["a", "b", "c", "d"]))
        #expect(Self.matches(["a", "..."], ["a"]))
        #expect(!Self.matches(["a", "...", "d"], ["a", "b", "c"]))
        #expect(!Self.matches(["a", "b"], ["a", "c"]))
        #expect((try? Self.shellWords(#"encore track artist "Mavi Vapur"   # also: venues"#)) == ["encore", "track", "artist", "Mavi Vapur"])
    }
}
