import Foundation

/// The non-calendar responses: searches, event details and similar artists.
///
/// Queries are derived from the world rather than fixed, so they always find something
/// whatever the seed: the last word of the most popular artist's name, and a name with
/// diacritics typed without them ("bjort" for "Björt"), which a search must fold to match.
extension SongkickJSONWriter {
    /// Cities searched for: "london" finds London, UK and London, Ontario; "san" finds
    /// San Francisco, San Sebastián and Santiago — the ambiguity a location lookup must handle.
    static let locationQueries = ["london", "san"]

    func writeLookups(
        into directory: URL, encoder: SongkickEventEncoder, notes: CalendarNotes, output: inout Output
    ) throws {
        let foldedNames = world.artists.map { Self.folded($0.displayName).split(separator: " ") }
        for query in artistQueries() {
            let matches = foldedNames.indices.filter { foldedNames[$0].contains { $0.hasPrefix(query) } }
            try writeArtistList(
                matches, to: directory.appendingPathComponent("artist-search-\(Slug.make(query)).json"),
                notes: notes, output: &output)
        }
        for query in Self.locationQueries {
            try writeLocationSearch(query, into: directory, encoder: encoder, output: &output)
        }
        for event in [notes.festival, notes.concertWithSupport].compactMap({ $0 }) {
            var json = JSONBuffer()
            json.raw("{\"resultsPage\":{\"status\":\"ok\",\"results\":{\"event\":")
            encoder.appendEvent(event, detailed: true, to: &json)
            json.raw("}}}")
            try output.save(json, to: directory.appendingPathComponent("event-\(event.id).json"))
        }
        try writeSimilarArtists(to: 0, into: directory, notes: notes, output: &output)
    }

    func artistQueries() -> [String] {
        var queries: [String] = []
        if let lastWord = world.artists.first?.displayName.split(separator: " ").last {
            queries.append(Self.folded(String(lastWord)))
        }
        let typedWithoutDiacritics = world.artists.lazy.compactMap { artist -> String? in
            guard let word = artist.displayName.split(separator: " ").first.map(String.init) else { return nil }
            let folded = Self.folded(word)
            return folded != word.lowercased() && folded.utf8.allSatisfy({ $0 < 0x80 }) ? folded : nil
        }.first
        if let typedWithoutDiacritics, !queries.contains(typedWithoutDiacritics) {
            queries.append(typedWithoutDiacritics)
        }
        return queries
    }

    /// Songkick's similar artists, modelled as the most popular artists of the same genre.
    private func writeSimilarArtists(
        to artistIndex: Int, into directory: URL, notes: CalendarNotes, output: inout Output
    ) throws {
        let artist = world.artists[artistIndex]
        let similar = world.artists.indices.filter { $0 != artistIndex && world.artists[$0].genre == artist.genre }
        try writeArtistList(
            similar, to: directory.appendingPathComponent("similar-artists-\(artist.id).json"),
            notes: notes, output: &output)
    }

    /// A paged artist list (first page only), with `onTourUntil` from the calendar pass.
    private func writeArtistList(
        _ artistIndices: [Int], to url: URL, notes: CalendarNotes, output: inout Output
    ) throws {
        var json = JSONBuffer()
        json.raw("{\"resultsPage\":{\"status\":\"ok\",\"results\":{\"artist\":[")
        for (position, index) in artistIndices.prefix(world.configuration.eventsPerPage).enumerated() {
            if position > 0 { json.raw(",") }
            let lastShow = notes.lastShow[index]
            SongkickEventEncoder.appendArtist(
                world.artists[index], slug: Slug.make(world.artists[index].displayName), inListing: true,
                onTourUntil: lastShow == Int.min ? nil : SampleDate(daysSince1970: lastShow), to: &json)
        }
        json.raw("]},")
        appendPaging(total: artistIndices.count, to: &json)
        try output.save(json, to: url)
    }

    private func writeLocationSearch(
        _ query: String, into directory: URL, encoder: SongkickEventEncoder, output: inout Output
    ) throws {
        let matches = world.cities.indices.filter { index in
            Self.folded(world.cities[index].displayName).split(separator: " ").contains { $0.hasPrefix(query) }
        }
        var json = JSONBuffer()
        json.raw("{\"resultsPage\":{\"status\":\"ok\",\"results\":{\"location\":[")
        for (position, index) in matches.enumerated() {
            let city = world.cities[index]
            let metro = world.metroAreas[city.metroAreaIndex]
            if position > 0 { json.raw(",") }
            json.raw("{\"city\":{\"displayName\":")
            json.string(city.displayName)
            SongkickEventEncoder.appendCountryAndState(city.countryName, city.stateName, to: &json)
            json.raw(",\"lat\":")
            json.degrees(city.centre.latitude)
            json.raw(",\"lng\":")
            json.degrees(city.centre.longitude)
            json.raw("},\"metroArea\":{\"id\":")
            json.int(metro.id)
            json.raw(",\"displayName\":")
            json.string(metro.displayName)
            SongkickEventEncoder.appendCountryAndState(metro.countryName, metro.stateName, to: &json)
            json.raw(",\"lat\":")
            json.degrees(metro.centre.latitude)
            json.raw(",\"lng\":")
            json.degrees(metro.centre.longitude)
            json.raw(",\"uri\":")
            json.string(encoder.metroAreaURIs[city.metroAreaIndex])
            json.raw("}}")
        }
        json.raw("]},")
        appendPaging(total: matches.count, to: &json)
        try output.save(json, to: directory.appendingPathComponent("location-search-\(Slug.make(query)).json"))
    }

    private func appendPaging(total: Int, to json: inout JSONBuffer) {
        json.raw("\"perPage\":")
        json.int(world.configuration.eventsPerPage)
        json.raw(",\"page\":1,\"totalEntries\":")
        json.int(total)
        json.raw("}}")
    }

    /// Lowercased without diacritics, as a search box compares.
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
