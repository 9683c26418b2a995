/// Everything one page of one source's response says, normalized.
///
/// A page is the unit of ingestion: the catalog applies it in one transaction, so it
/// lands whole or not at all.
public struct ListingPage: Sendable, Hashable {
    /// Who listed the page, and how far its word counts against other sources'.
    public var listingSource: ListingSource
    /// The source name stored in provenance (`songkick`, `bandsintown`...).
    public var source: String { listingSource.name }
    /// Where the page came from (a file path or URL), for messages.
    public var locator: String
    // Each change to the listings drops what was derived from them, in place: a
    // `didSet` made every `append` copy the array.
    public var events: [EventListing] {
        get { storedEvents }
        set { dropDerivedValues(); storedEvents = newValue }
        _modify { dropDerivedValues(); yield &storedEvents }
    }
    /// Artists listed on their own (artist search), not only inside events.
    public var artists: [ArtistListing] {
        get { storedArtists }
        set { dropDerivedValues(); storedArtists = newValue }
        _modify { dropDerivedValues(); yield &storedArtists }
    }
    /// Venues listed on their own (venue details).
    public var venues: [VenueListing] {
        get { storedVenues }
        set { dropDerivedValues(); storedVenues = newValue }
        _modify { dropDerivedValues(); yield &storedVenues }
    }
    /// Metro areas listed on their own (location search).
    public var metroAreas: [MetroAreaListing] {
        get { storedMetroAreas }
        set { dropDerivedValues(); storedMetroAreas = newValue }
        _modify { dropDerivedValues(); yield &storedMetroAreas }
    }
    private var storedEvents: [EventListing]
    private var storedArtists: [ArtistListing]
    private var storedVenues: [VenueListing]
    private var storedMetroAreas: [MetroAreaListing]
    public var similarArtists: SimilarArtistsListing?
    /// Paging as the source reported it, when it did.
    public var paging: Paging?
    /// Records the source listed that Encore leaves out on purpose (Ticketmaster's sports
    /// and theatre, events with no date yet), counted by reason, for the run's summary.
    public var skipped: [String: Int] = [:]
    /// Values the page gave that were dropped (see ``ListingWarning``), in page order.
    public var warnings: [ListingWarning] = []
    /// Where the page's events are, by what the page and its source say beyond each address.
    public var placeEvidence = PlaceEvidence()
    /// The listings' content hashes once ``computeContentHashes()`` made them; any change
    /// to the listings drops them.
    public var contentHashes: PageContentHashes? { hashes.value }
    private var hashes = DerivedValue<PageContentHashes>()

    private mutating func dropDerivedValues() {
        hashes.value = nil
    }

    public init(
        source: ListingSource, locator: String, events: [EventListing] = [], artists: [ArtistListing] = [],
        venues: [VenueListing] = [], metroAreas: [MetroAreaListing] = [],
        similarArtists: SimilarArtistsListing? = nil, paging: Paging? = nil
    ) {
        self.listingSource = source
        self.locator = locator
        self.storedEvents = events
        self.storedArtists = artists
        self.storedVenues = venues
        self.storedMetroAreas = metroAreas
        self.similarArtists = similarArtists
        self.paging = paging
    }

    /// A source's paging fields: which page this is and how many entries exist in all.
    public struct Paging: Sendable, Hashable {
        public var page: Int
        public var perPage: Int?
        public var totalEntries: Int?

        public init(page: Int, perPage: Int? = nil, totalEntries: Int? = nil) {
            self.page = page
            self.perPage = perPage
            self.totalEntries = totalEntries
        }
    }
}

extension ListingPage {
    /// Hashes every listing now, so that the thread writing the catalog only reads them.
    /// Ingestion calls it where the page was parsed: the writing thread is the one an
    /// ingest waits for.
    public mutating func computeContentHashes() {
        var computed = PageContentHashes()
        computed.metroAreas = metroAreas.map(\.contentHash)
        computed.venues = venues.map(\.contentHash)
        computed.artists = artists.map(\.contentHash)
        computed.events.reserveCapacity(events.count)
        for event in events {
            computed.events.append(
                PageContentHashes.Event(
                    event: event.contentHash, venue: event.venue?.contentHash,
                    acts: event.lineup.map(\.artist.contentHash)))
        }
        hashes.value = computed
    }
}

/// Content hashes of a page's listings (see ``ListingPage/computeContentHashes()``), in
/// the order of the page's lists.
public struct PageContentHashes: Sendable {
    public struct Event: Sendable {
        public internal(set) var event: String
        public internal(set) var venue: String?
        /// The bill's artists, in bill order.
        public internal(set) var acts: [String]
    }

    public internal(set) var metroAreas: [String] = []
    public internal(set) var venues: [String] = []
    public internal(set) var artists: [String] = []
    public internal(set) var events: [Event] = []
}

/// A value derived from the rest of a struct: left out of its equality and hash, since
/// equal contents derive equal values.
struct DerivedValue<Value: Sendable>: Sendable, Hashable {
    var value: Value?

    static func == (_: Self, _: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

/// What applying one page changed in the catalog.
public struct PageOutcome: Sendable, Hashable, Codable {
    public var eventsNew = 0
    /// Records joined to an event another source had already listed.
    public var eventsMerged = 0
    public var eventsUpdated = 0
    public var eventsUnchanged = 0
    /// New or changed records that say the event is cancelled.
    public var eventsCancelled = 0
    /// True when an identical page had already been applied, so nothing was done.
    public var skippedAsUnchanged = false
    /// The page's records left out on purpose, by reason (see ``ListingPage/skipped``).
    public var recordsSkipped: [String: Int] = [:]
    /// Values of the page that were dropped (see ``ListingPage/warnings``).
    public var warnings: [ListingWarning] = []

    public init(
        eventsNew: Int = 0, eventsMerged: Int = 0, eventsUpdated: Int = 0, eventsUnchanged: Int = 0,
        skippedAsUnchanged: Bool = false
    ) {
        self.eventsNew = eventsNew
        self.eventsMerged = eventsMerged
        self.eventsUpdated = eventsUpdated
        self.eventsUnchanged = eventsUnchanged
        self.skippedAsUnchanged = skippedAsUnchanged
    }
}

/// Where ingestion delivers pages. The catalog implements it; ingesters never see it.
public protocol ListingSink: Sendable {
    /// Whether a page with this content hash from this format was already applied.
    func hasApplied(pageHash: String, format: String) throws -> Bool
    /// Applies one page in one transaction and records its hash.
    func apply(_ page: ListingPage, pageHash: String, format: String) throws -> PageOutcome
    /// Runs `body` with a group whose pages commit together when `body` returns.
    ///
    /// Each page applied through the group still lands whole or not at all (a page that
    /// fails is rolled back alone, and the others stay); committing many pages at once
    /// saves writing the same index pages again for every page. If `body` throws, or the
    /// commit fails, none of the group's pages land. A sink may commit each page at once.
    func withPageGroup<T>(_ body: (any PageGroup) throws -> T) throws -> T
}

extension ListingSink {
    public func withPageGroup<T>(_ body: (any PageGroup) throws -> T) throws -> T {
        try body(PageByPageGroup(sink: self))
    }
}

/// Pages applied inside one ``ListingSink/withPageGroup(_:)``.
public protocol PageGroup {
    /// Whether a page with this content hash was applied, counting the group's own pages.
    func hasApplied(pageHash: String, format: String) throws -> Bool
    /// Applies one page and records its hash; when it throws, nothing of the page is kept.
    func apply(_ page: ListingPage, pageHash: String, format: String) throws -> PageOutcome
}

/// Thrown by ``PageGroup/apply(_:pageHash:format:)`` when a failure undid the whole
/// group, not only the page (SQLite rolls a transaction back on, for example, a full disk).
public struct PageGroupRolledBack: Error, CustomStringConvertible {
    public var underlying: any Error
    public init(underlying: any Error) { self.underlying = underlying }
    public var description: String { String(describing: underlying) }
}

/// The group of a sink that commits every page on its own.
public struct PageByPageGroup: PageGroup {
    let sink: any ListingSink
    public init(sink: any ListingSink) { self.sink = sink }
    public func hasApplied(pageHash: String, format: String) throws -> Bool {
        try sink.hasApplied(pageHash: pageHash, format: format)
    }
    public func apply(_ page: ListingPage, pageHash: String, format: String) throws -> PageOutcome {
        try sink.apply(page, pageHash: pageHash, format: format)
    }
}
