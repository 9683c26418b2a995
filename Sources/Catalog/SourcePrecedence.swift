/// Which source's word counts when sources disagree about a shared row.
///
/// Each field of a merged row is taken from the highest-ranked record that has a value
/// (so an exact start time beats none, whoever ranks higher), with one exception: an
/// event's status comes from a source that sold tickets when there is one, since the
/// seller is the first to know of a cancellation. Ties break on source name, then on
/// the record's own id, so the result never depends on arrival order.
enum SourcePrecedence {
    /// Lower is more trusted.
    static func rank(_ source: String) -> Int {
        switch source {
        case "ticketmaster": return 0
        case "songkick": return 1
        case "seatgeek": return 2
        case "bandsintown": return 3
        case "jsonld": return 4
        // A feed's events are plain text to interpret: after JSON-LD; ties with Last.fm
        // break on name, which puts the venue's own feed first.
        case "ical": return 5
        case "lastfm": return 5
        case "geonames": return 9
        default: return 6
        }
    }

    /// Sources that sell the tickets they list and say when a show is off. SeatGeek sells
    /// tickets too, but mostly resold ones: it ranks after the box office (Ticketmaster)
    /// and the concert database (Songkick), ahead of the fan-facing sources, and it drops
    /// a cancelled show rather than marking it (its last word on any show is "normal"), so
    /// it does not decide status.
    static func sellsTickets(_ source: String) -> Bool {
        source == "ticketmaster"
    }

    static func ordered<T>(_ records: [(source: String, sourceID: String, value: T)]) -> [(source: String, sourceID: String, value: T)] {
        records.sorted { (rank($0.source), $0.source, $0.sourceID) < (rank($1.source), $1.source, $1.sourceID) }
    }
}
