import Foundation

/// Realistic variations (``SampleWorld/Configuration/realisticVariations``): Bandsintown
/// lists Songkick's concerts with the differences real listings have, and lists lookalike
/// concerts that are not them. Each record is labelled with the variation classes it
/// shows, so a merge score can say which variation a missed or a wrong pair came from.
///
/// Per Bandsintown record of a concert (drawn from the seed and the event id alone):
/// - **city-centre**: about one venue in twelve placed at its city's centre as a geocoder
///   (Encore's gazetteer) gives it;
/// - **venue-spelling**: one record in twelve spells its venue another way (a double
///   space, or "The" added or dropped), as one source's listings of a room drift;
/// - **doors**: one timed record in eight gives the doors, 30–60 minutes before the show;
/// - **feat**: one record in ten of a bill of two or more credits "A feat. B" for its
///   first two acts;
/// - **festival**: a festival is listed per set, each act on one day of the span at a
///   place named after the festival ("Golden Sound 2027") 200–600 m from the grounds;
/// - **early-late**: the two shows of one bill at one venue on one day (every source).
///
/// Lookalikes, Bandsintown-only concerts next to a world concert: a matinee of the bill at
/// 15:00 (3 % of evening shows), the headliner's namesake at another venue of the metro
/// area that night (2 %), a tribute band at the venue that day with no time given (2 %),
/// and the headliner the same night at a similarly named room 150 m away ("Outlaw Music
/// Hall" for "Angel Music Hall", 2 %).
extension SourceWorld {
    /// A concert that looks like a world concert and is not it.
    enum Lookalike: Int, CaseIterable, Sendable {
        case matinee = 1, namesake, tribute, similarVenue

        var label: String {
            switch self {
            case .matinee: "matinee"
            case .namesake: "namesake"
            case .tribute: "tribute"
            case .similarVenue: "similar-venue"
            }
        }

        /// How often a world concert has one (a matinee only for an evening show).
        var chance: Double { self == .matinee ? 0.03 : 0.02 }
    }

    var realistic: Bool { world.configuration.realisticVariations }

    /// The lookalikes of a world concert, Bandsintown's alone.
    func lookalikes(of listing: SourcedEvent) -> [SourcedEvent] {
        let event = listing.event
        guard realistic, event.kind == .concert, event.status == .ok, let venue = event.venueIndex,
            !listing.keptTimes, listing.lookalike == nil
        else { return [] }
        var rng = SplitMix64(seed: world.configuration.seed, stream: .variations, index: 1 << 40 | event.id)
        var made: [SourcedEvent] = []
        for kind in Lookalike.allCases {
            let roll = rng.unit()
            guard roll < kind.chance else { continue }
            var place = venue
            var minutes = event.startMinutes
            var performances = event.performances
            switch kind {
            case .matinee:
                guard let start = event.startMinutes, start >= 19 * 60 else { continue }
                minutes = 15 * 60
            case .namesake:
                let others = world.plans[event.metroAreaIndex].concertVenues.joined().filter { $0 != venue }
                guard !others.isEmpty else { continue }
                place = others[rng.int(below: others.count)]
                minutes = 21 * 60
                performances = [performances[0]]
            case .tribute:
                minutes = nil
                performances = [performances[0]]
            case .similarVenue:
                guard world.venues[venue].coordinate != nil, similarName(ofVenue: venue) != nil else { continue }
                performances = [performances[0]]
            }
            let city = world.venues[place].cityIndex
            let lookalike = SampleEvent(
                id: event.id, kind: .concert, status: .ok, metroAreaIndex: event.metroAreaIndex, cityIndex: city,
                venueIndex: place, startDate: event.startDate, startMinutes: minutes,
                utcOffsetSeconds: minutes.map { world.cities[city].utcOffset(on: event.startDate, atMinutes: $0) },
                endDate: nil, series: nil, performances: performances, popularity: event.popularity / 4,
                ageRestriction: nil)
            made.append(SourcedEvent(
                event: lookalike, sources: .bandsintown, withoutTime: [], cancelledIn: [], postponedIn: [],
                keptTimes: true, lookalike: kind))
        }
        return made
    }

    /// A room's neighbour with its longest word swapped ("Outlaw Music Hall" → "Angel Music
    /// Hall": the longest is seldom an article), or nil when the name has a single word.
    func similarName(ofVenue index: Int) -> String? {
        var words = world.venues[index].displayName.split(separator: " ").map(String.init)
        let first = words.first == "The" ? 1 : 0
        guard words.count - first >= 2 else { return nil }
        let longest = words.indices.dropFirst(first).max { words[$0].count < words[$1].count }!
        let swaps = ["Angel", "Outlaw", "Copper", "Harbour"]
        words[longest] = swaps.first { !words.contains($0) } ?? "Union"
        return words.joined(separator: " ")
    }

    /// The variation classes every source's record of a listing shows.
    func classes(of listing: SourcedEvent) -> [String] {
        if let lookalike = listing.lookalike { return [lookalike.label] }
        if listing.event.kind == .festival { return ["festival"] }
        if listing.event.id == Self.firstExtraID || listing.event.id == Self.firstExtraID + 1 { return ["namesake"] }
        return listing.keptTimes ? ["early-late"] : []
    }

    /// Bandsintown's records of a listing: one, or one per set of a festival.
    func bandsintownRecords(_ listing: SourcedEvent) -> [BandsintownRecord] {
        let event = listing.event
        guard let venue = event.venueIndex else { return [] }
        var record = BandsintownRecord(
            id: recordID(listing, in: .bandsintown), artist: event.performances[0].artistIndex, date: event.startDate,
            minutes: listing.startMinutes(in: .bandsintown), place: nil,
            lineup: event.performances.map { artistName($0.artistIndex, in: .bandsintown) }, title: nil,
            classes: classes(of: listing))
        guard realistic else { return [record] }
        if bandsintownAtCityCentre.contains(venue) { record.classes.append("city-centre") }
        if event.kind == .festival { return festivalSets(listing, venue: venue) }
        switch listing.lookalike {
        case .tribute?:
            record.lineup = [record.lineup[0] + " Tribute Band"]
            return [record]
        case .similarVenue?:
            let grounds = venueCoordinate(venue, in: .bandsintown) ?? world.cities[event.cityIndex].centre
            record.place = (similarName(ofVenue: venue) ?? "", grounds.moved(metres: 150, bearing: 1))
            return [record]
        case .matinee?, .namesake?:
            return [record]
        case nil:
            break
        }
        var rng = SplitMix64(seed: world.configuration.seed, stream: .variations, index: event.id)
        let spellingRoll = rng.unit()
        let doorsRoll = rng.unit()
        let doorsMinutes = 30 + 15 * rng.int(below: 3)
        let featRoll = rng.unit()
        if spellingRoll < 1.0 / 12 {
            let name = venueName(venue, in: .bandsintown)
            let words = name.split(separator: " ")
            let spelled = spellingRoll < 1.0 / 24 && words.count >= 2
                ? words[0] + "  " + words.dropFirst().joined(separator: " ")
                : words.first == "The" ? words.dropFirst().joined(separator: " ") : "The " + name
            record.place = (spelled, venueCoordinate(venue, in: .bandsintown) ?? world.cities[event.cityIndex].centre)
            record.classes.append("venue-spelling")
        }
        if record.place == nil, let respelled = respelling(ofVenue: venue, event: event, name: venueName(venue, in: .bandsintown)) {
            let position = respelled.atCityCentre
                ? geocodedCityCentres[world.venues[venue].cityIndex]
                : venueCoordinate(venue, in: .bandsintown) ?? world.cities[event.cityIndex].centre
            record.place = (respelled.name, position)
            record.city = respelled.city
            record.classes += respelled.classes
        }
        if let minutes = record.minutes, !listing.keptTimes, doorsRoll < 1.0 / 8, minutes >= doorsMinutes {
            record.minutes = minutes - doorsMinutes
            record.classes.append("doors")
        }
        if record.lineup.count >= 2, featRoll < 0.1 {
            record.lineup = [record.lineup[0] + " feat. " + record.lineup[1]] + record.lineup.dropFirst(2)
            record.classes.append("feat")
        }
        return [record]
    }

    /// Each act's set on one day of the festival's span, at a place named after the
    /// festival a few hundred metres from the grounds.
    private func festivalSets(_ listing: SourcedEvent, venue: Int) -> [BandsintownRecord] {
        let event = listing.event
        // Drawn per grounds and year, not per edition: a source keeps one position for a
        // place of one name, so every edition of a year's festival shares it.
        var rng = SplitMix64(
            seed: world.configuration.seed, stream: .variations, index: 1 << 42 | venue << 12 | event.startDate.year % 4096)
        let grounds = venueCoordinate(venue, in: .bandsintown) ?? world.cities[event.cityIndex].centre
        let name = "\(event.series?.displayName ?? "Festival") \(event.startDate.year)"
        let place = (name, grounds.moved(metres: 200 + 400 * rng.unit(), bearing: 2 * Double.pi * rng.unit()))
        let days = (event.endDate ?? event.startDate).daysSince1970 - event.startDate.daysSince1970 + 1
        return event.performances.enumerated().map { position, performance in
            let slot = position / days
            return BandsintownRecord(
                id: String(5_000_000_000 + event.id * 64 + position), artist: performance.artistIndex,
                date: event.startDate.adding(days: position % days), minutes: min(12 * 60 + 40 * slot, 23 * 60 + 30),
                place: place, lineup: [artistName(performance.artistIndex, in: .bandsintown)], title: name,
                classes: ["festival"])
        }
    }

    /// The venues Bandsintown places at their city's centre (a twelfth, realistic only).
    static func cityCentreVenues(_ world: SampleWorld) -> Set<Int> {
        guard world.configuration.realisticVariations else { return [] }
        return Set(world.venues.indices.filter { index in
            var rng = SplitMix64(seed: world.configuration.seed, stream: .variations, index: 1 << 41 | index)
            return world.venues[index].coordinate != nil && rng.unit() < 1.0 / 12
        })
    }
}

/// One Bandsintown record: what its writer writes and its label says.
struct BandsintownRecord: Sendable {
    var id: String
    /// The act whose events file lists it.
    var artist: Int
    var date: SampleDate
    var minutes: Int?
    /// The venue's name and position when not Bandsintown's usual ones for the event's venue.
    var place: (name: String, coordinate: SampleCoordinate)?
    /// The venue's city as this record writes it, when not its usual name.
    var city: String?
    /// Lineup strings, as Bandsintown credits them.
    var lineup: [String]
    /// A title of its own (a festival's), else the writer's usual one.
    var title: String?
    var classes: [String]
}
