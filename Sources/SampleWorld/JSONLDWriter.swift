import Foundation

/// Writes the JSON-LD share of a ``SampleWorld`` as venue web pages:
/// `jsonld/venues/{venue slug}.html`, one per venue with listed events, each event a
/// `<script type="application/ld+json">` block holding a schema.org `MusicEvent`: `@id`
/// and `url` on the venue's site, `name`, `startDate` with its UTC offset (a bare date
/// when the page gives no time), `endDate` for festivals, `eventStatus`, the
/// `MusicVenue` with its `PostalAddress` and `GeoCoordinates`, `MusicGroup` performers
/// (some with a MusicBrainz `sameAs`) and an `Offer`.
///
/// A venue's page grows by appends from bounded buffers as its events come past in date
/// order; the closing tags are added at the end.
public struct JSONLDWriter: Sendable {
    let sources: SourceWorld

    public init(world: SampleWorld) {
        sources = SourceWorld(world: world)
    }

    init(sources: SourceWorld) {
        self.sources = sources
    }

    public func write(to directory: URL) throws -> WriteSummary {
        let folder = try SampleFileOutput.replaceDirectory(
            directory.appendingPathComponent("jsonld", isDirectory: true), creating: "venues")
        let world = sources.world
        let pageNames = Self.pageNames(world)
        let names = sources.artists.indices.map { sources.artistName($0, in: .jsonld) }
        let performerJSON = FragmentTable(sources.artists.indices) { index, json in
            json.raw("{\"@type\":\"MusicGroup\",\"name\":\"")
            json.scriptSafeEscaped(names[index])
            json.raw("\"")
            var rng = sources.details(sources.artists[index].id, .jsonld)
            if let mbid = sources.artists[index].musicBrainzIDs.first, rng.chance(0.6) {
                json.raw(",\"sameAs\":\"https://musicbrainz.org/artist/")
                json.plain(mbid)
                json.raw("\"")
            }
            json.raw("}")
        }
        let locationJSON = FragmentTable(world.venues.indices) { index, json in
            let venue = world.venues[index]
            let city = world.cities[venue.cityIndex]
            json.raw("{\"@type\":\"MusicVenue\",\"name\":\"")
            json.scriptSafeEscaped(sources.venueName(index, in: .jsonld))
            if let website = venue.website {
                json.raw("\",\"url\":\"")
                json.scriptSafeEscaped(website)
            }
            json.raw("\",\"address\":{\"@type\":\"PostalAddress\"")
            if let street = venue.street {
                json.raw(",\"streetAddress\":\"")
                json.scriptSafeEscaped(street)
                json.raw("\"")
            }
            json.raw(",\"addressLocality\":\"")
            json.scriptSafeEscaped(city.displayName)
            json.raw("\"")
            if let state = city.stateName {
                json.raw(",\"addressRegion\":\"")
                json.plain(state)
                json.raw("\"")
            }
            json.raw(",\"addressCountry\":\"")
            json.plain(SampleCountry.named(city.countryName).code)
            json.raw("\"}")
            if let coordinate = sources.venueCoordinate(index, in: .jsonld) {
                json.raw(",\"geo\":{\"@type\":\"GeoCoordinates\",\"latitude\":")
                json.degrees(coordinate.latitude)
                json.raw(",\"longitude\":")
                json.degrees(coordinate.longitude)
                json.raw("}")
            }
            json.raw("}")
        }
        var counts = [Int](repeating: 0, count: world.venues.count)
        var files = AppendingFiles { folder.appendingPathComponent("\(pageNames[$0]).html") }
        var output = SampleFileOutput()
        var html = JSONBuffer(capacity: 16_384)
        var written = 0
        for listing in sources.listings() where listing.sources.contains(.jsonld) {
            let event = listing.event
            guard let venue = event.venueIndex else { continue }
            html.removeAll()
            if counts[venue] == 0 { appendHead(venue, to: &html) }
            var rng = sources.details(event.id, .jsonld)
            let url = sources.jsonldURL(event)
            html.raw("<script type=\"application/ld+json\">\n{\"@context\":\"https://schema.org\",\"@type\":\"MusicEvent\",\"@id\":\"")
            html.scriptSafeEscaped(url)
            html.raw("#event\",\"name\":\"")
            if let series = event.series {
                html.scriptSafeEscaped(series.displayName)
                html.raw(" ")
                html.int(event.startDate.year)
            } else {
                html.scriptSafeEscaped(names[event.performances[0].artistIndex])
                if event.performances.count > 1 {
                    html.raw(" with ")
                    html.scriptSafeEscaped(names[event.performances[1].artistIndex])
                }
            }
            html.raw("\",\"url\":\"")
            html.scriptSafeEscaped(url)
            html.raw("\",\"startDate\":\"")
            html.isoDate(event.startDate)
            if let minutes = listing.startMinutes(in: .jsonld), let offset = event.utcOffsetSeconds {
                html.raw("T")
                html.clock(minutes)
                html.isoOffset(offset)
            }
            if let end = event.endDate {
                html.raw("\",\"endDate\":\"")
                html.isoDate(end)
            }
            html.raw("\",\"eventStatus\":\"https://schema.org/")
            switch listing.status(in: .jsonld) {
            case .ok: html.raw("EventScheduled")
            case .cancelled: html.raw("EventCancelled")
            case .postponed: html.raw("EventPostponed")
            }
            html.raw("\",\"eventAttendanceMode\":\"https://schema.org/OfflineEventAttendanceMode\",\"location\":")
            locationJSON.append(venue, to: &html)
            html.raw(",\"performer\":[")
            for (position, performance) in event.performances.enumerated() {
                if position > 0 { html.raw(",") }
                performerJSON.append(performance.artistIndex, to: &html)
            }
            let country = SampleCountry.named(world.cities[event.cityIndex].countryName)
            let euros = TicketmasterWriter.EventEncoder.basePrice(world.venues[venue].kind) * (0.8 + 0.4 * rng.unit() + event.popularity)
            html.raw("],\"offers\":{\"@type\":\"Offer\",\"url\":\"https://tickets.example/")
            html.int(world.venues[venue].id)
            html.raw("/")
            html.int(sources.permuted(event.id, salt: 0x15D))
            html.raw("\",\"price\":\"")
            html.fixed(country.cents(euros: euros), places: 2)
            html.raw("\",\"priceCurrency\":\"")
            html.plain(country.currency)
            html.raw(rng.chance(0.08) ? "\",\"availability\":\"https://schema.org/SoldOut\"}}\n</script>\n"
                : "\",\"availability\":\"https://schema.org/InStock\"}}\n</script>\n")
            counts[venue] += 1
            written += 1
            try files.append(venue, html, output: &output)
        }
        html.removeAll()
        html.raw("</body>\n</html>\n")
        var pages = 0
        for venue in counts.indices where counts[venue] > 0 {
            try files.append(venue, html, output: &output)
            pages += 1
        }
        try files.flush(output: &output)
        output.summary.files += pages
        output.summary.events = written
        return output.summary
    }

    private func appendHead(_ venue: Int, to html: inout JSONBuffer) {
        let world = sources.world
        let name = sources.venueName(venue, in: .jsonld)
        let city = world.cities[world.venues[venue].cityIndex]
        html.raw("<!DOCTYPE html>\n<html lang=\"")
        html.plain(city.style.languageCode)
        html.raw("\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
        html.xmlEscaped(name)
        html.raw(" – ")
        html.xmlEscaped(city.displayName)
        html.raw(" – Upcoming shows</title>\n</head>\n<body>\n<h1>")
        html.xmlEscaped(name)
        html.raw("</h1>\n")
    }

    /// A page name per venue: its slug, then with the city's slug, then with its id,
    /// whichever is free first ("The Roundhouse" is in four cities).
    static func pageNames(_ world: SampleWorld) -> [String] {
        var slugs = Slug.Memo()
        var taken: Set<String> = []
        return world.venues.map { venue in
            let slug = slugs.make(venue.displayName)
            let withCity = slug + "-" + slugs.make(world.cities[venue.cityIndex].displayName)
            for candidate in [slug, withCity, withCity + "-\(venue.id)"] where !candidate.isEmpty {
                if taken.insert(candidate).inserted { return candidate }
            }
            return "venue-\(venue.id)"
        }
    }
}

extension NameStyle {
    /// The page language of a venue in a city of this style.
    var languageCode: String {
        switch self {
        case .english: "en"
        case .spanish: "es"
        case .french: "fr"
        case .german: "de"
        case .dutch: "nl"
        case .italian: "it"
        case .portuguese: "pt"
        case .nordic: "sv"
        case .icelandic: "is"
        case .polish: "pl"
        case .czech: "cs"
        case .turkish: "tr"
        case .greek: "el"
        case .japanese: "ja"
        case .russian: "ru"
        }
    }
}
