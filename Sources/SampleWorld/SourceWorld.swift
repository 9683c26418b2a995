import Foundation
import Geo

/// The world as several listing sources see it: who lists which concert, how each source
/// spells names and places venues, which ids it gives, and the concerts Songkick never had.
///
/// Songkick lists every world event (its writers are the world's own calendars). Every
/// other source lists a subset, decided per event from the seed and the event id alone,
/// so each writer can stream the world independently and still agree with the others:
///
/// - **Coverage.** Ticketmaster ~35 % (more for arenas, less for bars), Bandsintown ~40 %,
///   Last.fm ~30 %, JSON-LD venue pages ~25 %, SeatGeek as often as Ticketmaster but on a
///   draw of its own and never a cancelled show; festivals without a venue only on Songkick.
///   Cancelled and postponed events are always on Ticketmaster, and both shows of an
///   early/late pair are on Ticketmaster and Bandsintown (two records in one source).
/// - **Spelling.** Per source and artist: a leading "The" dropped (or, for English band
///   names, added), "&" written "and", Ticketmaster's occasional upper case. Per source and
///   venue: the same, and the venue geocoded 30–120 m away from where Songkick has it.
/// - **Times.** A source now and then gives no time for a timed show (Last.fm writes
///   `00:00:00`, Bandsintown a date-only display rule, Ticketmaster `timeTBA`).
/// - **Status.** Ticketmaster, the ticket seller, is always right: it says cancelled for
///   every cancelled event (other sources often still list it as scheduled; Bandsintown
///   drops cancelled shows it hears of), and for ~5 % of Ticketmaster's scheduled shows it
///   alone says cancelled (a cancellation the others have not picked up).
/// - **Extras.** ~3 % more concerts that only non-Songkick sources list, plus hard
///   negatives: two different bands called "Low" at two venues of one metro area on two
///   dates, and an early and a late show of one bill at one venue on one day.
///
/// Concert identity (`labels.tsv`'s `concert_key`) is `event-{world event id}`; extras have
/// ids from 100 000 001 up, outside Songkick's range.
struct SourceWorld: Sendable {
    let world: SampleWorld
    /// The world's artists, then the two bands called "Low".
    let artists: [SampleArtist]
    /// How many source-only concerts there are besides the hard negatives.
    let extraCount: Int
    /// The hard negatives by date, with the sources that list each.
    let hardNegatives: [(event: SampleEvent, sources: SourceSet)]
    /// `[source.rawValue - 1][artist index]`, for the four non-Songkick sources.
    private let artistNames: [[String]]
    private let venueNames: [[String]]
    private let venueCoordinates: [[SampleCoordinate?]]
    /// Venues Bandsintown places at their city's centre (realistic variations only).
    let bandsintownAtCityCentre: Set<Int>
    /// Each city's centre as a geocoder gives it (realistic variations only).
    let geocodedCityCentres: [SampleCoordinate]
    /// Metro areas' event counts, to share extras out like events.
    private let extraWeights: [Double]

    static let firstExtraID = 100_000_001
    static let lowName = "Low"

    init(world: SampleWorld) {
        self.world = world
        let pool = world.artists.count
        var lows: [SampleArtist] = []
        for twin in 0..<2 {
            var rng = SplitMix64(seed: world.configuration.seed, stream: .extraEvents, index: (1 << 40) + twin)
            lows.append(SampleArtist(
                id: 100_000 + (pool + twin) * 53 + 11, displayName: Self.lowName,
                musicBrainzIDs: [ArtistFactory.uuid(&rng)], genre: twin == 0 ? "indie" : "rock",
                popularity: ArtistFactory.popularity(index: pool / (3 + twin), poolSize: pool)))
        }
        let artists = world.artists + lows
        self.artists = artists
        let seed = world.configuration.seed
        let renamed = SampleSource.allCases.dropFirst().map { source in
            (artists.indices.map { index in
                var rng = SplitMix64(seed: seed, stream: .sourceNaming, index: index * 8 + source.rawValue)
                return Self.artistVariant(artists[index].displayName, source: source, rng: &rng)
            }, world.venues.indices.map { index in
                var rng = SplitMix64(seed: seed, stream: .sourceNaming, index: 1 << 40 | (index * 8 + source.rawValue))
                return Self.venueVariant(world.venues[index], in: world, source: source, rng: &rng)
            })
        }
        artistNames = renamed.map(\.0)
        venueNames = renamed.map { $0.1.map(\.name) }
        var coordinates = renamed.map { $0.1.map(\.coordinate) }
        bandsintownAtCityCentre = Self.cityCentreVenues(world)
        let gazetteer = world.configuration.realisticVariations ? try? Gazetteer.bundled() : nil
        geocodedCityCentres = gazetteer == nil ? [] : world.cities.map { Self.geocodedCentre(of: $0, gazetteer: gazetteer) }
        for index in bandsintownAtCityCentre {
            coordinates[SampleSource.bandsintown.rawValue - 1][index] = geocodedCityCentres[world.venues[index].cityIndex]
        }
        venueCoordinates = coordinates
        let counts = world.metroAreas.indices.map { world.eventCount(inMetroAreaAt: $0) }
        extraWeights = counts.map(Double.init)
        extraCount = (world.configuration.eventCount * 3 + 50) / 100
        hardNegatives = world.configuration.eventCount >= 20
            ? Self.hardNegatives(world: world, counts: counts, lowIndex: pool) : []
    }

    // MARK: - Names and places per source

    func artistName(_ index: Int, in source: SampleSource) -> String {
        source == .songkick ? artists[index].displayName : artistNames[source.rawValue - 1][index]
    }

    func venueName(_ index: Int, in source: SampleSource) -> String {
        source == .songkick ? world.venues[index].displayName : venueNames[source.rawValue - 1][index]
    }

    /// Where the source puts the venue; nil when nobody knows (Songkick's null coordinates).
    func venueCoordinate(_ index: Int, in source: SampleSource) -> SampleCoordinate? {
        source == .songkick ? world.venues[index].coordinate : venueCoordinates[source.rawValue - 1][index]
    }

    private static let englishPlurals = Set(NameBank.englishPluralNouns)

    static func artistVariant(_ name: String, source: SampleSource, rng: inout SplitMix64) -> String {
        let theRoll = rng.unit()
        let andRoll = rng.unit()
        let caseRoll = rng.unit()
        var result = name
        let words = name.split(separator: " ")
        if words.count >= 2, words[0] == "The" {
            if theRoll < 0.3 { result = words.dropFirst().joined(separator: " ") }
        } else if words.count >= 2, theRoll < 0.08, let last = words.last, englishPlurals.contains(String(last)),
            !words.contains("&")
        {
            result = "The " + result
        }
        if andRoll < 0.4, result.contains(" & ") {
            result = result.replacingOccurrences(of: " & ", with: " and ")
        }
        if source == .ticketmaster, caseRoll < 0.04 {
            result = result.uppercased()
        }
        return result
    }

    private static func venueVariant(
        _ venue: SampleVenue, in world: SampleWorld, source: SampleSource, rng: inout SplitMix64
    ) -> (name: String, coordinate: SampleCoordinate?) {
        let theRoll = rng.unit()
        let andRoll = rng.unit()
        let caseRoll = rng.unit()
        let moveRoll = rng.unit()
        let metres = 30 + 90 * rng.unit()
        let bearing = 2 * Double.pi * rng.unit()
        var name = venue.displayName
        let words = name.split(separator: " ")
        if words.count >= 2, words[0] == "The" {
            if theRoll < 0.35 { name = words.dropFirst().joined(separator: " ") }
        } else if theRoll < 0.1, world.cities[venue.cityIndex].style == .english, venue.kind != .park {
            name = "The " + name
        }
        if andRoll < 0.5, name.contains(" & ") {
            name = name.replacingOccurrences(of: " & ", with: " and ")
        }
        if source == .ticketmaster, caseRoll < 0.08 {
            name = name.uppercased()
        }
        guard let exact = venue.coordinate, moveRoll < 0.7 else { return (name, venue.coordinate) }
        return (name, exact.moved(metres: metres, bearing: bearing))
    }

    /// The city's point as a geocoder gives it, which is what a real source's "city centre"
    /// is: Encore's gazetteer point, not the sample's own centre (kilometres apart for some
    /// cities); the sample's centre when the gazetteer does not know the city.
    static func geocodedCentre(of city: SampleCity, gazetteer: Gazetteer?) -> SampleCoordinate {
        let country = SampleCountry.named(city.countryName).name
        guard let point = gazetteer?.bestCity(named: city.displayName, country: country)?.coordinate else {
            return city.centre
        }
        return SampleCoordinate(latitude: point.latitude, longitude: point.longitude)
    }

    // MARK: - Ids

    /// A bijection of `0..<2^27` salted by the seed and a purpose: distinct keys (event,
    /// venue and artist ids are all below 2^27) give distinct ids, so each source has its
    /// own id space without a collision check.
    func permuted(_ key: Int, salt: UInt64) -> Int {
        let mask: UInt64 = (1 << 27) - 1
        var rng = SplitMix64(seed: world.configuration.seed ^ salt, stream: .sourceDetails, index: 1 << 42)
        var x = (UInt64(key) ^ rng.next()) & mask
        x = (x &* 0x2545_F491) & mask
        x ^= x >> 13
        x = (x &* 0x9E37_79B1) & mask
        x ^= x >> 11
        return Int(x)
    }

    /// `count` base-62 digits of `value` (most significant first), for Ticketmaster-style ids.
    static func base62(_ value: Int, count: Int) -> String {
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        var value = value
        var out = [UInt8](repeating: 0, count: count)
        for position in (0..<count).reversed() {
            out[position] = digits[value % 62]
            value /= 62
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A per-record random stream for details a source makes up (prices, descriptions).
    func details(_ key: Int, _ source: SampleSource) -> SplitMix64 {
        SplitMix64(seed: world.configuration.seed, stream: .sourceDetails, index: key * 8 + source.rawValue)
    }

    // MARK: - Events

    /// Every listed event, world events and extras together, by local start date then id.
    func listings() -> SourceListings {
        SourceListings(sources: self)
    }

    /// Who lists a world event and what each says about it.
    func covered(_ event: SampleEvent, paired: Bool) -> SourcedEvent {
        var rng = SplitMix64(seed: world.configuration.seed, stream: .syndication, index: event.id)
        let tmRoll = rng.unit()
        let bitRoll = rng.unit()
        let lfmRoll = rng.unit()
        let jldRoll = rng.unit()
        guard let venue = event.venueIndex else {
            return SourcedEvent(event: event, sources: .songkick, withoutTime: [], cancelledIn: [], postponedIn: [])
        }
        let ticketmasterChance = switch world.venues[venue].kind {
        case .bar: 0.08
        case .club: 0.22
        case .theatre: 0.4
        case .arena: 0.65
        case .park: 0.5
        }
        var sources: SourceSet = .songkick
        if tmRoll < ticketmasterChance || paired || event.status != .ok { sources.insert(.ticketmaster) }
        if bitRoll < 0.4 || paired { sources.insert(.bandsintown) }
        if lfmRoll < 0.3 { sources.insert(.lastfm) }
        if jldRoll < 0.25 { sources.insert(.jsonld) }
        if seatGeekLists(event, key: event.id, chance: ticketmasterChance) { sources.insert(.seatgeek) }
        return finish(event, sources: sources, keepingTimes: paired, rng: &rng)
    }

    /// Times and statuses per source (draws continue on the event's own stream).
    /// `keepingTimes` for shows told apart by their times (early/late pairs, hard negatives).
    fileprivate func finish(
        _ event: SampleEvent, sources: SourceSet, keepingTimes: Bool, rng: inout SplitMix64
    ) -> SourcedEvent {
        var sources = sources
        var withoutTime: SourceSet = []
        var cancelledIn: SourceSet = []
        var postponedIn: SourceSet = []
        let others: [(SampleSource, Double)] = [(.ticketmaster, 0.05), (.bandsintown, 0.08), (.lastfm, 0.15), (.jsonld, 0.1)]
        for (source, chance) in others {
            let timeRoll = rng.unit()
            let statusRoll = rng.unit()
            guard sources.contains(source) else { continue }
            if event.startMinutes != nil, !keepingTimes, timeRoll < chance { withoutTime.insert(source.set) }
            switch event.status {
            case .cancelled:
                // The seller knows; the others often still list the show as scheduled.
                if source == .ticketmaster || statusRoll < 0.25 { cancelledIn.insert(source.set) }
            case .postponed:
                if source == .ticketmaster || (source == .jsonld && statusRoll < 0.3) { postponedIn.insert(source.set) }
            case .ok:
                if source == .ticketmaster, statusRoll < 0.05 { cancelledIn.insert(source.set) }
            }
        }
        if event.status != .ok, sources.contains(.songkick) {
            if event.status == .cancelled { cancelledIn.insert(.songkick) } else { postponedIn.insert(.songkick) }
        }
        if cancelledIn.contains(.bandsintown) {
            // Bandsintown has no status: a show it knows is cancelled is simply gone.
            sources.remove(.bandsintown)
            cancelledIn.remove(.bandsintown)
            withoutTime.remove(.bandsintown)
        }
        return SourcedEvent(
            event: event, sources: sources, withoutTime: withoutTime, cancelledIn: cancelledIn, postponedIn: postponedIn,
            keptTimes: keepingTimes)
    }

    /// Source-only concert `k` of ``extraCount``, spread over the window like world events.
    fileprivate func extra(_ k: Int) -> SourcedEvent {
        var rng = SplitMix64(seed: world.configuration.seed, stream: .extraEvents, index: k)
        let config = world.configuration
        let date = config.start.adding(days: (k << 20 | rng.int(below: 1 << 20)) * config.days / (extraCount << 20))
        let metro = rng.weightedIndex(extraWeights)
        let plan = world.plans[metro]
        let kinds = zip(plan.concertVenues, [20.0, 45, 25, 10]).map { $0.isEmpty ? 0 : $1 }
        let list = plan.concertVenues[rng.weightedIndex(kinds)]
        let venue = list[rng.skewedIndex(below: list.count, power: 2)]
        let city = world.venues[venue].cityIndex
        var acts: [Int] = []
        let wanted = 1 + rng.weightedIndex([50.0, 35, 15])
        for attempt in 0..<(wanted * 8) where acts.count < wanted {
            let artist = rng.skewedIndex(below: world.artists.count, power: attempt == 0 ? 2 : 1)
            if !acts.contains(artist) { acts.append(artist) }
        }
        let minutes = rng.chance(0.15) ? nil : rng.element(of: world.cities[city].style.concertStartMinutes)
        let event = Self.event(
            id: Self.firstExtraID + 100 + k, world: world, venue: venue, date: date, minutes: minutes, artists: acts,
            popularity: ArtistFactory.popularity(index: acts[0], poolSize: world.artists.count) * 0.5)
        var sources: SourceSet = []
        for source in [SampleSource.ticketmaster, .bandsintown, .lastfm, .jsonld] where rng.chance(0.5) {
            sources.insert(source.set)
        }
        if sources.isEmpty {
            sources = [SourceSet.ticketmaster, .bandsintown, .lastfm, .jsonld][rng.int(below: 4)]
        }
        if seatGeekLists(event, key: Self.firstExtraID + 100 + k, chance: 0.5) { sources.insert(.seatgeek) }
        return finish(event, sources: sources, keepingTimes: false, rng: &rng)
    }

    /// SeatGeek sells what Ticketmaster sells, about as often, and drops a cancelled show.
    /// Drawn on a stream of its own, so that adding it changed no other source's listings.
    private func seatGeekLists(_ event: SampleEvent, key: Int, chance: Double) -> Bool {
        var rng = SplitMix64(seed: world.configuration.seed, stream: .syndication, index: 1 << 44 | key)
        return event.status != .cancelled && rng.unit() < chance
    }

    private static func event(
        id: Int, world: SampleWorld, venue: Int, date: SampleDate, minutes: Int?, artists: [Int], popularity: Double
    ) -> SampleEvent {
        let city = world.venues[venue].cityIndex
        return SampleEvent(
            id: id, kind: .concert, status: .ok, metroAreaIndex: world.venues[venue].metroAreaIndex, cityIndex: city,
            venueIndex: venue, startDate: date, startMinutes: minutes,
            utcOffsetSeconds: minutes.map { world.cities[city].utcOffset(on: date, atMinutes: $0) }, endDate: nil,
            series: nil,
            performances: artists.enumerated().map { position, artist in
                SamplePerformance(
                    id: 0, artistIndex: artist, billing: position == 0 ? .headline : .support, billingIndex: position + 1)
            },
            popularity: (popularity * 1_000_000).rounded(.down) / 1_000_000, ageRestriction: nil)
    }

    /// The two "Low"s in the busiest metro area (a club and another room, nine days apart)
    /// and an early and a late show at a theatre of the second busiest.
    private static func hardNegatives(
        world: SampleWorld, counts: [Int], lowIndex: Int
    ) -> [(event: SampleEvent, sources: SourceSet)] {
        let order = counts.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }
        let config = world.configuration
        func day(_ offset: Int) -> SampleDate { config.start.adding(days: min(config.days - 1, offset)) }
        // Nine days apart when the window allows, the next day otherwise (one day: the same day).
        let firstLow = config.days / 3
        let secondLow = config.days > 10 ? firstLow + 9 : (firstLow + 1) % config.days
        let busiest = world.plans[order[0]]
        let club = (busiest.concertVenues(.club) + busiest.concertVenues(.theatre))[0]
        let other = (busiest.concertVenues(.bar) + busiest.concertVenues(.theatre)).first { $0 != club }
            ?? busiest.concertVenues.joined().first { $0 != club } ?? club
        let second = world.plans[order.count > 1 ? order[1] : order[0]]
        let theatre = (second.concertVenues(.theatre) + second.concertVenues(.club))[0]
        let all: SourceSet = [.ticketmaster, .bandsintown, .lastfm, .jsonld]
        let popularity = ArtistFactory.popularity(index: 3, poolSize: world.artists.count)
        let events: [(SampleEvent, SourceSet)] = [
            (event(id: firstExtraID, world: world, venue: club, date: day(firstLow), minutes: 20 * 60,
                   artists: [lowIndex], popularity: 0.01), all),
            (event(id: firstExtraID + 1, world: world, venue: other, date: day(secondLow), minutes: 21 * 60,
                   artists: [lowIndex + 1], popularity: 0.008), [.ticketmaster, .bandsintown, .lastfm]),
            (event(id: firstExtraID + 2, world: world, venue: theatre, date: day(config.days / 2), minutes: 18 * 60 + 30,
                   artists: [3, 40], popularity: popularity), all),
            (event(id: firstExtraID + 3, world: world, venue: theatre, date: day(config.days / 2), minutes: 21 * 60 + 30,
                   artists: [3, 40], popularity: popularity), all),
        ]
        return events.sorted { ($0.0.startDate, $0.0.id) < ($1.0.startDate, $1.0.id) }
    }
}

/// One event as the sources list it.
struct SourcedEvent: Sendable {
    let event: SampleEvent
    /// Who lists it; `.songkick` exactly for world events.
    let sources: SourceSet
    /// Sources that give no start time although the show has one.
    let withoutTime: SourceSet
    let cancelledIn: SourceSet
    let postponedIn: SourceSet
    /// Told apart from another show by its time (early/late pairs, hard negatives).
    var keptTimes = false
    /// What world concert it looks like without being it (realistic variations).
    var lookalike: SourceWorld.Lookalike?

    /// The world's identity of the concert, the same for every source's record of it.
    var key: String { lookalike.map { "\($0.label)-\(event.id)" } ?? "event-\(event.id)" }

    func status(in source: SampleSource) -> SampleEvent.Status {
        cancelledIn.contains(source) ? .cancelled : postponedIn.contains(source) ? .postponed : .ok
    }

    func startMinutes(in source: SampleSource) -> Int? {
        withoutTime.contains(source) ? nil : event.startMinutes
    }
}

/// ``SourceWorld/listings()``: the metro calendars, the extras and the hard negatives
/// merged by (local start date, id), generated lazily. Each calendar is read one event
/// ahead, which is how the two shows of an early/late pair are recognised.
struct SourceListings: Sequence {
    let sources: SourceWorld

    func makeIterator() -> Iterator {
        Iterator(sources: sources)
    }

    struct Iterator: IteratorProtocol {
        private struct Cursor {
            var events: MetroAreaEvents.Iterator
            var head: SampleEvent?
            var lookahead: SampleEvent?
            var headPaired = false

            init(_ events: MetroAreaEvents.Iterator) {
                self.events = events
                head = self.events.next()
                lookahead = self.events.next()
                headPaired = Self.isPair(head, lookahead)
            }

            mutating func advance() {
                let previousPaired = Self.isPair(head, lookahead)
                head = lookahead
                lookahead = events.next()
                headPaired = previousPaired || Self.isPair(head, lookahead)
            }

            /// Two shows of one bill at one venue on one day, with different ids.
            static func isPair(_ a: SampleEvent?, _ b: SampleEvent?) -> Bool {
                guard let a, let b, a.kind == .concert, b.kind == .concert, a.venueIndex != nil else { return false }
                return a.venueIndex == b.venueIndex && a.startDate == b.startDate && a.id != b.id
                    && a.performances.map(\.artistIndex) == b.performances.map(\.artistIndex)
            }
        }

        private let sources: SourceWorld
        private var cursors: [Cursor]
        /// (day, id) of each cursor's head, `Int.max` when done: scanned instead of the events.
        private var heads: [(day: Int, id: Int)]
        private var nextExtra = 0
        private var extraHead: SourcedEvent?
        private var nextHardNegative = 0
        /// Lookalikes of the world concert returned last, returned next.
        private var lookalikes: [SourcedEvent] = []

        init(sources: SourceWorld) {
            self.sources = sources
            cursors = sources.world.metroAreas.indices.map { Cursor(sources.world.events(inMetroAreaAt: $0).makeIterator()) }
            heads = cursors.map { Self.order($0.head) }
            extraHead = sources.extraCount > 0 ? sources.extra(0) : nil
            nextExtra = 1
        }

        private static func order(_ event: SampleEvent?) -> (day: Int, id: Int) {
            event.map { ($0.startDate.daysSince1970, $0.id) } ?? (Int.max, Int.max)
        }

        mutating func next() -> SourcedEvent? {
            if !lookalikes.isEmpty { return lookalikes.removeFirst() }
            var best = -1
            var bestOrder = (day: Int.max, id: Int.max)
            for index in heads.indices where heads[index] < bestOrder {
                best = index
                bestOrder = heads[index]
            }
            let extraOrder = Self.order(extraHead?.event)
            let hardOrder = nextHardNegative < sources.hardNegatives.count
                ? Self.order(sources.hardNegatives[nextHardNegative].event) : (Int.max, Int.max)
            if hardOrder < bestOrder, hardOrder <= extraOrder {
                let (event, listed) = sources.hardNegatives[nextHardNegative]
                nextHardNegative += 1
                var rng = SplitMix64(seed: sources.world.configuration.seed, stream: .syndication, index: event.id)
                return sources.finish(event, sources: listed, keepingTimes: true, rng: &rng)
            }
            if extraOrder < bestOrder, let extra = extraHead {
                extraHead = nextExtra < sources.extraCount ? sources.extra(nextExtra) : nil
                nextExtra += 1
                return extra
            }
            guard best >= 0, let event = cursors[best].head else { return nil }
            let paired = cursors[best].headPaired
            cursors[best].advance()
            heads[best] = Self.order(cursors[best].head)
            let listing = sources.covered(event, paired: paired)
            lookalikes = sources.lookalikes(of: listing)
            return listing
        }
    }
}
