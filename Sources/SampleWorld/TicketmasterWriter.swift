import Foundation

/// Writes the Ticketmaster share of a ``SampleWorld`` as Discovery API v2 event searches:
/// `ticketmaster/events/page-{number}.json`, pages numbered from 0 as the API does, events
/// by local start date.
///
/// Each page is `{"_embedded":{"events":[…]},"_links":{…},"page":{size, totalElements,
/// totalPages, number}}`; each event has its dates (local date and time, the UTC instant
/// with `Z`, the IANA zone, a status code), a classification, a price range and its
/// venue and attractions embedded, with coordinates as strings. Ticketmaster has its own
/// ids and spellings (see ``SourceWorld``) and, like the real search, mixes in sports
/// events — one in 25 — which a concert ingester must skip.
///
/// A first pass counts the records (the page envelope states the total); the second
/// writes them one page at a time.
public struct TicketmasterWriter: Sendable {
    let sources: SourceWorld

    public init(world: SampleWorld) {
        sources = SourceWorld(world: world)
    }

    init(sources: SourceWorld) {
        self.sources = sources
    }

    /// Music records before each sports event, and where in that run it goes.
    static let sportsEvery = 25
    static let sportsOffset = 12

    public func write(to directory: URL) throws -> WriteSummary {
        let pages = try SampleFileOutput.replaceDirectory(
            directory.appendingPathComponent("ticketmaster", isDirectory: true), creating: "events")
        let music = sources.listings().reduce(0) {
            $0 + ($1.sources.contains(.ticketmaster) ? sources.ticketmasterRecords($1).count : 0)
        }
        let total = music + (music + Self.sportsEvery - Self.sportsOffset - 1) / Self.sportsEvery
        let perPage = sources.world.configuration.eventsPerPage
        let pageCount = (total + perPage - 1) / perPage
        let encoder = EventEncoder(sources: sources)
        var output = SampleFileOutput()
        var json = JSONBuffer(capacity: perPage * 3_000)
        var page = 0
        var onPage = 0
        var written = 0
        func add(_ append: (inout JSONBuffer) -> Void) throws {
            json.raw(onPage == 0 ? "{\"_embedded\":{\"events\":[" : ",")
            append(&json)
            onPage += 1
            if onPage == perPage { try finishPage() }
        }
        func finishPage() throws {
            if onPage > 0 { json.raw("]},") } else { json.raw("{") }
            Self.appendLinksAndPage(page: page, pageCount: pageCount, perPage: perPage, total: total, to: &json)
            try output.save(json, to: pages.appendingPathComponent("page-\(page).json"))
            json.removeAll()
            page += 1
            onPage = 0
        }
        for listing in sources.listings() where listing.sources.contains(.ticketmaster) {
            for record in sources.ticketmasterRecords(listing) {
                try add { encoder.appendEvent(listing, record, to: &$0) }
                if written % Self.sportsEvery == Self.sportsOffset {
                    let serial = written / Self.sportsEvery
                    try add { encoder.appendSportsEvent(serial, after: listing.event, to: &$0) }
                }
                written += 1
            }
        }
        if onPage > 0 || page == 0 { try finishPage() }
        output.summary.events = written
        return output.summary
    }

    private static func appendLinksAndPage(page: Int, pageCount: Int, perPage: Int, total: Int, to json: inout JSONBuffer) {
        func link(_ name: StaticString, _ number: Int) {
            json.raw("\"")
            json.raw(name)
            json.raw("\":{\"href\":\"/discovery/v2/events.json?page=")
            json.int(number)
            json.raw("&size=")
            json.int(perPage)
            json.raw("\"}")
        }
        json.raw("\"_links\":{")
        link("first", 0)
        if page > 0 {
            json.raw(",")
            link("prev", page - 1)
        }
        json.raw(",")
        link("self", page)
        if page + 1 < pageCount {
            json.raw(",")
            link("next", page + 1)
        }
        json.raw(",")
        link("last", max(pageCount - 1, 0))
        json.raw("},\"page\":{\"size\":")
        json.int(perPage)
        json.raw(",\"totalElements\":")
        json.int(total)
        json.raw(",\"totalPages\":")
        json.int(pageCount)
        json.raw(",\"number\":")
        json.int(page)
        json.raw("}}")
    }

    /// Ticketmaster's JSON for events, with venues and attractions rendered once.
    struct EventEncoder {
        let sources: SourceWorld
        private let venueJSON: FragmentTable
        private let attractionJSON: FragmentTable
        private let artistNames: FragmentTable
        private let artistSlugs: [String]
        private let citySlugs: [String]
        private let genreJSON: [String: [UInt8]]
        private let zoneNames: [String]
        private static let hexDigits = Array("0123456789ABCDEF".utf8)
        private var world: SampleWorld { sources.world }

        private static let genres: [String: (id: String, name: String)] = [
            "indie": ("KnvZfZ7vAvv", "Alternative"), "rock": ("KnvZfZ7vAeA", "Rock"),
            "electronic": ("KnvZfZ7vAvF", "Dance/Electronic"), "pop": ("KnvZfZ7vAev", "Pop"),
            "hip hop": ("KnvZfZ7vAv1", "Hip-Hop/Rap"), "folk": ("KnvZfZ7vAva", "Folk"),
            "metal": ("KnvZfZ7vAvt", "Metal"), "jazz": ("KnvZfZ7vAvE", "Jazz"), "punk": ("KnvZfZ7vAeA", "Rock"),
            "soul": ("KnvZfZ7vAee", "R&B"), "latin": ("KnvZfZ7vAJ6", "Latin"), "classical": ("KnvZfZ7v7nJ", "Classical"),
        ]

        init(sources: SourceWorld) {
            self.sources = sources
            let world = sources.world
            var slugs = Slug.Memo()
            let names = sources.artists.indices.map { sources.artistName($0, in: .ticketmaster) }
            artistSlugs = names.map { slugs.make($0) }
            citySlugs = world.cities.map { slugs.make($0.displayName) }
            zoneNames = world.cities.map(\.timeZone.identifier)
            artistNames = FragmentTable(names) { name, json in json.escaped(name) }
            attractionJSON = FragmentTable(sources.artists.indices) { index, json in
                let artist = sources.artists[index]
                json.raw("{\"name\":")
                json.string(names[index])
                json.raw(",\"type\":\"attraction\",\"id\":\"K8vZ91")
                json.plain(SourceWorld.base62(sources.permuted(artist.id, salt: 0xA77), count: 5))
                json.raw("\",\"test\":false,\"url\":\"https://www.ticketmaster.com/artist/")
                json.int(100_000 + sources.permuted(artist.id, salt: 0xA78))
                json.raw("\",\"locale\":\"en-us\"")
                if let mbid = artist.musicBrainzIDs.first {
                    json.raw(",\"externalLinks\":{\"musicbrainz\":[{\"id\":")
                    json.string(mbid)
                    json.raw("}]}")
                }
                json.raw("}")
            }
            let citySlugs = citySlugs
            venueJSON = FragmentTable(world.venues.indices) { index, json in
                let venue = world.venues[index]
                let city = world.cities[venue.cityIndex]
                let country = SampleCountry.named(city.countryName)
                let name = (sources.ticketmasterSponsor(ofVenue: index).map { $0 + " " } ?? "")
                    + sources.venueName(index, in: .ticketmaster)
                json.raw("{\"name\":")
                json.string(name)
                json.raw(",\"type\":\"venue\",\"id\":\"KovZpZ")
                json.plain(SourceWorld.base62(sources.permuted(venue.id, salt: 0x7E7), count: 5))
                json.raw("\",\"test\":false,\"url\":\"https://www.ticketmaster.com/")
                json.escaped(slugs.make(name))
                json.raw("-tickets-")
                json.escaped(citySlugs[venue.cityIndex])
                json.raw("/venue/")
                json.int(sources.permuted(venue.id, salt: 0x7E8))
                json.raw("\",\"locale\":\"en-us\",\"timezone\":")
                json.string(city.timeZone.identifier)
                json.raw(",\"city\":{\"name\":")
                json.string(city.displayName)
                json.raw("}")
                if let state = city.stateName {
                    json.raw(",\"state\":{\"name\":")
                    json.string(SampleCountry.stateName(state, country: city.countryName))
                    json.raw(",\"stateCode\":")
                    json.string(state)
                    json.raw("}")
                }
                json.raw(",\"country\":{\"name\":")
                json.string(country.ticketmasterName)
                json.raw(",\"countryCode\":")
                json.string(country.code)
                json.raw("}")
                if let street = venue.street {
                    json.raw(",\"address\":{\"line1\":")
                    json.string(street)
                    json.raw("}")
                }
                if let coordinate = sources.venueCoordinate(index, in: .ticketmaster) {
                    json.raw(",\"location\":{\"longitude\":")
                    json.quotedDegrees(coordinate.longitude)
                    json.raw(",\"latitude\":")
                    json.quotedDegrees(coordinate.latitude)
                    json.raw("}")
                }
                json.raw("}")
            }
            var genreJSON: [String: [UInt8]] = [:]
            for (genre, (id, name)) in Self.genres {
                var json = JSONBuffer()
                json.raw("[{\"primary\":true,\"segment\":{\"id\":\"KZFzniwnSyZfZ7v7nJ\",\"name\":\"Music\"},\"genre\":{\"id\":")
                json.string(id)
                json.raw(",\"name\":")
                json.string(name)
                json.raw("}}]")
                genreJSON[genre] = json.bytes
            }
            self.genreJSON = genreJSON
        }

        /// One of a listing's records (``SourceWorld/ticketmasterRecords(_:)``).
        func appendEvent(_ listing: SourcedEvent, _ record: SourceWorld.TicketmasterRecord, to json: inout JSONBuffer) {
            let event = listing.event
            guard let venue = event.venueIndex else { return }
            var rng = sources.details(event.id, .ticketmaster)
            let headliner = event.performances[0].artistIndex
            let id = record.id
            json.raw("{\"name\":")
            json.string(record.title)
            json.raw(",\"type\":\"event\",\"id\":\"")
            json.plain(id)
            json.raw("\",\"test\":false,\"url\":\"https://www.ticketmaster.com/")
            json.escaped(artistSlugs[headliner])
            json.raw("-")
            json.escaped(citySlugs[event.cityIndex])
            let (year, month, day) = record.date.civil
            json.raw("-")
            json.padded(month, width: 2)
            json.raw("-")
            json.padded(day, width: 2)
            json.raw("-")
            json.int(year)
            json.raw("/event/")
            for _ in 0..<16 {
                json.byte(Self.hexDigits[rng.int(below: 16)])
            }
            json.raw("\",\"locale\":\"en-us\",")
            let offset = record.date == event.startDate
                ? event.utcOffsetSeconds
                : record.minutes.map { world.cities[event.cityIndex].utcOffset(on: record.date, atMinutes: $0) }
            appendDates(
                record.date, minutes: record.minutes, offset: offset, end: record.end, zone: zoneNames[event.cityIndex],
                status: listing.status(in: .ticketmaster), offsale: rng.chance(0.1), to: &json)
            appendSales(
                event.id, date: record.date, offset: offset ?? event.utcOffsetSeconds ?? 0,
                headliner: sources.artistName(headliner, in: .ticketmaster), to: &json)
            json.raw(",\"classifications\":")
            json.raw(genreJSON[sources.artists[headliner].genre] ?? genreJSON["rock"]!)
            if !rng.chance(0.08) {
                let country = SampleCountry.named(world.cities[event.cityIndex].countryName)
                let base = Self.basePrice(world.venues[venue].kind) * (0.8 + 0.4 * rng.unit() + event.popularity)
                appendPrices(country, min: base, max: base * (1.2 + 1.3 * rng.unit()), to: &json)
            }
            json.raw(",\"_links\":{\"self\":{\"href\":\"/discovery/v2/events/")
            json.plain(id)
            json.raw("?locale=en-us\"}},\"_embedded\":{\"venues\":[")
            venueJSON.append(venue, to: &json)
            json.raw("]")
            if !record.attractions.isEmpty {
                json.raw(",\"attractions\":[")
                for (position, artist) in record.attractions.enumerated() {
                    if position > 0 { json.raw(",") }
                    attractionJSON.append(artist, to: &json)
                }
                json.raw("]")
            }
            json.raw("}}")
        }

        /// A game at the metro area's arena on the same day as `event`: not music, so a
        /// concert ingester must leave it out.
        func appendSportsEvent(_ serial: Int, after event: SampleEvent, to json: inout JSONBuffer) {
            let key = 120_000_000 + serial
            var rng = sources.details(key, .ticketmaster)
            let plan = world.plans[event.metroAreaIndex]
            let venue = (plan.concertVenues(.arena) + plan.concertVenues(.theatre))[0]
            let cityIndex = world.venues[venue].cityIndex
            let city = world.cities[cityIndex]
            let rival = world.cities[world.metroAreas[rng.int(below: world.metroAreas.count)].cityIndices[0]]
            let sport = rng.element(of: [("Basketball", "KnvZfZ7vAde"), ("Hockey", "KnvZfZ7vAdI"), ("Soccer", "KnvZfZ7vAdE")])
            let minutes = rng.element(of: [19 * 60, 19 * 60 + 30, 20 * 60])
            let id = sources.ticketmasterID(key)
            let name = "\(city.displayName) \(rng.element(of: NameBank.englishPluralNouns)) vs. \(rival.displayName) \(rng.element(of: NameBank.englishPluralNouns))"
            json.raw("{\"name\":")
            json.string(name)
            json.raw(",\"type\":\"event\",\"id\":\"")
            json.plain(id)
            json.raw("\",\"test\":false,\"url\":\"https://www.ticketmaster.com/")
            json.escaped(Slug.make(name))
            json.raw("/event/")
            for _ in 0..<16 {
                json.byte(Self.hexDigits[rng.int(below: 16)])
            }
            json.raw("\",\"locale\":\"en-us\",")
            appendDates(
                event.startDate, minutes: minutes, offset: city.utcOffset(on: event.startDate, atMinutes: minutes),
                end: nil, zone: zoneNames[cityIndex], status: .ok, offsale: false, to: &json)
            json.raw(",\"classifications\":[{\"primary\":true,\"segment\":{\"id\":\"KZFzniwnSyZfZ7v7nE\",\"name\":\"Sports\"},\"genre\":{\"id\":")
            json.string(sport.1)
            json.raw(",\"name\":")
            json.string(sport.0)
            json.raw("}}]")
            let base = 30 + 40 * rng.unit()
            appendPrices(SampleCountry.named(city.countryName), min: base, max: base * 4, to: &json)
            json.raw(",\"_links\":{\"self\":{\"href\":\"/discovery/v2/events/")
            json.plain(id)
            json.raw("?locale=en-us\"}},\"_embedded\":{\"venues\":[")
            venueJSON.append(venue, to: &json)
            json.raw("]}}")
        }

        private func appendDates(
            _ date: SampleDate, minutes: Int?, offset: Int?, end: SampleDate?, zone: String,
            status: SampleEvent.Status, offsale: Bool, to json: inout JSONBuffer
        ) {
            json.raw("\"dates\":{\"start\":{\"localDate\":\"")
            json.isoDate(date)
            if let minutes, let offset {
                json.raw("\",\"localTime\":\"")
                json.clock(minutes)
                json.raw("\",\"dateTime\":\"")
                json.utcInstant(date, minutes: minutes, offsetSeconds: offset)
                json.raw("\",\"dateTBD\":false,\"dateTBA\":false,\"timeTBA\":false,\"noSpecificTime\":false}")
            } else {
                json.raw("\",\"dateTBD\":false,\"dateTBA\":false,\"timeTBA\":true,\"noSpecificTime\":false}")
            }
            if let end, end > date {
                json.raw(",\"end\":{\"localDate\":\"")
                json.isoDate(end)
                json.raw("\",\"approximate\":false,\"noSpecificTime\":true}")
            }
            json.raw(",\"timezone\":")
            json.string(zone)
            json.raw(",\"status\":{\"code\":\"")
            switch status {
            case .cancelled: json.raw("cancelled")
            case .postponed: json.raw("postponed")
            case .ok: json.raw(offsale ? "offsale" : "onsale")
            }
            json.raw("\"},\"spanMultipleDays\":")
            json.raw(end.map { $0 > date } == true ? "true}" : "false}")
        }

        /// Ticketmaster's `sales`: the public on-sale at 10:00 local, 14 to 90 days before
        /// the show, and for every third show a fan presale two days earlier. From the
        /// event's id, not the random stream, so the rest of the file stays as it was.
        private func appendSales(_ id: Int, date: SampleDate, offset: Int, headliner: String, to json: inout JSONBuffer) {
            let onSale = date.adding(days: -(14 + id % 77))
            json.raw(",\"sales\":{\"public\":{\"startDateTime\":\"")
            json.utcInstant(onSale, minutes: 600, offsetSeconds: offset)
            json.raw("\",\"startTBD\":false}")
            if id % 3 == 0 {
                json.raw(",\"presales\":[{\"startDateTime\":\"")
                json.utcInstant(onSale.adding(days: -2), minutes: 600, offsetSeconds: offset)
                json.raw("\",\"endDateTime\":\"")
                json.utcInstant(onSale.adding(days: -1), minutes: 1320, offsetSeconds: offset)
                json.raw("\",\"name\":")
                json.string(headliner + " Fan Presale")
                json.raw("}]")
            }
            json.raw("}")
        }

        private func appendPrices(_ country: SampleCountry, min: Double, max: Double, to json: inout JSONBuffer) {
            let low = country.cents(euros: min)
            let high = Swift.max(low, country.cents(euros: max))
            json.raw(",\"priceRanges\":[{\"type\":\"standard\",\"currency\":")
            json.string(country.currency)
            json.raw(",\"min\":")
            json.price(cents: low)
            json.raw(",\"max\":")
            json.price(cents: high)
            json.raw("}]")
        }

        static func basePrice(_ kind: SampleVenue.Kind) -> Double {
            switch kind {
            case .bar: 10
            case .club: 18
            case .theatre: 35
            case .arena: 55
            case .park: 70
            }
        }
    }
}
