/// Turns world events into Songkick API v3 event objects, byte for byte as the real API
/// shapes them (key order of recent recorded responses, `utm_source` partner links,
/// `+0100` offsets without a colon, "(CANCELLED) " suffixes).
///
/// The JSON of every artist, venue and metro area is rendered once up front and spliced
/// into each event, which is what makes a million events cheap: per event only the ids,
/// dates, display name and URL are formatted.
struct SongkickEventEncoder: Sendable {
    static let partnerQuery: StaticString = "?utm_source=45852&utm_medium=partner"
    private static let monthNames = FragmentTable([
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]) { name, json in json.escaped(name) }

    let world: SampleWorld
    let metroAreaURIs: [String]
    /// `{"displayName":…,"country":…,"state":…,"id":…,"uri":…}` per metro area.
    private let metroAreaJSON: [[UInt8]]
    /// "Minneapolis, MN, US", escaped, per city.
    private let cityLocations: [[UInt8]]
    /// `{"id":…,"displayName":…,"uri":…,"identifier":[…]}` per artist.
    private let artistJSON: FragmentTable
    private let artistNames: FragmentTable
    private let artistSlugs: FragmentTable
    /// `"venue":{…},"location":{…}` per venue.
    private let venueJSON: FragmentTable
    private let venueNames: FragmentTable
    private let venueSlugs: FragmentTable
    /// The same pair for festivals whose venue is unknown, per city.
    private let unknownVenueJSON: FragmentTable

    init(world: SampleWorld) {
        self.world = world
        var slugs = Slug.Memo()
        let metroAreaURIs = world.metroAreas.map { metro in
            "http://www.songkick.com/metro-areas/\(metro.id)-\(Slug.make(metro.countryName + " " + metro.displayName))\(Self.partnerQuery)"
        }
        let metroAreaJSON = world.metroAreas.indices.map { index in
            let metro = world.metroAreas[index]
            var json = JSONBuffer()
            json.raw("{\"displayName\":")
            json.string(metro.displayName)
            Self.appendCountryAndState(metro.countryName, metro.stateName, to: &json)
            json.raw(",\"id\":")
            json.int(metro.id)
            json.raw(",\"uri\":")
            json.string(metroAreaURIs[index])
            json.raw("}")
            return json.bytes
        }
        let cityLocations = world.cities.map { city in
            var json = JSONBuffer()
            json.escaped([city.displayName, city.stateName, city.countryName].compactMap { $0 }.joined(separator: ", "))
            return json.bytes
        }
        self.metroAreaURIs = metroAreaURIs
        self.metroAreaJSON = metroAreaJSON
        self.cityLocations = cityLocations
        let artistSlugStrings = world.artists.map { slugs.make($0.displayName) }
        artistJSON = FragmentTable(world.artists.indices) { index, json in
            Self.appendArtist(world.artists[index], slug: artistSlugStrings[index], inListing: false, to: &json)
        }
        artistNames = FragmentTable(world.artists) { artist, json in json.escaped(artist.displayName) }
        artistSlugs = FragmentTable(artistSlugStrings) { slug, json in json.escaped(slug) }
        let venueSlugStrings = world.venues.map { slugs.make($0.displayName) }
        venueJSON = FragmentTable(world.venues.indices) { index, json in
            Self.appendVenueAndLocation(
                index, slug: venueSlugStrings[index], detailed: false, world: world, metroAreaJSON: metroAreaJSON,
                metroAreaURIs: metroAreaURIs, cityLocations: cityLocations, to: &json)
        }
        venueNames = FragmentTable(world.venues) { venue, json in json.escaped(venue.displayName) }
        venueSlugs = FragmentTable(venueSlugStrings) { slug, json in json.escaped(slug) }
        unknownVenueJSON = FragmentTable(world.cities.indices) { index, json in
            let city = world.cities[index]
            json.raw("\"venue\":{\"id\":null,\"displayName\":\"Unknown venue\",\"uri\":null,\"metroArea\":")
            json.raw(metroAreaJSON[city.metroAreaIndex])
            json.raw(",\"lat\":")
            json.degrees(city.centre.latitude)
            json.raw(",\"lng\":")
            json.degrees(city.centre.longitude)
            json.raw("},\"location\":{\"city\":\"")
            json.raw(cityLocations[index])
            json.raw("\",\"lat\":")
            json.degrees(city.centre.latitude)
            json.raw(",\"lng\":")
            json.degrees(city.centre.longitude)
            json.raw("}")
        }
    }

    /// Appends one event object. `detailed` adds the venue fields only the event-details
    /// endpoint returns (street, website, capacity, city...).
    func appendEvent(_ event: SampleEvent, detailed: Bool = false, to json: inout JSONBuffer) {
        let (year, month, day) = event.startDate.civil
        json.raw("{\"id\":")
        json.int(event.id)
        json.raw(",\"displayName\":\"")
        appendDisplayName(event, year: year, month: month, day: day, to: &json)
        json.raw("\",\"type\":")
        json.raw(event.kind == .festival ? "\"Festival\"" : "\"Concert\"")
        json.raw(",\"uri\":\"")
        appendURI(event, year: year, to: &json)
        json.raw("\",\"status\":")
        switch event.status {
        case .ok: json.raw("\"ok\"")
        case .cancelled: json.raw("\"cancelled\"")
        case .postponed: json.raw("\"postponed\"")
        }
        json.raw(",\"popularity\":")
        json.decimal(Int((event.popularity * 1_000_000).rounded()), places: 6)
        json.raw(",\"start\":{\"date\":\"")
        Self.appendDate(year, month, day, to: &json)
        if let minutes = event.startMinutes, let offset = event.utcOffsetSeconds {
            json.raw("\",\"datetime\":\"")
            Self.appendDate(year, month, day, to: &json)
            json.raw("T")
            Self.appendTime(minutes, to: &json)
            json.raw(offset < 0 ? "-" : "+")
            json.padded(abs(offset) / 3600, width: 2)
            json.padded(abs(offset) % 3600 / 60, width: 2)
            json.raw("\",\"time\":\"")
            Self.appendTime(minutes, to: &json)
            json.raw("\"}")
        } else {
            json.raw("\",\"datetime\":null,\"time\":null}")
        }
        // Recorded cancelled events come with an empty bill; only the display name keeps the acts.
        json.raw(",\"performance\":[")
        if event.status != .cancelled {
            for (position, performance) in event.performances.enumerated() {
                if position > 0 { json.raw(",") }
                json.raw("{\"id\":")
                json.int(performance.id)
                json.raw(",\"displayName\":\"")
                artistNames.append(performance.artistIndex, to: &json)
                json.raw(performance.billing == .headline ? "\",\"billing\":\"headline\"" : "\",\"billing\":\"support\"")
                json.raw(",\"billingIndex\":")
                json.int(performance.billingIndex)
                json.raw(",\"artist\":")
                artistJSON.append(performance.artistIndex, to: &json)
                json.raw("}")
            }
        }
        json.raw("],\"ageRestriction\":")
        json.string(event.ageRestriction)
        json.raw(",\"flaggedAsEnded\":false,")
        if let venue = event.venueIndex {
            if detailed {
                Self.appendVenueAndLocation(
                    venue, slug: Slug.make(world.venues[venue].displayName), detailed: true, world: world,
                    metroAreaJSON: metroAreaJSON, metroAreaURIs: metroAreaURIs, cityLocations: cityLocations,
                    to: &json)
            } else {
                venueJSON.append(venue, to: &json)
            }
        } else {
            unknownVenueJSON.append(event.cityIndex, to: &json)
        }
        if let end = event.endDate, let series = event.series {
            let (endYear, endMonth, endDay) = end.civil
            json.raw(",\"end\":{\"date\":\"")
            Self.appendDate(endYear, endMonth, endDay, to: &json)
            json.raw("\",\"time\":null,\"datetime\":null},\"series\":{\"displayName\":")
            json.string(series.displayName)
            json.raw("}")
        }
        json.raw("}")
    }

    /// An artist as events embed it or, `inListing`, as search and similar-artist responses
    /// list it: with calendar and setlist links per identifier and `onTourUntil`.
    static func appendArtist(
        _ artist: SampleArtist, slug: String, inListing: Bool, onTourUntil: SampleDate? = nil,
        to json: inout JSONBuffer
    ) {
        json.raw("{\"id\":")
        json.int(artist.id)
        json.raw(",\"displayName\":")
        json.string(artist.displayName)
        json.raw(",\"uri\":")
        json.string("http://www.songkick.com/artists/\(artist.id)-\(slug)\(partnerQuery)")
        json.raw(",\"identifier\":[")
        for (position, mbid) in artist.musicBrainzIDs.enumerated() {
            if position > 0 { json.raw(",") }
            json.raw("{\"mbid\":")
            json.string(mbid)
            json.raw(",\"href\":")
            json.string("http://api.songkick.com/api/3.0/artists/mbid:\(mbid).json")
            if inListing {
                json.raw(",\"eventsHref\":")
                json.string("http://api.songkick.com/api/3.0/artists/mbid:\(mbid)/calendar.json")
                json.raw(",\"setlistsHref\":")
                json.string("http://api.songkick.com/api/3.0/artists/mbid:\(mbid)/setlists.json")
            }
            json.raw("}")
        }
        json.raw("]")
        if inListing {
            json.raw(",\"onTourUntil\":")
            json.string(onTourUntil?.iso8601)
        }
        json.raw("}")
    }

    static func appendCountryAndState(_ country: String, _ state: String?, to json: inout JSONBuffer) {
        json.raw(",\"country\":{\"displayName\":")
        json.string(country)
        json.raw("}")
        if let state {
            json.raw(",\"state\":{\"displayName\":")
            json.string(state)
            json.raw("}")
        }
    }

    /// "A with B, C and D at Venue (December 5, 2026)", or "Series 2027" for a festival,
    /// plus Songkick's " (CANCELLED) " suffix (trailing space included) when cancelled.
    private func appendDisplayName(_ event: SampleEvent, year: Int, month: Int, day: Int, to json: inout JSONBuffer) {
        if let series = event.series {
            json.escaped(series.displayName)
            json.raw(" ")
            json.int(year)
        } else if let venue = event.venueIndex {
            let performances = event.performances
            artistNames.append(performances[0].artistIndex, to: &json)
            for position in performances.indices.dropFirst() {
                if position == 1 {
                    json.raw(" with ")
                } else {
                    json.raw(position == performances.count - 1 ? " and " : ", ")
                }
                artistNames.append(performances[position].artistIndex, to: &json)
            }
            json.raw(" at ")
            venueNames.append(venue, to: &json)
            json.raw(" (")
            Self.monthNames.append(month - 1, to: &json)
            json.raw(" ")
            json.int(day)
            json.raw(", ")
            json.int(year)
            json.raw(")")
        }
        if event.status == .cancelled {
            json.raw(" (CANCELLED) ")
        }
    }

    /// Concerts: `/concerts/{id}-{headliner}-at-{venue}`; festivals:
    /// `/festivals/{series id}-{series}/id/{id}-{series}-{year}`.
    private func appendURI(_ event: SampleEvent, year: Int, to json: inout JSONBuffer) {
        if let series = event.series {
            let slug = Slug.make(series.displayName)
            json.raw("http://www.songkick.com/festivals/")
            json.int(series.id)
            json.escaped("-\(slug)/id/")
            json.int(event.id)
            json.escaped("-\(slug)-")
            json.int(year)
        } else if let venue = event.venueIndex {
            json.raw("http://www.songkick.com/concerts/")
            json.int(event.id)
            json.raw("-")
            artistSlugs.append(event.performances[0].artistIndex, to: &json)
            json.raw("-at-")
            venueSlugs.append(venue, to: &json)
        }
        json.raw(Self.partnerQuery)
    }

    private static func appendVenueAndLocation(
        _ index: Int, slug: String, detailed: Bool, world: SampleWorld, metroAreaJSON: [[UInt8]],
        metroAreaURIs: [String], cityLocations: [[UInt8]], to json: inout JSONBuffer
    ) {
        let venue = world.venues[index]
        let city = world.cities[venue.cityIndex]
        json.raw("\"venue\":{\"id\":")
        json.int(venue.id)
        json.raw(",\"displayName\":")
        json.string(venue.displayName)
        json.raw(",\"uri\":")
        json.string("http://www.songkick.com/venues/\(venue.id)-\(slug)\(partnerQuery)")
        json.raw(",\"metroArea\":")
        json.raw(metroAreaJSON[venue.metroAreaIndex])
        if detailed {
            json.raw(",\"city\":{\"displayName\":")
            json.string(city.displayName)
            appendCountryAndState(city.countryName, city.stateName, to: &json)
            json.raw(",\"id\":")
            json.int(city.id)
            json.raw(",\"uri\":")
            json.string(metroAreaURIs[venue.metroAreaIndex])
            json.raw("}")
        }
        json.raw(",\"lat\":")
        appendDegrees(venue.coordinate?.latitude, to: &json)
        json.raw(",\"lng\":")
        appendDegrees(venue.coordinate?.longitude, to: &json)
        if detailed {
            json.raw(",\"street\":")
            json.string(venue.street)
            json.raw(",\"zip\":null,\"phone\":null,\"website\":")
            json.string(venue.website)
            json.raw(",\"capacity\":")
            json.int(venue.capacity)
            json.raw(",\"description\":null")
        }
        // A venue without coordinates is located at its city centre, as Songkick does.
        let location = venue.coordinate ?? city.centre
        json.raw("},\"location\":{\"city\":\"")
        json.raw(cityLocations[venue.cityIndex])
        json.raw("\",\"lat\":")
        json.degrees(location.latitude)
        json.raw(",\"lng\":")
        json.degrees(location.longitude)
        json.raw("}")
    }

    private static func appendDegrees(_ value: Double?, to json: inout JSONBuffer) {
        if let value { json.degrees(value) } else { json.null() }
    }

    private static func appendDate(_ year: Int, _ month: Int, _ day: Int, to json: inout JSONBuffer) {
        json.padded(year, width: 4)
        json.raw("-")
        json.padded(month, width: 2)
        json.raw("-")
        json.padded(day, width: 2)
    }

    private static func appendTime(_ minutes: Int, to json: inout JSONBuffer) {
        json.padded(minutes / 60, width: 2)
        json.raw(":")
        json.padded(minutes % 60, width: 2)
        json.raw(":00")
    }
}
