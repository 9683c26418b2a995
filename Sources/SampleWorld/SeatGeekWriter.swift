import Foundation

/// Writes the SeatGeek share of a ``SampleWorld`` as Platform API v2 event searches, one
/// search per metro area around its centre: `seatgeek/places/{lat},{lon}-p{page}.json`
/// (four decimals, as the crawler asks with `lat`/`lon`), pages from 1, events by local
/// start date then id.
///
/// Each page is `{"events":[…],"meta":{total, took, page, per_page, geolocation}}` (the
/// point searched around, which makes every metro area's empty search a page of its own); each
/// event has `datetime_local` (the venue's wall clock), `datetime_utc` (the instant,
/// without a `Z`), the concert taxonomy, its venue (coordinates as numbers, the IANA zone)
/// and performers (the headliner `primary`), and `stats` prices, null now and then. A show
/// without a time has SeatGeek's placeholder 03:30 and `time_tbd`. SeatGeek has its own
/// ids and spellings (see ``SourceWorld``).
struct SeatGeekWriter: Sendable {
    let sources: SourceWorld

    /// The file name of a metro area's search: `41.8781,-87.6298`.
    static func place(_ centre: SampleCoordinate) -> String {
        String(format: "%.4f,%.4f", centre.latitude, centre.longitude)
    }

    func write(to directory: URL) throws -> WriteSummary {
        let places = try SampleFileOutput.replaceDirectory(
            directory.appendingPathComponent("seatgeek", isDirectory: true), creating: "places")
        let world = sources.world
        var byMetro = [[SourcedEvent]](repeating: [], count: world.metroAreas.count)
        for listing in sources.listings() where listing.sources.contains(.seatgeek) && listing.event.venueIndex != nil {
            byMetro[listing.event.metroAreaIndex].append(listing)
        }
        let perPage = world.configuration.eventsPerPage
        let encoder = EventEncoder(sources: sources)
        var output = SampleFileOutput()
        var json = JSONBuffer(capacity: perPage * 2_000)
        for (metro, listings) in byMetro.enumerated() {
            let centre = world.metroAreas[metro].centre
            let name = Self.place(centre)
            let pages = max(1, (listings.count + perPage - 1) / perPage)
            for page in 1...pages {
                json.raw("{\"events\":[")
                for (position, listing) in listings.dropFirst((page - 1) * perPage).prefix(perPage).enumerated() {
                    if position > 0 { json.raw(",") }
                    encoder.appendEvent(listing, to: &json)
                }
                json.raw("],\"meta\":{\"total\":")
                json.int(listings.count)
                json.raw(",\"took\":1,\"page\":")
                json.int(page)
                json.raw(",\"per_page\":")
                json.int(perPage)
                json.raw(",\"geolocation\":{\"lat\":")
                json.degrees(centre.latitude)
                json.raw(",\"lon\":")
                json.degrees(centre.longitude)
                json.raw(",\"display_name\":")
                json.string(world.metroAreas[metro].displayName)
                json.raw(",\"range\":\"30mi\"}}}")
                try output.save(json, to: places.appendingPathComponent("\(name)-p\(page).json"))
                json.removeAll()
            }
            output.summary.events += listings.count
        }
        return output.summary
    }

    /// SeatGeek's JSON for events, with venues and performers rendered once.
    struct EventEncoder {
        let sources: SourceWorld
        private let venueJSON: FragmentTable
        private let performerJSON: FragmentTable
        private let artistNames: [String]
        private let artistSlugs: [String]
        private var world: SampleWorld { sources.world }

        init(sources: SourceWorld) {
            self.sources = sources
            let world = sources.world
            var slugs = Slug.Memo()
            let names = sources.artists.indices.map { sources.artistName($0, in: .seatgeek) }
            artistNames = names
            artistSlugs = names.map { slugs.make($0) }
            let artistSlugs = artistSlugs
            performerJSON = FragmentTable(sources.artists.indices) { index, json in
                json.raw("\"id\":")
                json.int(100_000 + sources.permuted(sources.artists[index].id, salt: 0x5EA9))
                json.raw(",\"name\":")
                json.string(names[index])
                json.raw(",\"slug\":")
                json.string(artistSlugs[index])
                json.raw(",\"type\":\"band\",\"url\":\"https://seatgeek.com/")
                json.escaped(artistSlugs[index])
                json.raw("-tickets\"")
            }
            venueJSON = FragmentTable(world.venues.indices) { index, json in
                let venue = world.venues[index]
                let city = world.cities[venue.cityIndex]
                let name = sources.venueName(index, in: .seatgeek)
                json.raw("{\"id\":")
                json.int(sources.permuted(venue.id, salt: 0x5EA8))
                json.raw(",\"name\":")
                json.string(name)
                json.raw(",\"url\":\"https://seatgeek.com/venues/")
                json.escaped(slugs.make(name))
                json.raw("/tickets\",\"address\":")
                json.string(venue.street)
                json.raw(",\"city\":")
                json.string(city.displayName)
                json.raw(",\"state\":")
                json.string(city.stateName)
                json.raw(",\"country\":")
                json.string(SampleCountry.named(city.countryName).code)
                json.raw(",\"timezone\":")
                json.string(city.timeZone.identifier)
                if let coordinate = sources.venueCoordinate(index, in: .seatgeek) {
                    json.raw(",\"location\":{\"lat\":")
                    json.degrees(coordinate.latitude)
                    json.raw(",\"lon\":")
                    json.degrees(coordinate.longitude)
                    json.raw("}")
                }
                json.raw("}")
            }
        }

        func appendEvent(_ listing: SourcedEvent, to json: inout JSONBuffer) {
            let event = listing.event
            guard let venue = event.venueIndex else { return }
            var rng = sources.details(event.id, .seatgeek)
            let id = sources.recordID(listing, in: .seatgeek)
            let headliner = event.performances[0].artistIndex
            let festival = event.series != nil
            json.raw("{\"id\":")
            json.plain(id)
            json.raw(festival ? ",\"type\":\"music_festival\",\"title\":" : ",\"type\":\"concert\",\"title\":")
            if let series = event.series {
                json.string("\(series.displayName) \(event.startDate.year)")
            } else {
                json.string(artistNames[headliner])
            }
            json.raw(",\"status\":\"normal\",\"url\":\"https://seatgeek.com/")
            json.escaped(artistSlugs[headliner])
            json.raw("-tickets/")
            json.isoDate(event.startDate)
            json.raw(festival ? "/music-festival/" : "/concert/")
            json.plain(id)
            // A show without a time: SeatGeek's placeholder 03:30, flagged.
            let minutes = listing.startMinutes(in: .seatgeek)
            let clock = minutes ?? 210
            let offset = minutes.flatMap { _ in event.utcOffsetSeconds }
                ?? world.cities[event.cityIndex].utcOffset(on: event.startDate, atMinutes: clock)
            json.raw("\",\"datetime_local\":\"")
            json.isoDate(event.startDate)
            json.raw("T")
            json.clock(clock)
            json.raw("\",\"datetime_utc\":\"")
            var instant = JSONBuffer()
            instant.utcInstant(event.startDate, minutes: clock, offsetSeconds: offset)
            json.raw(Array(instant.bytes.dropLast()))
            json.raw(minutes == nil ? "\",\"time_tbd\":true" : "\",\"time_tbd\":false")
            json.raw(",\"date_tbd\":false,\"datetime_tbd\":false,\"taxonomies\":[{\"id\":2000000,\"name\":\"concert\",\"parent_id\":null}")
            if festival { json.raw(",{\"id\":2010000,\"name\":\"music_festival\",\"parent_id\":2000000}") }
            json.raw("],\"venue\":")
            venueJSON.append(venue, to: &json)
            json.raw(",\"performers\":[")
            for (position, performance) in event.performances.prefix(6).enumerated() {
                json.raw(position == 0 ? "{\"primary\":true," : ",{")
                performerJSON.append(performance.artistIndex, to: &json)
                json.raw("}")
            }
            json.raw("],\"stats\":{")
            if rng.chance(0.15) {
                json.raw("\"lowest_price\":null,\"highest_price\":null}}")
            } else {
                let country = SampleCountry.named(world.cities[event.cityIndex].countryName)
                let base = TicketmasterWriter.EventEncoder.basePrice(world.venues[venue].kind) * (0.9 + 0.5 * rng.unit())
                let low = country.cents(euros: base)
                json.raw("\"lowest_price\":")
                json.price(cents: low)
                json.raw(",\"highest_price\":")
                json.price(cents: max(low, country.cents(euros: base * (1.5 + 2 * rng.unit()))))
                json.raw("}}")
            }
        }
    }
}
