/// One metro area's calendar, generated event by event.
///
/// Events are produced in Songkick's metro-calendar order — by start date, then by id —
/// straight from a per-metro random stream, so a writer can page through a huge calendar
/// holding one page at a time, and iterating twice gives the same events. Event ordinal
/// `k` starts on day `⌊(k + u)·days / count⌋`, which is non-decreasing in `k`, and ids
/// grow with `k`, which gives that order without sorting.
public struct MetroAreaEvents: Sequence, Sendable {
    let world: SampleWorld
    let metroAreaIndex: Int

    public func makeIterator() -> Iterator {
        Iterator(world: world, metroAreaIndex: metroAreaIndex)
    }

    public struct Iterator: IteratorProtocol {
        private static let concertKindWeights = [20.0, 45, 25, 10]
        private static let supportCountWeights = [35.0, 35, 20, 10]
        private static let festivalLengthWeights = [20.0, 30, 35, 15]
        private static let earlyShowMinutes = [18 * 60, 18 * 60 + 30, 19 * 60]
        private static let lateShowMinutes = [21 * 60, 21 * 60 + 30, 22 * 60]
        private static let festivalStartMinutes = [12 * 60, 13 * 60, 14 * 60, 16 * 60]

        private let world: SampleWorld
        private let metroAreaIndex: Int
        private let plan: MetroAreaPlan
        private let kindWeights: [Double]
        private let isSouthern: Bool
        private var rng: SplitMix64
        private var ordinal = 0
        /// The second show of an early/late pair, returned by the next call.
        private var lateShow: SampleEvent?

        init(world: SampleWorld, metroAreaIndex: Int) {
            self.world = world
            self.metroAreaIndex = metroAreaIndex
            plan = world.plans[metroAreaIndex]
            kindWeights = zip(plan.concertVenues, Self.concertKindWeights).map { $0.isEmpty ? 0 : $1 }
            isSouthern = world.metroAreas[metroAreaIndex].centre.latitude < 0
            rng = SplitMix64(seed: world.configuration.seed, stream: .metroAreaCalendar, index: metroAreaIndex)
        }

        public mutating func next() -> SampleEvent? {
            if let show = lateShow {
                lateShow = nil
                return show
            }
            guard ordinal < plan.eventCount else { return nil }
            let scaled = ordinal << 20 | rng.int(below: 1 << 20)
            let date = world.configuration.start.adding(
                days: scaled * world.configuration.days / (plan.eventCount << 20))
            let event: SampleEvent
            if rng.chance(isFestivalSeason(date) ? 0.06 : 0.015) {
                event = festival(on: date)
                ordinal += 1
            } else if ordinal + 1 < plan.eventCount, rng.chance(0.015) {
                (event, lateShow) = earlyAndLateShows(on: date)
                ordinal += 2
            } else {
                event = concert(on: date)
                ordinal += 1
            }
            return event
        }

        private mutating func concert(on date: SampleDate) -> SampleEvent {
            let list = plan.concertVenues[rng.weightedIndex(kindWeights)]
            let venue = list[rng.skewedIndex(below: list.count, power: 2)]
            let kind = world.venues[venue].kind
            let artists = distinctArtists(
                count: 1 + rng.weightedIndex(Self.supportCountWeights), headliners: 1,
                headlinerPower: headlinerPower(kind))
            let city = world.venues[venue].cityIndex
            let minutes = rng.chance(0.15) ? nil : rng.element(of: world.cities[city].style.concertStartMinutes)
            return event(
                serial: serial(ordinal), kind: .concert, status: status(), venue: venue, city: city, date: date,
                minutes: minutes, artists: artists, headliners: 1,
                popularity: popularity(artists[0], factor: popularityFactor(kind)),
                ageRestriction: ageRestriction(kind, city: city))
        }

        /// Two shows of the same bill at the same venue on the same day, with their own ids:
        /// a classic duplicate trap for an aggregator that keys on (venue, date, artist).
        private mutating func earlyAndLateShows(on date: SampleDate) -> (SampleEvent, SampleEvent) {
            let list = plan.concertVenues(rng.chance(0.5) ? .club : .theatre)
            let venue = list[rng.skewedIndex(below: list.count, power: 2)]
            let kind = world.venues[venue].kind
            let artists = distinctArtists(
                count: 1 + rng.weightedIndex(Self.supportCountWeights), headliners: 1,
                headlinerPower: headlinerPower(kind))
            let city = world.venues[venue].cityIndex
            let popularity = popularity(artists[0], factor: popularityFactor(kind))
            let ageRestriction = ageRestriction(kind, city: city)
            let early = event(
                serial: serial(ordinal), kind: .concert, status: .ok, venue: venue, city: city, date: date,
                minutes: rng.element(of: Self.earlyShowMinutes), artists: artists, headliners: 1,
                popularity: popularity, ageRestriction: ageRestriction)
            let late = event(
                serial: serial(ordinal + 1), kind: .concert, status: .ok, venue: venue, city: city, date: date,
                minutes: rng.element(of: Self.lateShowMinutes), artists: artists, headliners: 1,
                popularity: popularity, ageRestriction: ageRestriction)
            return (early, late)
        }

        private mutating func festival(on date: SampleDate) -> SampleEvent {
            let (series, venue) = plan.festivals[rng.int(below: plan.festivals.count)]
            let city = venue.map { world.venues[$0].cityIndex } ?? world.metroAreas[metroAreaIndex].cityIndices[0]
            let length = 1 + rng.weightedIndex(Self.festivalLengthWeights)
            let headliners = rng.int(in: 3...6)
            let artists = distinctArtists(count: rng.int(in: 15...40), headliners: headliners, headlinerPower: 4)
            let minutes = rng.chance(0.4) ? rng.element(of: Self.festivalStartMinutes) : nil
            return event(
                serial: serial(ordinal), kind: .festival, status: status(), venue: venue, city: city, date: date,
                minutes: minutes, artists: artists, headliners: headliners,
                popularity: popularity(artists[0], factor: 1.2), ageRestriction: nil,
                endDate: date.adding(days: length - 1), series: series)
        }

        private mutating func event(
            serial: Int, kind: SampleEvent.Kind, status: SampleEvent.Status, venue: Int?, city: Int,
            date: SampleDate, minutes: Int?, artists: [Int], headliners: Int, popularity: Double,
            ageRestriction: String?, endDate: SampleDate? = nil, series: SampleFestivalSeries? = nil
        ) -> SampleEvent {
            // Ids are spaced out with a random gap, like real ones; performance ids take a
            // block of 48 per event (festivals have at most 40 acts).
            let performances = artists.enumerated().map { position, artist in
                SamplePerformance(
                    id: 67_420_000 + serial * 48 + position, artistIndex: artist,
                    billing: position < headliners ? .headline : .support, billingIndex: position + 1)
            }
            return SampleEvent(
                id: 34_150_000 + serial * 5 + rng.int(below: 5), kind: kind, status: status,
                metroAreaIndex: metroAreaIndex, cityIndex: city, venueIndex: venue, startDate: date,
                startMinutes: minutes,
                utcOffsetSeconds: minutes.map { world.cities[city].utcOffset(on: date, atMinutes: $0) },
                endDate: endDate, series: series, performances: performances, popularity: popularity,
                ageRestriction: ageRestriction)
        }

        /// Unique across the whole world: metro areas interleave, so ids also grow with date.
        private func serial(_ ordinal: Int) -> Int {
            ordinal * world.metroAreas.count + metroAreaIndex
        }

        /// `count` different artists; the first `headliners` drawn with a pull towards the
        /// popular end of the pool (stronger for bigger rooms), supports from anywhere.
        private mutating func distinctArtists(count: Int, headliners: Int, headlinerPower: Int) -> [Int] {
            var chosen: [Int] = []
            chosen.reserveCapacity(count)
            var attempts = 0
            while chosen.count < count, attempts < count * 8 {
                attempts += 1
                let power = chosen.count < headliners ? headlinerPower : 1
                let artist = rng.skewedIndex(below: world.artists.count, power: power)
                if !chosen.contains(artist) { chosen.append(artist) }
            }
            return chosen
        }

        private func headlinerPower(_ kind: SampleVenue.Kind) -> Int {
            switch kind {
            case .bar: 1
            case .club: 2
            case .theatre: 3
            case .arena, .park: 6
            }
        }

        private func popularityFactor(_ kind: SampleVenue.Kind) -> Double {
            switch kind {
            case .bar: 0.2
            case .club: 0.5
            case .theatre: 0.8
            case .arena, .park: 1
            }
        }

        private mutating func popularity(_ headliner: Int, factor: Double) -> Double {
            let artist = ArtistFactory.popularity(index: headliner, poolSize: world.artists.count)
            let value = artist * factor * (0.5 + rng.unit())
            return Swift.min(1, (value * 1_000_000).rounded(.down) / 1_000_000)
        }

        /// About 5 % cancelled and 2 % postponed.
        private mutating func status() -> SampleEvent.Status {
            let roll = rng.unit()
            return roll < 0.05 ? .cancelled : roll < 0.07 ? .postponed : .ok
        }

        private mutating func ageRestriction(_ kind: SampleVenue.Kind, city: Int) -> String? {
            guard kind == .bar || kind == .club, rng.chance(0.15) else { return nil }
            return world.cities[city].countryName == "US" && rng.chance(0.5) ? "21+" : "18+"
        }

        /// Festivals cluster in the local summer: May–September north of the equator,
        /// November–March south of it.
        private func isFestivalSeason(_ date: SampleDate) -> Bool {
            let month = date.month
            return isSouthern ? month >= 11 || month <= 3 : (5...9).contains(month)
        }
    }
}
