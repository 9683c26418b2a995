import Foundation
import ArgumentParser
import Catalog
import Geo
import Ingest
import Listings

extension Encore {
    struct Ingest: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ingest saved listing pages (files or directories) into the catalog.",
            discussion: """
                Each file is one page, applied in one transaction: a malformed page is reported \
                with its file and position, skipped, and the rest still land. Directories are \
                read recursively (\(IngesterRegistry.standard.fileExtensions.sorted().map { "." + $0 }.joined(separator: ", ")) \
                files), in path order. Exit \
                status 1 when any page failed.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var reporting: ReportingOptions

        @Option(help: ArgumentHelp("The listing format; detected from each file's content when omitted.", valueName: "name"))
        var format: String?

        @Option(
            name: .customLong("similar-to"),
            help: ArgumentHelp(
                "For similar-artist pages: the source's id of the artist they are for (else taken from the file name).",
                valueName: "id"))
        var similarTo: String?

        @Option(help: ArgumentHelp(
            "Where the pages' events are when an address leaves it open: an ISO country code or name (like GB).",
            valueName: "country"))
        var country: String?

        @Option(help: ArgumentHelp("A place the pages are about (like \"Bristol, GB\"), for the same purpose.", valueName: "place"))
        var place: String?

        @Option(
            name: .customLong("time-zone"),
            help: ArgumentHelp("The pages' IANA zone when neither the pages nor their places give one.", valueName: "zone"))
        var timeZone: String?

        @Argument(help: ArgumentHelp("Files or directories to ingest.", valueName: "path"))
        var paths: [String] = []

        func validate() throws {
            if paths.isEmpty { throw ValidationError("Give at least one file or directory to ingest.") }
            if let format, IngesterRegistry.standard.ingester(named: format) == nil {
                let known = IngesterRegistry.standard.formats.joined(separator: ", ")
                throw ValidationError("Unknown --format \"\(format)\". Known formats: \(known).")
            }
            if let country, CountryNames.code(for: country) == nil {
                throw ValidationError("Unknown --country \"\(country)\": give an ISO 3166 code or a country's name, like GB.")
            }
            if let timeZone, TimeZone(identifier: timeZone) == nil {
                throw ValidationError("Unknown --time-zone \"\(timeZone)\": give an IANA zone, like Europe/London.")
            }
        }

        func run() throws {
            let catalog = try global.openOrCreateCatalog()
            // Recurring events (iCalendar) are expanded over the same window a refresh uses.
            let today = global.currentDate
            var ingestion = FileIngestion(
                format: format, similarToArtist: similarTo, enrichment: GeoEnrichment(gazetteer: try Gazetteer.bundled()),
                window: DateWindow(from: today, to: today.adding(days: 365)))
            ingestion.sourceHint = PlaceEvidence(
                configuredCountry: country.flatMap(CountryNames.code(for:)), configuredPlace: place, configuredZone: timeZone)
            let reporter = IngestReporter(reporting)
            let summary = ingestion.ingest(paths: paths, into: catalog, progress: reporter.progress)
            reporter.finish(summary)
            if !summary.succeeded { throw ReportedFailure() }
        }
    }
}
