import GRDB
import Listings

/// Which source's word counts when sources disagree about a shared row.
///
/// Each field of a merged row is taken from the highest-ranked record that has a value
/// (so an exact start time beats none, whoever ranks higher), with one exception: an
/// event's status comes from a source that sells tickets when there is one, since the
/// seller is the first to know of a cancellation. Ties break on source name, then on
/// the record's own id, so the result never depends on arrival order.
///
/// Each source declares its rank (``ListingSource``); a page records its source's in the
/// `source` table, so rows are ranked by what the catalog holds, whichever source's page
/// is being applied.
enum SourcePrecedence {
    /// A source the `source` table does not hold, which no page applied since it
    /// existed has named: after every source that declared a rank.
    static let unrankedRank = 6

    /// Records `source`'s rank as the catalog's, for the rows its records are in.
    static func record(_ source: ListingSource, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO source (name, rank, sells_tickets) VALUES (?1, ?2, ?3)
            ON CONFLICT (name) DO UPDATE SET rank = ?2, sells_tickets = ?3 WHERE rank <> ?2 OR sells_tickets <> ?3
            """
        ).execute(arguments: [source.name, source.rank, source.sellsTickets])
    }

    /// `records`, most trusted first.
    static func ordered<T>(
        _ records: [(source: String, sourceID: String, value: T)], in db: Database
    ) throws -> [(source: String, sourceID: String, value: T)] {
        guard let first = records.first?.source, records.contains(where: { $0.source != first }) else {
            return records.sorted { $0.sourceID < $1.sourceID }
        }
        let ranks = try self.ranks(in: db)
        func rank(_ source: String) -> Int { ranks[source]?.rank ?? unrankedRank }
        return records.sorted { (rank($0.source), $0.source, $0.sourceID) < (rank($1.source), $1.source, $1.sourceID) }
    }

    /// The sources of `records` that sell tickets; none when every record is one source's
    /// (then its most trusted record decides the status anyway).
    static func ticketSellers<T>(among records: [(source: String, sourceID: String, value: T)], in db: Database) throws -> Set<String> {
        guard let first = records.first?.source, records.contains(where: { $0.source != first }) else { return [] }
        let ranks = try self.ranks(in: db)
        return Set(records.map(\.source).filter { ranks[$0]?.sellsTickets == true })
    }

    private static func ranks(in db: Database) throws -> [String: (rank: Int, sellsTickets: Bool)] {
        var ranks: [String: (rank: Int, sellsTickets: Bool)] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT name, rank, sells_tickets FROM source"))
        while let row = try rows.next() { ranks[row[0]] = (row[1], row[2]) }
        return ranks
    }
}
