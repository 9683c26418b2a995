import Foundation

/// Writes the Last.fm share of a ``SampleWorld`` as Last.fm API 2.0 `geo.getEvents`
/// responses, one location per metro area (named after its main city), paged:
///
/// - XML: `lastfm-xml/geo/{city}-p{page}.xml` — `<lfm status="ok"><events
///   xmlns:geo=… location page perPage totalPages total>` with `<event>` elements
///   (`id`, `title`, `<artists>` with every act and the `<headliner>`, the `<venue>` with
///   its `<location>` and `geo:point`, `startDate` as `Thu, 03 Dec 2026 20:00:00`,
///   `endDate` for festivals, `description`, `url`, `cancelled`);
/// - JSON: `lastfm-json/geo/{city}-p{page}.json` — the same records as Last.fm's JSON
///   mirrors them: `{"events":{"event":[…],"@attr":{…}}}`, every value a string, a
///   single result as an object instead of a one-element array (for `event` and for
///   `artist`), `/` written `\/` and non-ASCII as `\u` escapes.
///
/// Last.fm writes `00:00:00` when it does not know the time. Records and ids are the
/// same in both encodings. A first pass counts each metro area's records (the page
/// envelope states them); the second writes one page per metro at a time.
public struct LastFMWriter: Sendable {
    public enum Encoding: Sendable {
        case xml
        case json
    }

    let sources: SourceWorld
    public let encoding: Encoding

    public init(world: SampleWorld, encoding: Encoding) {
        self.init(sources: SourceWorld(world: world), encoding: encoding)
    }

    init(sources: SourceWorld, encoding: Encoding) {
        self.sources = sources
        self.encoding = encoding
    }

    public func write(to directory: URL) throws -> WriteSummary {
        let world = sources.world
        let folder = try SampleFileOutput.replaceDirectory(
            directory.appendingPathComponent(encoding == .xml ? "lastfm-xml" : "lastfm-json", isDirectory: true),
            creating: "geo")
        var totals = [Int](repeating: 0, count: world.metroAreas.count)
        for listing in sources.listings() where listing.sources.contains(.lastfm) {
            totals[listing.event.metroAreaIndex] += 1
        }
        let perPage = world.configuration.eventsPerPage
        let fileNames = Self.locationNames(world)
        let encoder = EventEncoder(sources: sources, encoding: encoding)
        var pages = [JSONBuffer](repeating: JSONBuffer(), count: world.metroAreas.count)
        var onPage = [Int](repeating: 0, count: world.metroAreas.count)
        var pageNumbers = [Int](repeating: 1, count: world.metroAreas.count)
        var output = SampleFileOutput()
        var written = 0
        func finishPage(_ metro: Int) throws {
            let total = totals[metro]
            let page = pageNumbers[metro]
            var file = JSONBuffer(capacity: pages[metro].count + 512)
            let main = world.cities[world.metroAreas[metro].cityIndices[0]]
            let location = "\(main.displayName), \(SampleCountry.named(main.countryName).name)"
            let totalPages = (total + perPage - 1) / perPage
            // A page holding one event has it as an object, not an array.
            let single = onPage[metro] == 1
            switch encoding {
            case .xml:
                file.raw("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<lfm status=\"ok\">\n<events xmlns:geo=\"http://www.w3.org/2003/01/geo/wgs84_pos#\"")
                file.xmlAttribute("location", location)
                for (name, value) in [("page", page), ("perPage", perPage), ("totalPages", totalPages), ("total", total)] {
                    file.raw(" ")
                    file.plain(name)
                    file.raw("=\"")
                    file.int(value)
                    file.raw("\"")
                }
                file.raw(" festivalsonly=\"0\">\n")
                file.raw(pages[metro].bytes)
                file.raw("</events>\n</lfm>\n")
            case .json:
                file.raw(single ? "{\"events\":{\"event\":" : "{\"events\":{\"event\":[")
                file.raw(pages[metro].bytes)
                file.raw(single ? ",\"@attr\":{\"location\":\"" : "],\"@attr\":{\"location\":\"")
                file.asciiEscaped(location)
                for (name, value) in [("page", page), ("perPage", perPage), ("totalPages", totalPages), ("total", total)] {
                    file.raw("\",\"")
                    file.plain(name)
                    file.raw("\":\"")
                    file.int(value)
                }
                file.raw("\",\"festivalsonly\":\"0\",\"tag\":\"\"}}}\n")
            }
            let suffix = encoding == .xml ? "xml" : "json"
            try output.save(file, to: folder.appendingPathComponent("\(fileNames[metro])-p\(page).\(suffix)"))
            pages[metro] = JSONBuffer()
            onPage[metro] = 0
            pageNumbers[metro] += 1
        }
        for listing in sources.listings() where listing.sources.contains(.lastfm) {
            let metro = listing.event.metroAreaIndex
            if encoding == .json, onPage[metro] > 0 { pages[metro].raw(",") }
            encoder.appendEvent(listing, to: &pages[metro])
            onPage[metro] += 1
            written += 1
            if onPage[metro] == perPage { try finishPage(metro) }
        }
        for metro in world.metroAreas.indices where onPage[metro] > 0 {
            try finishPage(metro)
        }
        output.summary.events = written
        return output.summary
    }

    /// File names per metro area: the main city's slug, with the country's when two
    /// metro areas share a city name (London, UK and London, Ontario).
    static func locationNames(_ world: SampleWorld) -> [String] {
        var taken: Set<String> = []
        return world.metroAreas.map { metro in
            let city = world.cities[metro.cityIndices[0]]
            let slug = Slug.make(city.displayName)
            if taken.insert(slug).inserted { return slug }
            let qualified = slug + "-" + Slug.make(city.countryName)
            taken.insert(qualified)
            return qualified
        }
    }

    /// One `<event>` element or event object, with artists and venues rendered once.
    struct EventEncoder {
        let sources: SourceWorld
        let encoding: Encoding
        /// Escaped for the encoding, without quotes.
        private let artistNames: FragmentTable
        /// Name words joined with `+` and percent-encoded, for Last.fm URLs.
        private let artistURLNames: [String]
        private let venueURLNames: [String]
        /// The whole `<venue>` element or `"venue":{…}` member.
        private let venueFragments: FragmentTable

        init(sources: SourceWorld, encoding: Encoding) {
            self.sources = sources
            self.encoding = encoding
            let world = sources.world
            let names = sources.artists.indices.map { sources.artistName($0, in: .lastfm) }
            artistNames = FragmentTable(names) { name, buffer in
                if encoding == .xml { buffer.xmlEscaped(name) } else { buffer.asciiEscaped(name) }
            }
            artistURLNames = names.map(Self.urlName)
            let venueNames = world.venues.indices.map { sources.venueName($0, in: .lastfm) }
            let venueURLNames = venueNames.map(Self.urlName)
            self.venueURLNames = venueURLNames
            venueFragments = FragmentTable(world.venues.indices) { index, buffer in
                let venue = world.venues[index]
                let city = world.cities[venue.cityIndex]
                let country = SampleCountry.named(city.countryName)
                let id = 8_000_000 + sources.permuted(venue.id, salt: 0x1A58)
                let cityText = city.countryName == "US" ? "\(city.displayName), \(city.stateName ?? "")" : city.displayName
                let coordinate = sources.venueCoordinate(index, in: .lastfm)
                let fields: [(String, String)] = [
                    ("city", cityText), ("country", country.name), ("street", venue.street ?? ""), ("postalcode", ""),
                ]
                let url = "http://www.last.fm/venue/\(id)+\(venueURLNames[index])"
                switch encoding {
                case .xml:
                    buffer.raw("<venue><id>")
                    buffer.int(id)
                    buffer.raw("</id><name>")
                    buffer.xmlEscaped(venueNames[index])
                    buffer.raw("</name><location><geo:point><geo:lat>")
                    if let coordinate { buffer.decimal(Int((coordinate.latitude * 1_000_000).rounded()), places: 6) }
                    buffer.raw("</geo:lat><geo:long>")
                    if let coordinate { buffer.decimal(Int((coordinate.longitude * 1_000_000).rounded()), places: 6) }
                    buffer.raw("</geo:long></geo:point>")
                    for (name, value) in fields {
                        buffer.raw("<")
                        buffer.plain(name)
                        buffer.raw(">")
                        buffer.xmlEscaped(value)
                        buffer.raw("</")
                        buffer.plain(name)
                        buffer.raw(">")
                    }
                    buffer.raw("</location><url>")
                    buffer.xmlEscaped(url)
                    buffer.raw("</url><website>")
                    buffer.xmlEscaped(venue.website ?? "")
                    buffer.raw("</website><phonenumber></phonenumber></venue>\n")
                case .json:
                    buffer.raw("\"venue\":{\"id\":\"")
                    buffer.int(id)
                    buffer.raw("\",\"name\":\"")
                    buffer.asciiEscaped(venueNames[index])
                    buffer.raw("\",\"location\":{\"geo:point\":{\"geo:lat\":\"")
                    if let coordinate { buffer.decimal(Int((coordinate.latitude * 1_000_000).rounded()), places: 6) }
                    buffer.raw("\",\"geo:long\":\"")
                    if let coordinate { buffer.decimal(Int((coordinate.longitude * 1_000_000).rounded()), places: 6) }
                    buffer.raw("\"}")
                    for (name, value) in fields {
                        buffer.raw(",\"")
                        buffer.plain(name)
                        buffer.raw("\":\"")
                        buffer.asciiEscaped(value)
                        buffer.raw("\"")
                    }
                    buffer.raw("},\"url\":\"")
                    buffer.asciiEscaped(url)
                    buffer.raw("\",\"website\":\"")
                    buffer.asciiEscaped(venue.website ?? "")
                    buffer.raw("\",\"phonenumber\":\"\"}")
                }
            }
        }

        /// "Mumford & Sons" → `Mumford+%26+Sons`, as Last.fm builds its URLs.
        static func urlName(_ name: String) -> String {
            var bytes: [UInt8] = []
            let hex = Array("0123456789ABCDEF".utf8)
            for byte in name.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                    bytes.append(byte)
                case UInt8(ascii: " "):
                    bytes.append(UInt8(ascii: "+"))
                default:
                    bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        func appendEvent(_ listing: SourcedEvent, to buffer: inout JSONBuffer) {
            let event = listing.event
            guard let venue = event.venueIndex else { return }
            let id = sources.recordID(listing, in: .lastfm)
            let headliner = event.performances[0].artistIndex
            let (year, month, day) = event.startDate.civil
            var url = JSONBuffer()
            if let series = event.series {
                url.raw("http://www.last.fm/festival/")
                url.plain(id)
                url.raw("+")
                url.plain(Self.urlName("\(series.displayName) \(year)"))
            } else {
                url.raw("http://www.last.fm/event/")
                url.plain(id)
                url.raw("+")
                url.plain(artistURLNames[headliner])
                url.raw("+at+")
                url.plain(venueURLNames[venue])
                url.raw("+on+")
                url.int(day)
                url.raw("+")
                url.plain(SampleDate.monthNames[month - 1])
                url.raw("+")
                url.int(year)
            }
            let urlText = String(decoding: url.bytes, as: UTF8.self)
            let cancelled = listing.status(in: .lastfm) == .cancelled
            switch encoding {
            case .xml:
                buffer.raw("<event>\n<id>")
                buffer.plain(id)
                buffer.raw("</id>\n<title>")
                appendTitle(event, escape: { $0.xmlEscaped($1) }, to: &buffer)
                buffer.raw("</title>\n<artists>")
                for performance in event.performances {
                    buffer.raw("<artist>")
                    artistNames.append(performance.artistIndex, to: &buffer)
                    buffer.raw("</artist>")
                }
                buffer.raw("<headliner>")
                artistNames.append(headliner, to: &buffer)
                buffer.raw("</headliner></artists>\n")
                venueFragments.append(venue, to: &buffer)
                buffer.raw("<startDate>")
                appendDate(event.startDate, minutes: listing.startMinutes(in: .lastfm), to: &buffer)
                buffer.raw("</startDate>\n")
                if let end = event.endDate {
                    buffer.raw("<endDate>")
                    appendDate(end, minutes: nil, to: &buffer)
                    buffer.raw("</endDate>\n")
                }
                buffer.raw("<description></description>\n<url>")
                buffer.xmlEscaped(urlText)
                buffer.raw(cancelled ? "</url>\n<cancelled>1</cancelled>\n</event>\n" : "</url>\n<cancelled>0</cancelled>\n</event>\n")
            case .json:
                buffer.raw("{\"id\":\"")
                buffer.plain(id)
                buffer.raw("\",\"title\":\"")
                appendTitle(event, escape: { $0.asciiEscaped($1) }, to: &buffer)
                buffer.raw(event.performances.count == 1 ? "\",\"artists\":{\"artist\":\"" : "\",\"artists\":{\"artist\":[\"")
                for (position, performance) in event.performances.enumerated() {
                    if position > 0 { buffer.raw("\",\"") }
                    artistNames.append(performance.artistIndex, to: &buffer)
                }
                buffer.raw(event.performances.count == 1 ? "\",\"headliner\":\"" : "\"],\"headliner\":\"")
                artistNames.append(headliner, to: &buffer)
                buffer.raw("\"},")
                venueFragments.append(venue, to: &buffer)
                buffer.raw(",\"startDate\":\"")
                appendDate(event.startDate, minutes: listing.startMinutes(in: .lastfm), to: &buffer)
                if let end = event.endDate {
                    buffer.raw("\",\"endDate\":\"")
                    appendDate(end, minutes: nil, to: &buffer)
                }
                buffer.raw("\",\"description\":\"\",\"url\":\"")
                buffer.asciiEscaped(urlText)
                buffer.raw(cancelled ? "\",\"cancelled\":\"1\"}\n" : "\",\"cancelled\":\"0\"}\n")
            }
        }

        /// The headliner's name, or the festival's name and year.
        private func appendTitle(
            _ event: SampleEvent, escape: (inout JSONBuffer, String) -> Void, to buffer: inout JSONBuffer
        ) {
            if let series = event.series {
                escape(&buffer, "\(series.displayName) \(event.startDate.year)")
            } else {
                artistNames.append(event.performances[0].artistIndex, to: &buffer)
            }
        }

        /// `Thu, 03 Dec 2026 20:00:00`, with `00:00:00` for an unknown time.
        private func appendDate(_ date: SampleDate, minutes: Int?, to buffer: inout JSONBuffer) {
            let (year, month, day) = date.civil
            buffer.plain(SampleDate.weekdayAbbreviations[date.weekday])
            buffer.raw(", ")
            buffer.padded(day, width: 2)
            buffer.raw(" ")
            buffer.plain(SampleDate.monthAbbreviations[month - 1])
            buffer.raw(" ")
            buffer.int(year)
            buffer.raw(" ")
            buffer.clock(minutes ?? 0)
        }
    }
}
