import Listings

/// Lengths past which a source's text is cut, whatever the format: a 10 MB artist name
/// was stored whole and copied into every feed that lists the artist.
///
/// | text | cut at (characters) |
/// |---|---|
/// | artist, venue, metro area and city names | ``name`` |
/// | event titles | ``title`` |
/// | notes | ``note`` |
/// | street, postal code, region, country | ``addressPart`` |
///
/// A cut value costs its tail, with a warning that names the record; a link longer than
/// ``link`` is dropped instead (a cut link leads somewhere else). Identities are never cut.
enum TextLengthCaps {
    static let name = 300
    static let title = 500
    static let note = 2_000
    static let addressPart = 300
    static let link = 2_000

    static func apply(_ page: inout ListingPage) {
        var warnings: [ListingWarning] = []
        let locator = page.locator
        func cut(_ text: inout String, _ cap: Int, _ what: @autoclosure () -> String) {
            // A string's UTF-8 length is known without a scan; it is never less than its
            // length in characters.
            guard text.utf8.count > cap else { return }
            let characters = text.count
            guard characters > cap else { return }
            text = String(text.prefix(cap))
            warnings.append(
                ListingWarning(locator: locator, position: what(), message: "cut to \(cap) of its \(characters) characters"))
        }
        func cut(_ text: inout String?, _ cap: Int, _ what: @autoclosure () -> String) {
            guard var value = text, value.utf8.count > cap else { return }
            cut(&value, cap, what())
            text = value
        }
        func drop(_ link: inout String?, _ what: @autoclosure () -> String) {
            guard let value = link, value.utf8.count > Self.link else { return }
            link = nil
            warnings.append(
                ListingWarning(
                    locator: locator, position: what(), message: "a link of \(value.utf8.count) bytes is dropped (at most \(Self.link))"))
        }
        func label(_ kind: String, _ id: String) -> String { "\(kind) \(id.prefix(100))" }
        func metro(_ metro: inout MetroAreaListing) {
            cut(&metro.name, name, label("metro area", metro.sourceID) + " name")
            cut(&metro.region, addressPart, label("metro area", metro.sourceID) + " region")
            drop(&metro.url, label("metro area", metro.sourceID) + " url")
        }
        func venue(_ venue: inout VenueListing) {
            let id = label("venue", venue.sourceID)
            cut(&venue.name, name, id + " name")
            cut(&venue.city, name, id + " city")
            cut(&venue.street, addressPart, id + " street")
            cut(&venue.postalCode, addressPart, id + " postal code")
            cut(&venue.region, addressPart, id + " region")
            cut(&venue.country, addressPart, id + " country")
            drop(&venue.url, id + " url")
            drop(&venue.website, id + " website")
            if venue.metroArea != nil { metro(&venue.metroArea!) }
        }
        func artist(_ artist: inout ArtistListing) {
            cut(&artist.name, name, label("artist", artist.sourceID) + " name")
            drop(&artist.url, label("artist", artist.sourceID) + " url")
        }
        for index in page.events.indices {
            let id = label("event", page.events[index].sourceID)
            cut(&page.events[index].title, title, id + " title")
            cut(&page.events[index].note, note, id + " note")
            drop(&page.events[index].url, id + " url")
            for offer in page.events[index].offers.indices { drop(&page.events[index].offers[offer].url, id + " offer url") }
            if page.events[index].venue != nil { venue(&page.events[index].venue!) }
            for act in page.events[index].lineup.indices { artist(&page.events[index].lineup[act].artist) }
        }
        for index in page.artists.indices { artist(&page.artists[index]) }
        for index in page.venues.indices { venue(&page.venues[index]) }
        for index in page.metroAreas.indices { metro(&page.metroAreas[index]) }
        if page.similarArtists != nil {
            for index in page.similarArtists!.similar.indices { artist(&page.similarArtists!.similar[index]) }
        }
        // An artist billed at several events is one warning.
        var seen: Set<ListingWarning> = []
        page.warnings += warnings.filter { seen.insert($0).inserted }
    }
}
