/// Turns world events into Songkick API v3 XML `<event>` elements carrying exactly what
/// ``SongkickEventEncoder`` puts in the JSON: the same display names, URIs, numbers and
/// nulls (a null is an absent attribute), so reading either gives the same listings.
///
/// As in the JSON encoder, every artist, venue and metro area element is rendered once
/// and spliced into each event.
struct SongkickXMLEncoder: Sendable {
    let world: SampleWorld
    let metroAreaURIs: [String]
    /// `<metroArea …><country …/><state …/></metroArea>` per metro area.
    private let metroAreaXML: FragmentTable
    /// `<artist …>…</artist>` per artist, as events embed it.
    private let artistXML: FragmentTable
    private let artistNames: FragmentTable
    private let artistSlugs: FragmentTable
    /// `<venue …>…</venue><location …/>` per venue.
    private let venueXML: FragmentTable
    private let venueNames: FragmentTable
    private let venueSlugs: FragmentTable
    /// The same pair for festivals whose venue is unknown, per city.
    private let unknownVenueXML: FragmentTable
    /// "Minneapolis, MN, US" per city.
    private let cityLocations: [String]

    init(world: SampleWorld) {
        self.world = world
        var slugs = Slug.Memo()
        let metroAreaURIs = world.metroAreas.map { metro in
            "http://www.songkick.com/metro-areas/\(metro.id)-\(Slug.make(metro.countryName + " " + metro.displayName))\(SongkickEventEncoder.partnerQuery)"
        }
        self.metroAreaURIs = metroAreaURIs
        metroAreaXML = FragmentTable(world.metroAreas.indices) { index, xml in
            let metro = world.metroAreas[index]
            xml.raw("<metroArea")
            xml.xmlAttribute("id", String(metro.id))
            xml.xmlAttribute("displayName", metro.displayName)
            xml.xmlAttribute("uri", metroAreaURIs[index])
            xml.raw(">")
            Self.appendCountryAndState(metro.countryName, metro.stateName, to: &xml)
            xml.raw("</metroArea>")
        }
        let cityLocations = world.cities.map { city in
            [city.displayName, city.stateName, city.countryName].compactMap { $0 }.joined(separator: ", ")
        }
        self.cityLocations = cityLocations
        let artistSlugStrings = world.artists.map { slugs.make($0.displayName) }
        artistXML = FragmentTable(world.artists.indices) { index, xml in
            Self.appendArtist(world.artists[index], slug: artistSlugStrings[index], inListing: false, to: &xml)
        }
        artistNames = FragmentTable(world.artists) { artist, xml in xml.xmlEscaped(artist.displayName) }
        artistSlugs = FragmentTable(artistSlugStrings) { slug, xml in xml.xmlEscaped(slug) }
        let venueSlugStrings = world.venues.map { slugs.make($0.displayName) }
        let metroAreaXML = metroAreaXML
        venueXML = FragmentTable(world.venues.indices) { index, xml in
            Self.appendVenueAndLocation(
                index, slug: venueSlugStrings[index], detailed: false, world: world, metroAreaXML: metroAreaXML,
                metroAreaURIs: metroAreaURIs, cityLocations: cityLocations, to: &xml)
        }
        venueNames = FragmentTable(world.venues) { venue, xml in xml.xmlEscaped(venue.displayName) }
        venueSlugs = FragmentTable(venueSlugStrings) { slug, xml in xml.xmlEscaped(slug) }
        unknownVenueXML = FragmentTable(world.cities.indices) { index, xml in
            let city = world.cities[index]
            xml.raw("<venue displayName=\"Unknown venue\" lat=\"")
            xml.degrees(city.centre.latitude)
            xml.raw("\" lng=\"")
            xml.degrees(city.centre.longitude)
            xml.raw("\">")
            metroAreaXML.append(city.metroAreaIndex, to: &xml)
            xml.raw("</venue><location")
            xml.xmlAttribute("city", cityLocations[index])
            xml.raw(" lat=\"")
            xml.degrees(city.centre.latitude)
            xml.raw("\" lng=\"")
            xml.degrees(city.centre.longitude)
            xml.raw("\"/>")
        }
    }

    /// Appends one `<event>` element. `detailed` adds the venue fields only the
    /// event-details endpoint returns (street, website, capacity, city).
    func appendEvent(_ event: SampleEvent, detailed: Bool = false, to xml: inout JSONBuffer) {
        let (year, month, day) = event.startDate.civil
        xml.raw("<event id=\"")
        xml.int(event.id)
        xml.raw(event.kind == .festival ? "\" type=\"Festival\" status=\"" : "\" type=\"Concert\" status=\"")
        switch event.status {
        case .ok: xml.raw("ok")
        case .cancelled: xml.raw("cancelled")
        case .postponed: xml.raw("postponed")
        }
        xml.raw("\" displayName=\"")
        appendDisplayName(event, year: year, month: month, day: day, to: &xml)
        xml.raw("\" uri=\"")
        appendURI(event, year: year, to: &xml)
        xml.raw("\" popularity=\"")
        xml.decimal(Int((event.popularity * 1_000_000).rounded()), places: 6)
        xml.raw("\"")
        xml.xmlAttribute("ageRestriction", event.ageRestriction)
        xml.raw(">\n<start date=\"")
        xml.isoDate(event.startDate)
        if let minutes = event.startMinutes, let offset = event.utcOffsetSeconds {
            xml.raw("\" time=\"")
            xml.clock(minutes)
            xml.raw("\" datetime=\"")
            xml.isoDate(event.startDate)
            xml.raw("T")
            xml.clock(minutes)
            xml.raw(offset < 0 ? "-" : "+")
            xml.padded(abs(offset) / 3600, width: 2)
            xml.padded(abs(offset) % 3600 / 60, width: 2)
        }
        xml.raw("\"/>\n")
        // As in the JSON: a cancelled event comes with an empty bill.
        if event.status != .cancelled {
            for performance in event.performances {
                xml.raw("<performance id=\"")
                xml.int(performance.id)
                xml.raw(performance.billing == .headline ? "\" billing=\"headline\"" : "\" billing=\"support\"")
                xml.raw(" billingIndex=\"")
                xml.int(performance.billingIndex)
                xml.raw("\" displayName=\"")
                artistNames.append(performance.artistIndex, to: &xml)
                xml.raw("\">")
                artistXML.append(performance.artistIndex, to: &xml)
                xml.raw("</performance>\n")
            }
        }
        if let venue = event.venueIndex {
            if detailed {
                Self.appendVenueAndLocation(
                    venue, slug: Slug.make(world.venues[venue].displayName), detailed: true, world: world,
                    metroAreaXML: metroAreaXML, metroAreaURIs: metroAreaURIs, cityLocations: cityLocations, to: &xml)
            } else {
                venueXML.append(venue, to: &xml)
            }
        } else {
            unknownVenueXML.append(event.cityIndex, to: &xml)
        }
        if let end = event.endDate, let series = event.series {
            xml.raw("\n<end date=\"")
            xml.isoDate(end)
            xml.raw("\"/><series")
            xml.xmlAttribute("displayName", series.displayName)
            xml.raw("/>")
        }
        xml.raw("\n</event>\n")
    }

    /// An artist as events embed it or, `inListing`, as search and similar-artist
    /// responses list it (with calendar and setlist links and `onTourUntil`).
    static func appendArtist(
        _ artist: SampleArtist, slug: String, inListing: Bool, onTourUntil: SampleDate? = nil,
        to xml: inout JSONBuffer
    ) {
        xml.raw("<artist id=\"")
        xml.int(artist.id)
        xml.raw("\"")
        xml.xmlAttribute("displayName", artist.displayName)
        xml.xmlAttribute(
            "uri", "http://www.songkick.com/artists/\(artist.id)-\(slug)\(SongkickEventEncoder.partnerQuery)")
        if inListing {
            xml.xmlAttribute("onTourUntil", onTourUntil?.iso8601)
        }
        guard !artist.musicBrainzIDs.isEmpty else {
            xml.raw("/>")
            return
        }
        xml.raw(">")
        for mbid in artist.musicBrainzIDs {
            xml.raw("<identifier")
            xml.xmlAttribute("mbid", mbid)
            xml.xmlAttribute("href", "http://api.songkick.com/api/3.0/artists/mbid:\(mbid).json")
            if inListing {
                xml.xmlAttribute("eventsHref", "http://api.songkick.com/api/3.0/artists/mbid:\(mbid)/calendar.json")
                xml.xmlAttribute("setlistsHref", "http://api.songkick.com/api/3.0/artists/mbid:\(mbid)/setlists.json")
            }
            xml.raw("/>")
        }
        xml.raw("</artist>")
    }

    static func appendCountryAndState(_ country: String, _ state: String?, to xml: inout JSONBuffer) {
        xml.raw("<country")
        xml.xmlAttribute("displayName", country)
        xml.raw("/>")
        if let state {
            xml.raw("<state")
            xml.xmlAttribute("displayName", state)
            xml.raw("/>")
        }
    }

    func appendMetroArea(_ index: Int, to xml: inout JSONBuffer) {
        metroAreaXML.append(index, to: &xml)
    }

    /// The JSON encoder's display name, character for character, escaped for an attribute.
    private func appendDisplayName(_ event: SampleEvent, year: Int, month: Int, day: Int, to xml: inout JSONBuffer) {
        if let series = event.series {
            xml.xmlEscaped(series.displayName)
            xml.raw(" ")
            xml.int(year)
        } else if let venue = event.venueIndex {
            let performances = event.performances
            artistNames.append(performances[0].artistIndex, to: &xml)
            for position in performances.indices.dropFirst() {
                if position == 1 {
                    xml.raw(" with ")
                } else {
                    xml.raw(position == performances.count - 1 ? " and " : ", ")
                }
                artistNames.append(performances[position].artistIndex, to: &xml)
            }
            xml.raw(" at ")
            venueNames.append(venue, to: &xml)
            xml.raw(" (")
            xml.plain(SampleDate.monthNames[month - 1])
            xml.raw(" ")
            xml.int(day)
            xml.raw(", ")
            xml.int(year)
            xml.raw(")")
        }
        if event.status == .cancelled {
            xml.raw(" (CANCELLED) ")
        }
    }

    private func appendURI(_ event: SampleEvent, year: Int, to xml: inout JSONBuffer) {
        if let series = event.series {
            let slug = Slug.make(series.displayName)
            xml.raw("http://www.songkick.com/festivals/")
            xml.int(series.id)
            xml.xmlEscaped("-\(slug)/id/")
            xml.int(event.id)
            xml.xmlEscaped("-\(slug)-")
            xml.int(year)
        } else if let venue = event.venueIndex {
            xml.raw("http://www.songkick.com/concerts/")
            xml.int(event.id)
            xml.raw("-")
            artistSlugs.append(event.performances[0].artistIndex, to: &xml)
            xml.raw("-at-")
            venueSlugs.append(venue, to: &xml)
        }
        xml.raw("?utm_source=45852&amp;utm_medium=partner")
    }

    private static func appendVenueAndLocation(
        _ index: Int, slug: String, detailed: Bool, world: SampleWorld, metroAreaXML: FragmentTable,
        metroAreaURIs: [String], cityLocations: [String], to xml: inout JSONBuffer
    ) {
        let venue = world.venues[index]
        let city = world.cities[venue.cityIndex]
        xml.raw("<venue id=\"")
        xml.int(venue.id)
        xml.raw("\"")
        xml.xmlAttribute("displayName", venue.displayName)
        if let coordinate = venue.coordinate {
            xml.raw(" lat=\"")
            xml.degrees(coordinate.latitude)
            xml.raw("\" lng=\"")
            xml.degrees(coordinate.longitude)
            xml.raw("\"")
        }
        xml.xmlAttribute("uri", "http://www.songkick.com/venues/\(venue.id)-\(slug)\(SongkickEventEncoder.partnerQuery)")
        if detailed {
            xml.xmlAttribute("street", venue.street)
            xml.xmlAttribute("website", venue.website)
            xml.raw(" capacity=\"")
            xml.int(venue.capacity)
            xml.raw("\"")
        }
        xml.raw(">")
        metroAreaXML.append(venue.metroAreaIndex, to: &xml)
        if detailed {
            xml.raw("<city id=\"")
            xml.int(city.id)
            xml.raw("\"")
            xml.xmlAttribute("displayName", city.displayName)
            xml.xmlAttribute("uri", metroAreaURIs[venue.metroAreaIndex])
            xml.raw(">")
            appendCountryAndState(city.countryName, city.stateName, to: &xml)
            xml.raw("</city>")
        }
        // A venue without coordinates is located at its city centre, as Songkick does.
        let location = venue.coordinate ?? city.centre
        xml.raw("</venue>\n<location")
        xml.xmlAttribute("city", cityLocations[venue.cityIndex])
        xml.raw(" lat=\"")
        xml.degrees(location.latitude)
        xml.raw("\" lng=\"")
        xml.degrees(location.longitude)
        xml.raw("\"/>")
    }
}
