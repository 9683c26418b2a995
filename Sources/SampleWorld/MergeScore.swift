/// Pairwise merge precision and recall against a generated world's `labels.tsv`: a pair
/// of source records is predicted the same concert when a catalog put them on one event,
/// and is the same concert when their labels agree. An unlabelled record is a concert of
/// its own.
public struct MergeScore: Sendable {
    public private(set) var records = 0
    public private(set) var predicted = 0
    public private(set) var actual = 0
    public private(set) var found = 0

    public var precision: Double { predicted == 0 ? 1 : Double(found) / Double(predicted) }
    public var recall: Double { actual == 0 ? 1 : Double(found) / Double(actual) }

    /// `labels.tsv` (a header, then source, source id, concert) as "source␟id" → concert.
    public static func labels(_ text: String) -> [String: String] {
        var labels: [String: String] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count == 3 { labels[key(source: fields[0], id: fields[1])] = String(fields[2]) }
        }
        return labels
    }

    public static func key(source: some StringProtocol, id: some StringProtocol) -> String {
        source + "\u{1F}" + id
    }

    /// Scores `records` (each record's label key and the catalog event holding it).
    public init(records: some Sequence<(key: String, event: Int64)>, labels: [String: String]) {
        var byEvent: [Int64: [String]] = [:]
        var perConcert: [String: Int] = [:]
        for record in records {
            self.records += 1
            let concert = labels[record.key] ?? "unlabelled " + record.key
            byEvent[record.event, default: []].append(concert)
            perConcert[concert, default: 0] += 1
        }
        func pairs(_ count: Int) -> Int { count * (count - 1) / 2 }
        actual = perConcert.values.reduce(0) { $0 + pairs($1) }
        for concerts in byEvent.values {
            predicted += pairs(concerts.count)
            var counts: [String: Int] = [:]
            for concert in concerts { counts[concert, default: 0] += 1 }
            found += counts.values.reduce(0) { $0 + pairs($1) }
        }
    }
}
