/// The listing sources of the multi-format world, by the names the ingesters record in
/// provenance (and `labels.tsv` uses). Songkick's JSON and XML are one source, as are
/// Last.fm's: each pair lists the same records with the same ids.
enum SampleSource: Int, CaseIterable, Sendable {
    case songkick, ticketmaster, bandsintown, lastfm, jsonld, seatgeek

    var name: String {
        switch self {
        case .songkick: "songkick"
        case .ticketmaster: "ticketmaster"
        case .bandsintown: "bandsintown"
        case .lastfm: "lastfm"
        case .jsonld: "jsonld"
        case .seatgeek: "seatgeek"
        }
    }

    var set: SourceSet { SourceSet(rawValue: 1 << UInt8(rawValue)) }
}

/// A set of ``SampleSource``s in one byte.
struct SourceSet: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    static let songkick = SampleSource.songkick.set
    static let ticketmaster = SampleSource.ticketmaster.set
    static let bandsintown = SampleSource.bandsintown.set
    static let lastfm = SampleSource.lastfm.set
    static let jsonld = SampleSource.jsonld.set
    static let seatgeek = SampleSource.seatgeek.set

    func contains(_ source: SampleSource) -> Bool {
        contains(source.set)
    }

    var count: Int { rawValue.nonzeroBitCount }
}

extension SampleFormat {
    /// The source a format's records belong to.
    var sampleSource: SampleSource {
        switch self {
        case .songkickJSON, .songkickXML: .songkick
        case .bandsintown: .bandsintown
        case .ticketmaster: .ticketmaster
        case .lastfmXML, .lastfmJSON: .lastfm
        case .jsonld: .jsonld
        case .seatgeek: .seatgeek
        }
    }

    /// The provenance name of the format's source (`songkick`, `lastfm`...), as in `labels.tsv`.
    public var source: String { sampleSource.name }
}
