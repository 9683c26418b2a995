import ArgumentParser
import Catalog
import Foundation
import Ingest

extension Encore {
    struct Sources: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the listing formats Encore reads and how many records each source gave.",
            discussion: """
                Records are counted per source: Songkick's JSON and XML give the same records, \
                so they share one count. Without a catalog the counts are 0.
                """)

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        /// A source, the formats it is read in, and the records it gave.
        struct Entry: Encodable {
            let source: String
            let formats: [String]
            let records: Int
        }

        func run() throws {
            // A list of what Encore reads is useful before there is a catalog; it makes none.
            let counts = FileManager.default.fileExists(atPath: global.databasePath)
                ? try global.openCatalog().stats(today: global.currentDate).sources : [:]
            var entries: [Entry] = []
            for ingester in IngesterRegistry.standard.ingesters {
                let source = ingester.source.name
                if let index = entries.firstIndex(where: { $0.source == source }) {
                    let entry = entries[index]
                    entries[index] = Entry(source: entry.source, formats: entry.formats + [ingester.format], records: entry.records)
                } else {
                    entries.append(Entry(source: source, formats: [ingester.format], records: counts[source] ?? 0))
                }
            }
            if json { return try Output.json(entries) }
            Output.line(Output.table(
                [["source", "formats", "records"]]
                    + entries.map { [$0.source, $0.formats.joined(separator: ", "), String($0.records)] }))
        }
    }
}
