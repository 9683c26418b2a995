/// What the event generator needs to know about one metro area, worked out once.
struct MetroAreaPlan: Sendable {
    let eventCount: Int
    /// Venue indices usable for concerts, grouped by kind in ``concertKinds`` order.
    let concertVenues: [[Int]]
    /// The festivals that recur in this metro, with the park each is held in (nil when
    /// the listing will say "Unknown venue", as some real festival listings do).
    let festivals: [(series: SampleFestivalSeries, venueIndex: Int?)]

    static let concertKinds: [SampleVenue.Kind] = [.bar, .club, .theatre, .arena]

    func concertVenues(_ kind: SampleVenue.Kind) -> [Int] {
        concertVenues[Self.concertKinds.firstIndex(of: kind)!]
    }

    init(
        metroIndex: Int, metroCount: Int, eventCount: Int, venueRange: Range<Int>, venues: [SampleVenue],
        city: SampleCity, seed: UInt64
    ) {
        self.eventCount = eventCount
        concertVenues = Self.concertKinds.map { kind in venueRange.filter { venues[$0].kind == kind } }
        let parks = venueRange.filter { venues[$0].kind == .park }
        // About one series per 80 events: two or three editions each in a 420-day window.
        let seriesCount = max(2, eventCount / 80)
        var names = Set<String>()
        festivals = (0..<seriesCount).map { slot in
            let serial = slot * metroCount + metroIndex
            var rng = SplitMix64(seed: seed, stream: .festivalSeries, index: serial)
            // Two festivals of one city never share a name (listings tell them apart by
            // it): a name already taken is drawn again.
            var name = ""
            for attempt in 0..<20 where attempt == 0 || names.contains(name) {
                let template = rng.chance(0.5)
                    ? city.style.festivalTemplate
                    : rng.element(of: ["{A} {N} Festival", "{N}fest", "{c} Sound Festival", "{A} {N} Open Air"])
                name = NameBank.fill(template, style: city.style, city: city.displayName, rng: &rng)
            }
            if names.contains(name) { name += " \(slot + 1)" }
            names.insert(name)
            let series = SampleFestivalSeries(id: 10_000 + serial * 7, displayName: name)
            // A quarter of the series, spread evenly over metro areas, have no known venue.
            return (series, (slot + metroIndex) % 4 == 3 ? nil : parks[slot % parks.count])
        }
    }
}
