/// How Ticketmaster lists the world's concerts beside the others (realistic variations),
/// each record labelled with the habits it shows:
///
/// - **sponsor**: about a third of arenas and theatres carry a sponsor's name in front of
///   their own ("Toyota Dragon Academy" for "Dragon Academy"), on every record there;
/// - **tour-title**: one listing in eight is titled by the tour ("Headliner: Golden
///   Harbours Tour"), one in sixteen by the tour alone ("The Golden Harbours Tour");
/// - **headliner-only**: one in twelve comes without its attractions, titled by the
///   headliner alone (as TicketWeb's listings in Ticketmaster's search do);
/// - **package**: one in sixteen has a second listing of the same show under an id of
///   its own ("… - VIP Package", "… (Resale)", "… - Early Show" at the same time);
/// - **parking**: one show in twenty-five at an arena, park or theatre has a parking pass
///   filed under Music ("Parking: …"), which is no concert (labelled one of its own);
/// - **festival-day**: half the festivals are sold per day ("Golden Sound 2027 - Day 2"),
///   each day's ticket billing that day's acts.
///
/// Every draw comes from the seed and the event (or venue) id alone.
extension SourceWorld {
    /// One Ticketmaster record: what its writer writes and its label says.
    struct TicketmasterRecord: Sendable {
        var id: String
        var title: String
        var date: SampleDate
        var minutes: Int?
        var end: SampleDate?
        /// Artist indices of its attractions, in order.
        var attractions: [Int]
        var classes: [String]
        /// Its own concert key when it is no listing of the world concert (a parking pass).
        var key: String?
    }

    func ticketmasterRecords(_ listing: SourcedEvent) -> [TicketmasterRecord] {
        let event = listing.event
        guard let venue = event.venueIndex else { return [] }
        let headliner = artistName(event.performances[0].artistIndex, in: .ticketmaster)
        var title = event.series.map { "\($0.displayName) \(event.startDate.year)" } ?? headliner
        var record = TicketmasterRecord(
            id: ticketmasterID(event.id), title: title, date: event.startDate, minutes: listing.startMinutes(in: .ticketmaster),
            end: event.endDate, attractions: event.performances.prefix(6).map(\.artistIndex), classes: classes(of: listing))
        guard realistic else { return [record] }
        if ticketmasterSponsor(ofVenue: venue) != nil { record.classes.append("sponsor") }
        var rng = SplitMix64(seed: world.configuration.seed, stream: .variations, index: 1 << 45 | event.id)
        let titleRoll = rng.unit()
        let packageRoll = rng.unit()
        let packageKind = rng.int(below: 3)
        let parkingRoll = rng.unit()
        let dayRoll = rng.unit()
        let tour = "\(rng.element(of: NameBank.englishAdjectives)) \(rng.element(of: NameBank.englishPluralNouns)) Tour"
        if event.kind == .festival {
            guard dayRoll < 0.5, let end = event.endDate, end > event.startDate else { return [record] }
            let days = end.daysSince1970 - event.startDate.daysSince1970 + 1
            return (0..<days).map { day in
                TicketmasterRecord(
                    id: record.id + "-d\(day + 1)", title: "\(title) - Day \(day + 1)",
                    date: event.startDate.adding(days: day), minutes: record.minutes, end: nil,
                    attractions: event.performances.enumerated().filter { $0.offset % days == day }.prefix(6)
                        .map(\.element.artistIndex),
                    classes: record.classes + ["festival-day"])
            }
        }
        if titleRoll < 1.0 / 8 {
            title = headliner + ": " + tour
            record.classes.append("tour-title")
        } else if titleRoll < 1.0 / 8 + 1.0 / 16 {
            title = "The " + tour
            record.classes.append("tour-title")
        } else if titleRoll < 1.0 / 8 + 1.0 / 16 + 1.0 / 12 {
            record.attractions = []
            record.classes.append("headliner-only")
        }
        record.title = title
        var records = [record]
        if packageRoll < 1.0 / 16, packageKind != 2 || !listing.keptTimes {
            var package = record
            package.id += "-p"
            package.title += [" - VIP Package", " (Resale)", " - Early Show"][packageKind]
            package.classes.append("package")
            records.append(package)
        }
        if parkingRoll < 0.04, [.arena, .park, .theatre].contains(world.venues[venue].kind) {
            var parking = record
            parking.id += "-park"
            parking.title = "Parking: " + record.title
            parking.classes = ["parking"]
            parking.key = "parking-\(event.id)"
            records.append(parking)
        }
        return records
    }

    /// The sponsor Ticketmaster names a venue after, if any: a third of arenas and theatres.
    func ticketmasterSponsor(ofVenue index: Int) -> String? {
        guard realistic, [.arena, .theatre].contains(world.venues[index].kind) else { return nil }
        var rng = SplitMix64(seed: world.configuration.seed, stream: .variations, index: 1 << 46 | index)
        guard rng.unit() < 1.0 / 3 else { return nil }
        return rng.element(of: ["Toyota", "Coca-Cola", "Vodafone", "Mercedes-Benz", "O2", "Barclaycard", "Heineken"])
    }
}
