import Catalog
import Foundation
import GRDB
import Geo
import Ingest
import SampleWorld
import Testing

/// Merge quality on the multi-format sample world, whose `labels.tsv` says which source
/// records are the same concert. Pairwise precision and recall over the records of the
/// formats Encore reads, printed, with the issue's floors.
struct MergeQualityTests {
    static let directory = TestSupport.fixture("sample-multi")
    /// One format per source (Songkick XML and Last.fm JSON repeat their sources' records).
    static let formats = ["songkick-json", "bandsintown", "ticketmaster", "lastfm-xml", "jsonld"]

    /// Two records of one concert merged, a third merged with them wrongly, its twin left
    /// apart: one of three merged pairs is right, one of two true pairs is found.
    @Test func scoresPairsOfRecordsAgainstTheLabels() {
        let labels = MergeScore.labels("source\tsource_id\tconcert\nsk\t1\tc1\nbit\t1\tc1\nsk\t2\tc2\nbit\t2\tc2\n")
        let records = [("sk", "1", 1), ("bit", "1", 1), ("sk", "2", 1), ("bit", "2", 2), ("jsonld", "x", 2)]
            .map { (key: MergeScore.key(source: $0.0, id: $0.1), event: Int64($0.2)) }
        let score = MergeScore(records: records, labels: labels)
        #expect(score.records == 5)
        // sk 1 and sk 2 are one source's: their pair is not scored.
        #expect((score.predicted, score.actual, score.found) == (3, 2, 1))
        #expect(score.precision == 1.0 / 3 && score.recall == 0.5)
    }

    /// Each pair counts in the variation classes its records show; "plain" only when
    /// neither shows another.
    @Test func scoresEachVariationClassOnItsOwn() {
        let text = """
            source\tsource_id\tconcert\tvariations
            sk\t1\tc1\tplain
            bit\t1\tc1\tdoors
            sk\t2\tc2\tplain
            bit\t2\tc2\tplain
            bit\t3\tm3\tmatinee
            """
        let records = [("sk", "1", 1), ("bit", "1", 2), ("sk", "2", 3), ("bit", "2", 3), ("bit", "3", 3)]
            .map { (key: MergeScore.key(source: $0.0, id: $0.1), event: Int64($0.2)) }
        let score = MergeScore(records: records, labels: MergeScore.labels(text), variations: MergeScore.variations(text))
        #expect(score.byVariation["doors"] == MergeScore.Counts(predicted: 0, actual: 1, found: 0))
        #expect(score.byVariation["plain"] == MergeScore.Counts(predicted: 1, actual: 1, found: 1))
        #expect(score.byVariation["matinee"] == MergeScore.Counts(predicted: 1, actual: 0, found: 0))
        #expect(score.byVariation["matinee"]?.precision == 0)
    }

    /// `formats` of a written world ingested in that order into a fresh catalog, placed as
    /// `encore ingest` places them (positions at a city's centre are approximate), scored
    /// against `labels` (the text of its `labels.tsv`).
    static func score(_ formats: [String], in directory: URL, labels: String) throws -> MergeScore {
        let (catalog, path) = try TestSupport.makeCatalog()
        let ingestion = FileIngestion(enrichment: GeoEnrichment(gazetteer: try Gazetteer.bundled()))
        let summary = ingestion.ingest(paths: formats.map { directory.appendingPathComponent($0).path }, into: catalog)
        #expect(summary.failures.map(\.description) == [])
        let records = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT source, source_id, entity_id FROM source_record WHERE kind = 'event'")
                .map { (key: MergeScore.key(source: $0[0] as String, id: $0[1] as String), event: $0[2] as Int64) }
        }
        return MergeScore(records: records, labels: MergeScore.labels(labels), variations: MergeScore.variations(labels))
    }

    /// A score's festival pairs, and all the others.
    static func festivalsAndOthers(_ score: MergeScore) -> (festivals: MergeScore.Counts, others: MergeScore.Counts) {
        let festivals = score.byVariation["festival"] ?? MergeScore.Counts()
        return (festivals, MergeScore.Counts(
            predicted: score.predicted - festivals.predicted, actual: score.actual - festivals.actual,
            found: score.found - festivals.found))
    }

    /// The benchmark's kind of world, small: Bandsintown lists Songkick's concerts with the
    /// variations real listings have, and lookalikes that are other concerts. Scored per
    /// variation class, in both orders of arrival, against the issue's bounds.
    @Test func mergesRealisticVariationsInEitherOrder() throws {
        let directory = try TestSupport.temporaryDirectory()
        let configuration = SampleWorld.Configuration(eventCount: 3000, realisticVariations: true)
        _ = try SampleWorld(configuration: configuration).write(formats: [.songkickJSON, .bandsintown], to: directory)
        let text = try String(contentsOf: directory.appendingPathComponent("labels.tsv"), encoding: .utf8)
        let variations = MergeScore.variations(text)
        #expect(Set(variations.values.joined()).isSuperset(of: [
            "plain", "city-centre", "venue-spelling", "doors", "feat", "festival", "early-late", "matinee", "namesake",
            "tribute", "similar-venue", "city-suffix", "type-word", "city-name", "no-position",
        ]))
        var scores: [MergeScore] = []
        for formats in [["songkick-json", "bandsintown"], ["bandsintown", "songkick-json"]] {
            let score = try Self.score(formats, in: directory, labels: text)
            print("realistic variations, \(formats.joined(separator: " then ")):", score.variationReport.joined(separator: "; "))
            scores.append(score)
        }
        #expect(scores[0].overall == scores[1].overall, "the same merges in either order")
        let score = scores[0]
        let (festivals, others) = Self.festivalsAndOthers(score)
        #expect(score.precision >= 0.995)
        #expect(others.recall >= 0.95)
        #expect(festivals.recall >= 0.90)
    }

    /// Ticketmaster as a third source, with its habits (sponsors' names, tour titles,
    /// listings without attractions, packages, parking passes, per-day festival tickets):
    /// scored in three orders of arrival against the issue's bounds.
    @Test func mergesTicketmastersHabitsInAnyOrder() throws {
        let directory = try TestSupport.temporaryDirectory()
        let configuration = SampleWorld.Configuration(eventCount: 3000, realisticVariations: true)
        _ = try SampleWorld(configuration: configuration)
            .write(formats: [.songkickJSON, .bandsintown, .ticketmaster], to: directory)
        let text = try String(contentsOf: directory.appendingPathComponent("labels.tsv"), encoding: .utf8)
        let variations = MergeScore.variations(text)
        #expect(Set(variations.values.joined()).isSuperset(of: [
            "sponsor", "tour-title", "headliner-only", "package", "parking", "festival-day",
        ]))
        var recalls: [Double] = []
        for formats in [
            ["songkick-json", "bandsintown", "ticketmaster"], ["ticketmaster", "songkick-json", "bandsintown"],
            ["bandsintown", "ticketmaster", "songkick-json"],
        ] {
            let score = try Self.score(formats, in: directory, labels: text)
            print("Ticketmaster's habits, \(formats.joined(separator: " then ")):", score.variationReport.joined(separator: "; "))
            let (festivals, others) = Self.festivalsAndOthers(score)
            #expect(score.precision >= 0.99)
            #expect(others.recall >= 0.90)
            #expect(festivals.recall >= 0.80)
            #expect(score.byVariation["parking"]?.predicted ?? 0 == 0, "a parking pass merged with a concert")
            recalls.append(score.recall)
        }
        #expect(recalls.max()! - recalls.min()! <= 0.02, "orders of arrival within 0.02: \(recalls)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: directory + "/labels.tsv")))
    func mergesTheSameConcertAcrossSourcesAndNothingElse() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let paths = Self.formats.map { Self.directory + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        let summary = TestSupport.ingest(paths, into: catalog)
        #expect(summary.failures.map(\.description) == [])

        let labels = MergeScore.labels(try String(contentsOfFile: Self.directory + "/labels.tsv", encoding: .utf8))
        let records = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT source, source_id, entity_id FROM source_record WHERE kind = 'event'")
                .map { (key: MergeScore.key(source: $0[0] as String, id: $0[1] as String), event: $0[2] as Int64) }
        }
        #expect(records.allSatisfy { labels[$0.key] != nil }, "every ingested record is labelled")
        let score = MergeScore(records: records, labels: labels)
        print(String(format: "merge quality over %d records: precision %.3f, recall %.3f (%d of %d same-concert pairs)",
                     score.records, score.precision, score.recall, score.found, score.actual))
        #expect(score.actual > 50, "the sample has overlaps to find")
        #expect(score.precision >= 0.99)
        #expect(score.recall >= 0.97)
    }

    /// All seven formats of the sample world in one catalog: each labelled concert is one
    /// event, and that event lists every source that had it.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: directory + "/labels.tsv")))
    func everyFormatTogetherShowsEachConcertOnceWithAllItsSources() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        // The formats the sample world writes (not iCalendar), each one Encore reads.
        let formats = SampleFormat.allCases.map(\.directoryName)
        #expect(formats.allSatisfy { IngesterRegistry.standard.ingester(named: $0) != nil })
        let paths = formats.map { Self.directory + "/" + $0 }
        #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "the sample has every format")
        let summary = TestSupport.ingest(paths, into: catalog)
        #expect(summary.failures.map(\.description) == [])
        var concerts: [String: (sources: Set<String>, events: Set<Int64>)] = [:]
        let labels = MergeScore.labels(try String(contentsOfFile: Self.directory + "/labels.tsv", encoding: .utf8))
        let rows = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT source, source_id, entity_id FROM source_record WHERE kind = 'event'")
        }
        for row in rows {
            let source: String = row[0]
            let concert = try #require(labels[MergeScore.key(source: source, id: row[1] as String)])
            concerts[concert, default: ([], [])].sources.insert(source)
            concerts[concert, default: ([], [])].events.insert(row[2])
        }
        let split = concerts.filter { $0.value.events.count > 1 }.keys.sorted()
        #expect(split == [], "concerts listed as more than one event")
        let events = try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM event") ?? 0 }
        #expect(events == concerts.count)
        #expect(concerts.values.contains { $0.sources.count >= 4 }, "some concerts are in four sources")
        // Two records of one source are two things, whatever the other sources say.
        let doubled = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: """
                SELECT kind || ' ' || entity_id || ': ' || group_concat(source_id, ', ') FROM source_record
                GROUP BY kind, entity_id, source HAVING count(*) > 1
                """)
        }
        #expect(doubled == [], "rows holding two records of one source")
    }
}
