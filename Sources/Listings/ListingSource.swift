/// A listing source as the catalog knows it: the name its records carry in provenance,
/// and how far its word counts when sources disagree about a row they share.
///
/// Each source declares its own in its folder of `Ingest`; the catalog stores it with the
/// source's records, so that a row rebuilt later (when a page of another source merges
/// into it) ranks this source's records without its ingester at hand.
public struct ListingSource: Sendable, Hashable {
    /// The name stored in provenance (`songkick`, `bandsintown`...).
    public var name: String
    /// Each field of a merged row comes from the record of the lowest rank that has a value;
    /// equal ranks break on the source's name.
    public var rank: Int
    /// Whether the source sells the tickets it lists and says when a show is off: an
    /// event's status comes from such a source when one listed it, whatever the ranks.
    public var sellsTickets: Bool

    public init(name: String, rank: Int, sellsTickets: Bool = false) {
        self.name = name
        self.rank = rank
        self.sellsTickets = sellsTickets
    }
}
