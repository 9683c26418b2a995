import ArgumentParser
import Catalog
import Ingest

extension Encore {
    struct Sources: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the listing formats Encore reads and how many records each source gave.")

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        struct Entry: Encodable {
            let format: String
            let source: String
            let records: Int
        }

        func run() throws {
            let counts = try global.openCatalog().stats(today: global.currentDate).sources
            let entries = IngesterRegistry.standard.ingesters.map {
                Entry(format: $0.format, source: $0.source, records: counts[$0.source] ?? 0)
            }
            if json { return try Output.json(entries) }
            Output.line(Output.table([["format", "source", "records"]] + entries.map { [$0.format, $0.source, String($0.records)] }))
        }
    }
}
