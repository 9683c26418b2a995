import Foundation

/// Writes the Bandsintown share of a ``SampleWorld`` as API v3 artist responses:
///
/// - `bandsintown/artists/{slug}-events.json` — `GET /artists/{name}/events`: an array of
///   the artist's upcoming events by date (`id`, `artist_id`, `url`, `datetime` in venue
///   time with no offset, `on_sale_datetime`, `description`, `title`, `venue` with
///   coordinates as strings, `lineup` as plain names, `offers`);
/// - `bandsintown/artists/{slug}.json` — `GET /artists/{name}`: the artist
///   (`id`, `name`, `url`, `mbid`, `image_url`, `tracker_count`, `upcoming_event_count`).
///
/// An event is filed under its headliner; the other acts exist only as lineup strings.
/// Bandsintown looks artists up by name, so artists whose names slug alike share one
/// artist (and one file) — the first of them in the pool. Cancelled shows it knows
/// about are simply not listed (it has no status field).
///
/// Events arrive in date order from all over the world, so each artist's file grows by
/// appends from bounded buffers rather than being held whole.
public struct BandsintownWriter: Sendable {
    let sources: SourceWorld

    public init(world: SampleWorld) {
        sources = SourceWorld(world: world)
    }

    init(sources: SourceWorld) {
        self.sources = sources
    }

    static let appID = "app_id=encore-sample&came_from=267&utm_medium=api&utm_source=public_api"

    public func write(to directory: URL) throws -> WriteSummary {
        let folder = try SampleFileOutput.replaceDirectory(
            directory.appendingPathComponent("bandsintown", isDirectory: true), creating: "artists")
        let world = sources.world
        var slugs = Slug.Memo()
        let names = sources.artists.indices.map { sources.artistName($0, in: .bandsintown) }
        var canonical: [Int] = []
        var firstWithSlug: [String: Int] = [:]
        var slugOf: [String] = []
        for (index, name) in names.enumerated() {
            var slug = slugs.make(name)
            if slug.isEmpty { slug = "artist-\(sources.artists[index].id)" }
            slugOf.append(slug)
            if let first = firstWithSlug[slug] {
                canonical.append(first)
            } else {
                firstWithSlug[slug] = index
                canonical.append(index)
            }
        }
        let venueJSON = FragmentTable(world.venues.indices) { index, json in
            appendVenue(index, place: nil, city: nil, to: &json)
        }
        var counts = [Int](repeating: 0, count: sources.artists.count)
        var files = AppendingFiles { folder.appendingPathComponent("\(slugOf[$0])-events.json") }
        var output = SampleFileOutput()
        var json = JSONBuffer(capacity: 16_384)
        var written = 0
        for listing in sources.listings() where listing.sources.contains(.bandsintown) {
            let event = listing.event
            guard let venue = event.venueIndex else { continue }
            for record in sources.bandsintownRecords(listing) {
                let artist = canonical[record.artist]
                var rng = sources.details(event.id, .bandsintown)
                let id = record.id
                json.removeAll()
                json.raw(counts[artist] == 0 ? "[\n" : ",\n")
                json.raw("{\"id\":\"")
                json.plain(id)
                json.raw("\",\"artist_id\":\"")
                json.int(Self.artistID(sources.artists[artist], sources))
                json.raw("\",\"url\":\"https://www.bandsintown.com/e/")
                json.plain(id)
                json.raw("?")
                json.plain(Self.appID)
                json.raw("&utm_campaign=event\",\"datetime\":\"")
                json.isoDate(record.date)
                json.raw("T")
                json.clock(record.minutes ?? 0)
                json.raw(record.minutes == nil
                    ? "\",\"datetime_display_rule\":\"date\"" : "\",\"datetime_display_rule\":\"datetime\"")
                json.raw(",\"on_sale_datetime\":\"")
                if !rng.chance(0.2) {
                    json.isoDate(event.startDate.adding(days: -rng.int(in: 14...90)))
                    json.raw("T10:00:00")
                }
                json.raw("\",\"description\":")
                appendDescription(event, rng: &rng, names: names, to: &json)
                json.raw(",\"title\":")
                json.string(record.title ?? event.series.map { "\($0.displayName) \(event.startDate.year)" } ?? "")
                json.raw(",\"venue\":")
                if record.place != nil || record.city != nil {
                    appendVenue(venue, place: record.place, city: record.city, to: &json)
                } else {
                    venueJSON.append(venue, to: &json)
                }
                json.raw(",\"lineup\":[")
                for (position, name) in record.lineup.enumerated() {
                    if position > 0 { json.raw(",") }
                    json.string(name)
                }
                json.raw("],\"offers\":[")
                if !rng.chance(0.1) {
                    json.raw("{\"type\":\"Tickets\",\"url\":\"https://www.bandsintown.com/t/")
                    json.plain(id)
                    json.raw("?")
                    json.plain(Self.appID)
                    json.raw("&utm_campaign=ticket\",\"status\":\"available\"}")
                }
                json.raw("]}")
                counts[artist] += 1
                written += 1
                try files.append(artist, json, output: &output)
            }
        }
        json.removeAll()
        json.raw("\n]\n")
        var artistFiles = 0
        for artist in counts.indices where counts[artist] > 0 {
            try files.append(artist, json, output: &output)
            artistFiles += 1
        }
        try files.flush(output: &output)
        output.summary.files += artistFiles
        for artist in counts.indices where counts[artist] > 0 {
            try writeArtist(
                artist, name: names[artist], upcoming: counts[artist],
                to: folder.appendingPathComponent("\(slugOf[artist]).json"), output: &output)
        }
        output.summary.events = written
        return output.summary
    }

    /// A venue as Bandsintown embeds it; `place` names and places it another way, `city`
    /// names its city another way.
    private func appendVenue(
        _ index: Int, place: (name: String, coordinate: SampleCoordinate)?, city cityName: String?,
        to json: inout JSONBuffer
    ) {
        let world = sources.world
        let venue = world.venues[index]
        let city = world.cities[venue.cityIndex]
        let country = SampleCountry.named(city.countryName)
        // Bandsintown geocodes what it cannot place to the city.
        let coordinate = place?.coordinate ?? sources.venueCoordinate(index, in: .bandsintown) ?? city.centre
        json.raw("{\"name\":")
        json.string(place?.name ?? sources.venueName(index, in: .bandsintown))
        json.raw(",\"latitude\":")
        json.quotedDegrees(coordinate.latitude)
        json.raw(",\"longitude\":")
        json.quotedDegrees(coordinate.longitude)
        json.raw(",\"city\":")
        json.string(cityName ?? city.displayName)
        json.raw(",\"region\":")
        json.string(city.stateName ?? "")
        json.raw(",\"country\":")
        json.string(country.name)
        json.raw(",\"location\":")
        json.string((cityName ?? city.displayName) + ", " + (city.stateName.map { $0 + ", " } ?? "") + country.name)
        json.raw("}")
    }

    static func artistID(_ artist: SampleArtist, _ sources: SourceWorld) -> Int {
        100 + sources.permuted(artist.id, salt: 0xB1A)
    }

    private func appendDescription(
        _ event: SampleEvent, rng: inout SplitMix64, names: [String], to json: inout JSONBuffer
    ) {
        let headliner = names[event.performances[0].artistIndex]
        switch rng.int(below: 5) {
        case 0, 1: json.string("")
        case 2: json.string(headliner)
        case 3:
            json.string("\(headliner) live at \(sources.venueName(event.venueIndex!, in: .bandsintown)). Doors one hour before the show.")
        default:
            json.string(event.performances.count > 1 ? "With special guests." : "All ages welcome; under 16s with an adult.")
        }
    }

    private func writeArtist(
        _ index: Int, name: String, upcoming: Int, to url: URL, output: inout SampleFileOutput
    ) throws {
        let artist = sources.artists[index]
        var rng = sources.details(artist.id, .bandsintown)
        let id = Self.artistID(artist, sources)
        let image = 1_000_000 + sources.permuted(artist.id, salt: 0x1A6)
        var json = JSONBuffer()
        json.raw("{\"id\":\"")
        json.int(id)
        json.raw("\",\"name\":")
        json.string(name)
        json.raw(",\"url\":\"https://www.bandsintown.com/a/")
        json.int(id)
        json.raw("?came_from=267&app_id=encore-sample\",\"mbid\":")
        json.string(artist.musicBrainzIDs.first ?? "")
        json.raw(",\"image_url\":\"https://photos.bandsintown.com/large/")
        json.int(image)
        json.raw(".jpeg\",\"thumb_url\":\"https://photos.bandsintown.com/thumb/")
        json.int(image)
        json.raw(".jpeg\",\"tracker_count\":")
        json.int(Int(artist.popularity * 2_000_000) + rng.int(below: 500))
        json.raw(",\"upcoming_event_count\":")
        json.int(upcoming)
        json.raw("}\n")
        try output.save(json, to: url)
    }
}
