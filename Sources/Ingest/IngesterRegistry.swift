/// The ingesters Encore knows, found by `--format` name or by content.
///
/// Registration is one explicit list, not discovery: adding a source is one line here.
public struct IngesterRegistry: Sendable {
    public let ingesters: [any Ingester]

    public init(_ ingesters: [any Ingester]) {
        self.ingesters = ingesters
    }

    /// Every source Encore ships with.
    public static let standard = IngesterRegistry([
        SongkickJSONIngester(),
        SongkickXMLIngester(),
        // Before Last.fm's event formats: a getSimilar response is an <lfm> page too.
        LastFMSimilarIngester(),
        ListenBrainzSimilarIngester(),
        LastFMXMLIngester(),
        LastFMJSONIngester(),
        BandsintownIngester(),
        TicketmasterIngester(),
        SeatGeekIngester(),
        JSONLDIngester(),
        ICalendarIngester(),
    ])

    /// The `--format` names, in registration order.
    public var formats: [String] { ingesters.map(\.format) }

    /// The file name endings of every format's files.
    public var fileExtensions: Set<String> { Set(ingesters.flatMap(\.fileExtensions)) }

    public func ingester(named format: String) -> (any Ingester)? {
        ingesters.first { $0.format == format }
    }

    /// The first ingester that recognizes the content, in registration order.
    public func detect(_ sample: ContentSample) -> (any Ingester)? {
        ingesters.first { $0.recognizes(sample) }
    }
}
