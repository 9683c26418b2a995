/// Pairwise merge precision and recall against a generated world's `labels.tsv`: a pair
/// of two sources' records is predicted the same concert when a catalog put them on one
/// event, and is the same concert when their labels agree. An unlabelled record is a
/// concert of its own. Pairs of one source's records are not scored: a festival listed
/// per set has many records of one source that are one concert, and whether they meet
/// says nothing about merging sources.
///
/// With a fourth `variations` column (worlds written with realistic variations), each
/// pair also counts in every variation class either of its records shows ("plain" when
/// neither shows one), so a score says which variation the misses and the wrong merges
/// come from.
public struct MergeScore: Sendable {
    /// Pairs predicted, actual and found, and what they make.
    public struct Counts: Sendable, Equatable {
        public internal(set) var predicted = 0
        public internal(set) var actual = 0
        public internal(set) var found = 0

        public init(predicted: Int = 0, actual: Int = 0, found: Int = 0) {
            self.predicted = predicted
            self.actual = actual
            self.found = found
        }

        public var precision: Double { predicted == 0 ? 1 : Double(found) / Double(predicted) }
        public var recall: Double { actual == 0 ? 1 : Double(found) / Double(actual) }
    }

    public private(set) var records = 0
    public private(set) var overall = Counts()
    /// Variation class → its pairs' counts (empty without a `variations` column).
    public private(set) var byVariation: [String: Counts] = [:]

    public var predicted: Int { overall.predicted }
    public var actual: Int { overall.actual }
    public var found: Int { overall.found }
    public var precision: Double { overall.precision }
    public var recall: Double { overall.recall }

    /// `labels.tsv` (a header, then source, source id, concert and perhaps variations) as
    /// "source␟id" → concert.
    public static func labels(_ text: String) -> [String: String] {
        rows(text).mapValues(\.concert)
    }

    /// The `variations` column of `labels.tsv` as "source␟id" → its classes (empty
    /// without the column).
    public static func variations(_ text: String) -> [String: [String]] {
        rows(text).compactMapValues(\.variations)
    }

    private static func rows(_ text: String) -> [String: (concert: String, variations: [String]?)] {
        var rows: [String: (concert: String, variations: [String]?)] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3 || fields.count == 4 else { continue }
            rows[key(source: fields[0], id: fields[1])] = (
                String(fields[2]), fields.count == 4 ? fields[3].split(separator: ",").map(String.init) : nil
            )
        }
        return rows
    }

    public static func key(source: some StringProtocol, id: some StringProtocol) -> String {
        source + "\u{1F}" + id
    }

    private struct Scored {
        let concert: String
        let source: Substring
        let variations: [String]
    }

    /// Scores `records` (each record's label key and the catalog event holding it).
    public init(
        records: some Sequence<(key: String, event: Int64)>, labels: [String: String],
        variations: [String: [String]] = [:]
    ) {
        var byEvent: [Int64: [Scored]] = [:]
        var byConcert: [String: [Scored]] = [:]
        for record in records {
            self.records += 1
            let concert = labels[record.key] ?? "unlabelled " + record.key
            let source = record.key.split(separator: "\u{1F}", maxSplits: 1).first ?? ""
            let scored = Scored(concert: concert, source: source, variations: variations[record.key] ?? [])
            byEvent[record.event, default: []].append(scored)
            byConcert[concert, default: []].append(scored)
        }
        let classified = !variations.isEmpty
        func eachPair(_ group: [Scored], _ body: (Scored, Scored) -> Void) {
            for (index, a) in group.enumerated() {
                for b in group[(index + 1)...] where a.source != b.source { body(a, b) }
            }
        }
        func count(_ a: Scored, _ b: Scored, _ field: WritableKeyPath<Counts, Int>) {
            overall[keyPath: field] += 1
            guard classified else { return }
            var classes = Set(a.variations + b.variations)
            if classes.count > 1 { classes.remove("plain") }
            for variation in classes { byVariation[variation, default: Counts()][keyPath: field] += 1 }
        }
        for group in byConcert.values {
            eachPair(group) { count($0, $1, \.actual) }
        }
        for group in byEvent.values {
            eachPair(group) { a, b in
                count(a, b, \.predicted)
                if a.concert == b.concert { count(a, b, \.found) }
            }
        }
    }

    /// One line per variation class, by name: its pairs and what they make.
    public var variationReport: [String] {
        byVariation.keys.sorted().map { name in
            let counts = byVariation[name]!
            return "\(name): precision \(Self.fraction(counts.precision)), recall \(Self.fraction(counts.recall))"
                + " (\(counts.found) of \(counts.actual) same-concert pairs found, \(counts.predicted) merged)"
        }
    }

    private static func fraction(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let digits = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - digits.count) + digits
    }
}
