import Catalog
import Foundation
import GRDB
import Ingest
import Testing

/// Merge quality on the multi-format sample world, whose `labels.tsv` says which source
/// records are the same concert. Pairwise precision and recall over the records of the
/// formats Encore reads, printed, with the floors.
struct MergeQualityTests {
    static let directory = TestSupport.fixture("sample-multi")
    /// One format per source (Songkick XML and Last.fm JSON repeat their sources' records).
    static let formats = ["songkick-json", "bandsintown", "ticketmaster", "lastfm-xml", "jsonld"]

    @Test(.enabled(if: FileManager.default.fileExists(atPath: directory + "/labels.tsv")))
    func mergesTheSameConcertAcrossSourcesAndNothingElse() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let paths = Self.formats.map { Self.directory + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        let summary = TestSupport.ingest(paths, into: catalog)
        #expect(summary.failures.map(\.description) == [])

        var labels: [String: String] = [:]
        let text = try String(contentsOfFile: Self.directory + "/labels.tsv", encoding: .utf8)
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.count == 3 { labels[fields[0] + "\u{1F}" + fields[1]] = fields[2] }
        }
        let records = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT source, source_id, entity_id FROM source_record WHERE kind = 'event'")
                .map { (key: ($0[0] as String) + "\u{1F}" + ($0[1] as String), event: $0[2] as Int64) }
        }
        #expect(records.allSatisfy { labels[$0.key] != nil }, "every ingested record is labelled")
        var predicted = 0
        var actual = 0
        var both = 0
        for i in records.indices {
            for j in records.indices where j > i {
                let same = records[i].event == records[j].event
                let truth = labels[records[i].key] != nil && labels[records[i].key] == labels[records[j].key]
                if same { predicted += 1 }
                if truth { actual += 1 }
                if same && truth { both += 1 }
            }
        }
        let precision = predicted == 0 ? 1 : Double(both) / Double(predicted)
        let recall = actual == 0 ? 1 : Double(both) / Double(actual)
        print(String(format: "merge quality over %d records: precision %.3f, recall %.3f (%d of %d same-concert pairs)",
                     records.count, precision, recall, both, actual))
        #expect(actual > 50, "the sample has overlaps to find")
        #expect(precision >= 0.99)
        #expect(recall >= 0.97)
    }

    /// All seven formats of the sample world in one catalog: each labelled concert is one
    /// event, and that event lists every source that had it.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: directory + "/labels.tsv")))
    func everyFormatTogetherShowsEachConcertOnceWithAllItsSources() throws {
        let (catalog, path) = try TestSupport.makeCatalog()
        let formats = IngesterRegistry.standard.formats
        let paths = formats.map { Self.directory + "/" + $0 }
        #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "the sample has every format")
        let summary = TestSupport.ingest(paths, into: catalog)
        #expect(summary.failures.map(\.description) == [])
        var concerts: [String: (sources: Set<String>, events: Set<Int64>)] = [:]
        let text = try String(contentsOfFile: Self.directory + "/labels.tsv", encoding: .utf8)
        var labels: [String: String] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.count == 3 { labels[fields[0] + "\u{1F}" + fields[1]] = fields[2] }
        }
        let rows = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT source, source_id, entity_id FROM source_record WHERE kind = 'event'")
        }
        for row in rows {
            let source: String = row[0]
            let concert = try #require(labels[source + "\u{1F}" + (row[1] as String)])
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
