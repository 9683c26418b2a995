import Foundation
import GRDB

/// Pairwise merge precision and recall of a catalog against the generated world's
/// `labels.tsv` (source, source id, concert): a pair of event records is predicted the
/// same concert when they are on one catalog event, and is the same concert when their
/// labels agree.
struct MergeQuality {
    var records = 0
    var predicted = 0
    var actual = 0
    var found = 0

    var precision: Double { predicted == 0 ? 1 : Double(found) / Double(predicted) }
    var recall: Double { actual == 0 ? 1 : Double(found) / Double(actual) }

    static func measure(catalog: String, labels path: String) throws -> MergeQuality {
        var labels: [String: Int] = [:]
        var concerts: [String: Int] = [:]
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let concert = concerts[String(fields[2])] ?? concerts.count
            concerts[String(fields[2]), default: concert] = concert
            labels[fields[0] + "\u{1F}" + fields[1]] = concert
        }
        var byEvent: [Int64: [Int]] = [:]
        var perConcert: [Int: Int] = [:]
        var quality = MergeQuality()
        let database = try DatabaseQueue(path: catalog)
        try database.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT source, source_id, entity_id FROM source_record WHERE kind = 'event'")
            while let row = try rows.next() {
                quality.records += 1
                // An unlabelled record is a concert of its own.
                let concert = labels[(row[0] as String) + "\u{1F}" + (row[1] as String)] ?? -quality.records
                byEvent[row[2], default: []].append(concert)
                perConcert[concert, default: 0] += 1
            }
        }
        func pairs(_ count: Int) -> Int { count * (count - 1) / 2 }
        quality.actual = perConcert.values.reduce(0) { $0 + pairs($1) }
        for concertsOfEvent in byEvent.values {
            quality.predicted += pairs(concertsOfEvent.count)
            var counts: [Int: Int] = [:]
            for concert in concertsOfEvent { counts[concert, default: 0] += 1 }
            quality.found += counts.values.reduce(0) { $0 + pairs($1) }
        }
        return quality
    }
}
