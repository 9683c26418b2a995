import Listings

/// Names and titles without control characters, whatever the format: a name is text to
/// show and search, and a NUL in one cut it short in the search index, `search/artists.json`
/// and `encore search`, while "\u0000" alone passed for a name where "" and " " did not.
///
/// The rule, applied to every page before it is applied: in artist, venue, metro area and
/// city names and in event titles, line breaks and tabs (and the other C0/C1 spacing
/// controls) become spaces, every other control character (U+0000-U+001F, U+007F-U+009F)
/// is removed, and the result is trimmed. A name left empty refuses the page, as an empty
/// name does.
enum NameControlCharacters {
    static func clean(_ page: inout ListingPage) throws(IngestError) {
        // Pages almost never hold one: looked for without writing, so the page's derived
        // values are not dropped for nothing.
        guard contains(page) else { return }
        let locator = page.locator
        func name(_ text: inout String, _ what: String) throws(IngestError) {
            guard hasControl(text) else { return }
            text = cleaned(text)
            if text.isEmpty {
                throw IngestError(
                    locator: locator, position: what, reason: .invalidValue("a name made only of control characters"))
            }
        }
        func optional(_ text: inout String?) {
            if let value = text, hasControl(value) {
                let value = cleaned(value)
                text = value.isEmpty ? nil : value
            }
        }
        func metro(_ metro: inout MetroAreaListing) throws(IngestError) { try name(&metro.name, "metro area \(metro.sourceID)") }
        func venue(_ venue: inout VenueListing) throws(IngestError) {
            try name(&venue.name, "venue \(venue.sourceID)")
            optional(&venue.city)
            if venue.metroArea != nil { try metro(&venue.metroArea!) }
        }
        func artist(_ artist: inout ArtistListing) throws(IngestError) { try name(&artist.name, "artist \(artist.sourceID)") }
        for index in page.events.indices {
            try name(&page.events[index].title, "event \(page.events[index].sourceID)")
            if page.events[index].venue != nil { try venue(&page.events[index].venue!) }
            for act in page.events[index].lineup.indices { try artist(&page.events[index].lineup[act].artist) }
        }
        for index in page.artists.indices { try artist(&page.artists[index]) }
        for index in page.venues.indices { try venue(&page.venues[index]) }
        for index in page.metroAreas.indices { try metro(&page.metroAreas[index]) }
        if page.similarArtists != nil {
            for index in page.similarArtists!.similar.indices { try artist(&page.similarArtists!.similar[index]) }
        }
    }

    static func contains(_ page: ListingPage) -> Bool {
        func venue(_ venue: VenueListing) -> Bool {
            hasControl(venue.name) || venue.city.map(hasControl) == true || venue.metroArea.map { hasControl($0.name) } == true
        }
        return page.events.contains { event in
            hasControl(event.title) || event.venue.map(venue) == true || event.lineup.contains { hasControl($0.artist.name) }
        }
            || page.artists.contains { hasControl($0.name) } || page.venues.contains(where: venue)
            || page.metroAreas.contains { hasControl($0.name) }
            || page.similarArtists?.similar.contains { hasControl($0.name) } == true
    }

    /// A byte scan: C0 and DEL are single bytes, C1 is 0xC2 0x80-0x9F in UTF-8.
    static func hasControl(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte < 0xA0 && byte >= 0x80) { return true }
            previous = byte
        }
        return false
    }

    static func cleaned(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09...0x0D, 0x85: scalars.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars).trimmingWhitespace()
    }
}
