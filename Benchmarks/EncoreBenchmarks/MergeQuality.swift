import Foundation
import GRDB
import SampleWorld

extension MergeScore {
    /// The score of a catalog's event records against the world's `labels.tsv`.
    static func measure(catalog: String, labels path: String) throws -> MergeScore {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let labels = MergeScore.labels(text)
        let records = try DatabaseQueue(path: catalog).read { db in
            try Row.fetchAll(db, sql: "SELECT source, source_id, entity_id FROM source_record WHERE kind = 'event'")
                .map { (key: MergeScore.key(source: $0[0] as String, id: $0[1] as String), event: $0[2] as Int64) }
        }
        return MergeScore(records: records, labels: labels, variations: MergeScore.variations(text))
    }
}
