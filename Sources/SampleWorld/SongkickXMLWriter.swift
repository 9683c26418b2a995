import Foundation

/// Writes a ``SampleWorld`` as Songkick API v3 XML responses (`format=xml`): the same
/// files as ``SongkickJSONWriter`` with `.xml` names under `songkick-xml/`, holding the
/// same events, artists and places with the same values, so that ingesting either
/// directory gives the same catalog.
///
/// - `songkick-xml/metro-areas/{metro id}-calendar-p{page}.xml`
/// - `artist-search-{query}.xml`, `location-search-{query}.xml`, `event-{id}.xml`,
///   `similar-artists-{artist id}.xml`
///
/// The shape is Songkick's: `<resultsPage status page perPage totalEntries><results>`,
/// values as attributes, lists as repeated elements, nulls left out. Calendars stream one
/// page at a time, like the JSON.
public struct SongkickXMLWriter: Sendable {
    public let world: SampleWorld

    public init(world: SampleWorld) {
        self.world = world
    }

    public func write(to directory: URL) throws -> WriteSummary {
        let root = directory.appendingPathComponent("songkick-xml", isDirectory: true)
        let calendars = try SampleFileOutput.replaceDirectory(root, creating: "metro-areas")
        let encoder = SongkickXMLEncoder(world: world)
        var output = SampleFileOutput()
        var notes = SongkickJSONWriter.CalendarNotes(artistCount: world.artists.count)
        for metroIndex in world.metroAreas.indices {
            try writeCalendar(metroIndex, into: calendars, encoder: encoder, notes: &notes, output: &output)
        }
        try writeLookups(into: root, encoder: encoder, notes: notes, output: &output)
        return output.summary
    }

    private static func openPage(_ xml: inout JSONBuffer, page: Int, perPage: Int, total: Int) {
        xml.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<resultsPage status=\"ok\" page=\"")
        xml.int(page)
        xml.raw("\" perPage=\"")
        xml.int(perPage)
        xml.raw("\" totalEntries=\"")
        xml.int(total)
        xml.raw("\">\n")
    }

    private func writeCalendar(
        _ metroIndex: Int, into directory: URL, encoder: SongkickXMLEncoder,
        notes: inout SongkickJSONWriter.CalendarNotes, output: inout SampleFileOutput
    ) throws {
        let metroID = world.metroAreas[metroIndex].id
        let total = world.eventCount(inMetroAreaAt: metroIndex)
        let perPage = world.configuration.eventsPerPage
        var xml = JSONBuffer(capacity: perPage * 2_500)
        var page = 1
        var onPage = 0
        func finishPage() throws {
            xml.raw("</results>\n</resultsPage>\n")
            try output.save(xml, to: directory.appendingPathComponent("\(metroID)-calendar-p\(page).xml"))
            xml.removeAll()
            page += 1
            onPage = 0
        }
        guard total > 0 else {
            Self.openPage(&xml, page: 1, perPage: perPage, total: 0)
            xml.raw("<results/>\n</resultsPage>\n")
            try output.save(xml, to: directory.appendingPathComponent("\(metroID)-calendar-p1.xml"))
            return
        }
        for event in world.events(inMetroAreaAt: metroIndex) {
            if onPage == 0 {
                Self.openPage(&xml, page: page, perPage: perPage, total: total)
                xml.raw("<results>\n")
            }
            encoder.appendEvent(event, to: &xml)
            notes.note(event)
            output.summary.events += 1
            onPage += 1
            if onPage == perPage { try finishPage() }
        }
        if onPage > 0 { try finishPage() }
    }

    // MARK: - Lookups (the same responses, and the same queries, as the JSON writer's)

    private func writeLookups(
        into directory: URL, encoder: SongkickXMLEncoder, notes: SongkickJSONWriter.CalendarNotes,
        output: inout SampleFileOutput
    ) throws {
        let json = SongkickJSONWriter(world: world)
        let foldedNames = world.artists.map { SongkickJSONWriter.folded($0.displayName).split(separator: " ") }
        for query in json.artistQueries() {
            let matches = foldedNames.indices.filter { foldedNames[$0].contains { $0.hasPrefix(query) } }
            try writeArtistList(
                matches, to: directory.appendingPathComponent("artist-search-\(Slug.make(query)).xml"), notes: notes,
                output: &output)
        }
        for query in SongkickJSONWriter.locationQueries {
            try writeLocationSearch(query, into: directory, encoder: encoder, output: &output)
        }
        for event in [notes.festival, notes.concertWithSupport].compactMap({ $0 }) {
            var xml = JSONBuffer()
            xml.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<resultsPage status=\"ok\">\n<results>\n")
            encoder.appendEvent(event, detailed: true, to: &xml)
            xml.raw("</results>\n</resultsPage>\n")
            try output.save(xml, to: directory.appendingPathComponent("event-\(event.id).xml"))
        }
        let artist = world.artists[0]
        let similar = world.artists.indices.filter { $0 != 0 && world.artists[$0].genre == artist.genre }
        try writeArtistList(
            similar, to: directory.appendingPathComponent("similar-artists-\(artist.id).xml"), notes: notes,
            output: &output)
    }

    private func writeArtistList(
        _ artistIndices: [Int], to url: URL, notes: SongkickJSONWriter.CalendarNotes, output: inout SampleFileOutput
    ) throws {
        var xml = JSONBuffer()
        Self.openPage(&xml, page: 1, perPage: world.configuration.eventsPerPage, total: artistIndices.count)
        xml.raw("<results>\n")
        for index in artistIndices.prefix(world.configuration.eventsPerPage) {
            let lastShow = notes.lastShow[index]
            SongkickXMLEncoder.appendArtist(
                world.artists[index], slug: Slug.make(world.artists[index].displayName), inListing: true,
                onTourUntil: lastShow == Int.min ? nil : SampleDate(daysSince1970: lastShow), to: &xml)
            xml.raw("\n")
        }
        xml.raw("</results>\n</resultsPage>\n")
        try output.save(xml, to: url)
    }

    private func writeLocationSearch(
        _ query: String, into directory: URL, encoder: SongkickXMLEncoder, output: inout SampleFileOutput
    ) throws {
        let matches = world.cities.indices.filter { index in
            SongkickJSONWriter.folded(world.cities[index].displayName).split(separator: " ").contains { $0.hasPrefix(query) }
        }
        var xml = JSONBuffer()
        Self.openPage(&xml, page: 1, perPage: world.configuration.eventsPerPage, total: matches.count)
        xml.raw("<results>\n")
        for index in matches {
            let city = world.cities[index]
            let metro = world.metroAreas[city.metroAreaIndex]
            xml.raw("<location><city")
            xml.xmlAttribute("displayName", city.displayName)
            xml.raw(" lat=\"")
            xml.degrees(city.centre.latitude)
            xml.raw("\" lng=\"")
            xml.degrees(city.centre.longitude)
            xml.raw("\">")
            SongkickXMLEncoder.appendCountryAndState(city.countryName, city.stateName, to: &xml)
            xml.raw("</city><metroArea id=\"")
            xml.int(metro.id)
            xml.raw("\"")
            xml.xmlAttribute("displayName", metro.displayName)
            xml.raw(" lat=\"")
            xml.degrees(metro.centre.latitude)
            xml.raw("\" lng=\"")
            xml.degrees(metro.centre.longitude)
            xml.raw("\"")
            xml.xmlAttribute("uri", encoder.metroAreaURIs[city.metroAreaIndex])
            xml.raw(">")
            SongkickXMLEncoder.appendCountryAndState(metro.countryName, metro.stateName, to: &xml)
            xml.raw("</metroArea></location>\n")
        }
        xml.raw("</results>\n</resultsPage>\n")
        try output.save(xml, to: directory.appendingPathComponent("location-search-\(Slug.make(query)).xml"))
    }
}
