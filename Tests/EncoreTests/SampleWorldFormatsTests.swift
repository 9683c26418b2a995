import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Geo
import Ingest
import Listings
import SampleWorld
import Testing

/// The sample world in every source format: determinism, the label file, the overlaps
/// between sources, well-formed XML, and formats that must read back alike.
struct SampleWorldFormatsTests {
    /// The size of the committed multi-format sample.
    static let configuration = SampleWorld.Configuration(eventCount: 240)

    /// Writes the 240-event world in every format to a fresh directory.
    func writeEverything() throws -> (URL, WriteSummary) {
        let directory = try TestSupport.temporaryDirectory()
        let summary = try SampleWorld(configuration: Self.configuration)
            .write(formats: Set(SampleFormat.allCases), to: directory)
        return (directory, summary)
    }

    @Test(arguments: SampleFormat.allCases)
    func eachFormatIsByteIdenticalForTheSameConfiguration(_ format: SampleFormat) throws {
        let first = try TestSupport.temporaryDirectory()
        let second = try TestSupport.temporaryDirectory()
        let third = try TestSupport.temporaryDirectory()
        let a = try SampleWorld(configuration: .init(seed: 7, eventCount: 300)).write(format, to: first)
        let b = try SampleWorld(configuration: .init(seed: 7, eventCount: 300)).write(format, to: second)
        _ = try SampleWorld(configuration: .init(seed: 8, eventCount: 300)).write(format, to: third)
        #expect(a == b)
        #expect(a.events > 0 && a.files > 0)
        let written = try files(under: first)
        #expect(!written.isEmpty)
        #expect(written.keys.allSatisfy { $0.hasPrefix(format.directoryName + "/") })
        #expect(written == (try files(under: second)))
        #expect(written != (try files(under: third)))
        #expect(written.values.reduce(0) { $0 + $1.count } == a.bytes)
    }

    @Test func theLabelFileIsDeterministicToo() throws {
        let first = try TestSupport.temporaryDirectory()
        let second = try TestSupport.temporaryDirectory()
        let formats: Set<SampleFormat> = [.ticketmaster, .bandsintown]
        _ = try SampleWorld(configuration: .init(seed: 7, eventCount: 300)).writeLabels(for: formats, to: first)
        _ = try SampleWorld(configuration: .init(seed: 7, eventCount: 300)).writeLabels(for: formats, to: second)
        let a = try Data(contentsOf: first.appendingPathComponent("labels.tsv"))
        #expect(a == (try Data(contentsOf: second.appendingPathComponent("labels.tsv"))))
        #expect(try Set(labels(in: first).map(\.source)) == ["ticketmaster", "bandsintown"])
    }

    /// Songkick JSON alone (the default) writes exactly what `writeSongkickJSON` writes, and no labels.
    @Test func songkickAloneWritesNoLabels() throws {
        let first = try TestSupport.temporaryDirectory()
        let second = try TestSupport.temporaryDirectory()
        let world = SampleWorld(configuration: .init(eventCount: 200))
        let a = try world.write(formats: [.songkickJSON], to: first)
        let b = try world.writeSongkickJSON(to: second)
        #expect(a == b)
        #expect(!FileManager.default.fileExists(atPath: first.appendingPathComponent("labels.tsv").path))
        #expect(try files(under: first) == files(under: second))
    }

    @Test func theLabelFileCoversEveryEventRecordWritten() throws {
        let (directory, _) = try writeEverything()
        let rows = try labels(in: directory)
        #expect(Set(rows.map { "\($0.source)\t\($0.id)" }).count == rows.count, "a source record is labelled twice")
        var labelled: [String: Set<String>] = [:]
        for row in rows { labelled[row.source, default: []].insert(row.id) }
        #expect(Set(labelled.keys) == ["songkick", "ticketmaster", "bandsintown", "lastfm", "jsonld", "seatgeek"])
        for format in SampleFormat.allCases {
            let written = try records(of: format, in: directory)
            #expect(!written.isEmpty, "\(format.rawValue) wrote no events")
            #expect(Set(written) == labelled[format.source] ?? [], "\(format.rawValue) records and labels differ")
        }
        // Each format's summary counts its records, once each.
        for format in SampleFormat.allCases {
            let summary = try SampleWorld(configuration: Self.configuration).write(format, to: directory)
            #expect(summary.events == labelled[format.source]?.count, "\(format.rawValue)")
        }
    }

    @Test func concertsOverlapAcrossSources() throws {
        let (directory, _) = try writeEverything()
        var sourcesOf: [String: Set<String>] = [:]
        for row in try labels(in: directory) { sourcesOf[row.key, default: []].insert(row.source) }
        let counts = sourcesOf.values.map(\.count)
        #expect(counts.filter { $0 >= 2 }.count >= 100)
        #expect(counts.contains(3) && counts.contains(4))
        // Some concerts are not on Songkick at all, and some of those are in two sources.
        let withoutSongkick = sourcesOf.values.filter { !$0.contains("songkick") }
        #expect(!withoutSongkick.isEmpty)
        #expect(withoutSongkick.contains { $0.count >= 2 })
        // Every other source lists a real share of the concerts, not all of them.
        for source in ["ticketmaster", "bandsintown", "lastfm", "jsonld", "seatgeek"] {
            let share = Double(sourcesOf.values.filter { $0.contains(source) }.count) / Double(sourcesOf.count)
            #expect(share > 0.15 && share < 0.55, "\(source) lists \(share) of the concerts")
        }
    }

    /// Two bands called "Low" are two concerts; an early and a late show at one venue on
    /// one day are two records in one source and two concerts.
    @Test func hardNegativesAreDifferentConcerts() throws {
        let (directory, _) = try writeEverything()
        var keyOf: [String: String] = [:]
        for row in try labels(in: directory) where row.source == "ticketmaster" { keyOf[row.id] = row.key }
        let events = try ticketmasterEvents(in: directory).filter { $0.segment == "Music" }
        let lows = events.filter { $0.name.lowercased() == "low" }
        #expect(lows.count == 2)
        if lows.count == 2 {
            #expect(keyOf[lows[0].id] != nil && keyOf[lows[0].id] != keyOf[lows[1].id])
            #expect(lows[0].date != lows[1].date)
            #expect(lows[0].venueID != lows[1].venueID)
            #expect(lows[0].attractionIDs != lows[1].attractionIDs)
        }
        let sameBill = Dictionary(grouping: events) { "\($0.venueID)|\($0.date)|\($0.attractionIDs.joined(separator: ","))" }
        let pairs = sameBill.values.filter { $0.count >= 2 }
        #expect(!pairs.isEmpty)
        for pair in pairs {
            #expect(Set(pair.map { keyOf[$0.id] ?? "" }).count == pair.count)
            #expect(Set(pair.map(\.id)).count == pair.count)
        }
    }

    @Test func everyXMLFileIsWellFormed() throws {
        let (directory, _) = try writeEverything()
        let xmlFiles = try files(under: directory).filter { $0.key.hasSuffix(".xml") }
        #expect(xmlFiles.count > 100)
        for (path, data) in xmlFiles {
            let collector = XMLCollector()
            let parser = XMLParser(data: data)
            parser.delegate = collector
            #expect(parser.parse(), "\(path): \(parser.parserError.map { "\($0)" } ?? "")")
        }
    }

    /// Songkick's XML says exactly what its JSON says, and Last.fm's XML what its JSON says.
    @Test func xmlAndJSONOfOneSourceIngestAlike() throws {
        let (directory, _) = try writeEverything()
        let all = try files(under: directory)
        var compared = 0
        for (json, xml, jsonIngester, xmlIngester) in [
            ("songkick-json/", "songkick-xml/", SongkickJSONIngester() as any Ingester, SongkickXMLIngester() as any Ingester),
            ("lastfm-json/", "lastfm-xml/", LastFMJSONIngester() as any Ingester, LastFMXMLIngester() as any Ingester),
        ] {
            for (path, data) in all where path.hasPrefix(json) {
                let relative = String(path.dropFirst(json.count).dropLast(".json".count))
                let xmlData = try #require(all[xml + relative + ".xml"], "no XML for \(path)")
                let context = PageContext(locator: relative)
                let fromJSON = try jsonIngester.parse(data, context: context)
                let fromXML = try xmlIngester.parse(xmlData, context: context)
                #expect(fromJSON == fromXML, "\(relative)")
                compared += 1
            }
        }
        #expect(compared > 100)
    }

    /// The committed `Fixtures/sample-multi` is exactly what the generator writes for
    /// `--events 240 --formats all`.
    @Test func regeneratingTheMultiFormatSampleGivesTheCommittedFiles() throws {
        let (directory, summary) = try writeEverything()
        let generated = try files(under: directory)
        let committed = try files(under: URL(fileURLWithPath: TestSupport.fixture("sample-multi")))
        #expect(generated.count == summary.files)
        #expect(Set(generated.keys) == Set(committed.keys))
        for (path, data) in generated {
            #expect(data == committed[path], "\(path) differs from the generator's output")
        }
    }

    /// A real source's "city centre" is a geocoder's point, so the city-centre variation puts
    /// a venue where Encore's gazetteer has its city, even where the sample's own centre of
    /// the city lies kilometres away (Istanbul's, Tokyo's, Bogotá's).
    @Test func theCityCentreVariationIsTheGazetteersPointOfTheCity() throws {
        let directory = try TestSupport.temporaryDirectory()
        let world = SampleWorld(configuration: .init(eventCount: 3000, realisticVariations: true))
        _ = try world.write(formats: [.bandsintown], to: directory)
        let labels = try String(contentsOf: directory.appendingPathComponent("labels.tsv"), encoding: .utf8)
        // A similarly named room is placed 150 m from its venue on purpose.
        let atCentre = MergeScore.variations(labels)
            .filter { $0.value.contains("city-centre") && !$0.value.contains("similar-venue") }.keys
        let gazetteer = try Gazetteer.bundled()
        let sampleCentres = Dictionary(world.cities.map { ($0.displayName, $0.centre) }) { first, _ in first }
        var checked: [String: Double] = [:]
        let files = try #require(
            FileManager.default.enumerator(at: directory.appendingPathComponent("bandsintown"), includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "json" {
            guard let events = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]] else { continue }
            for event in events where atCentre.contains(MergeScore.key(source: "bandsintown", id: event["id"] as? String ?? "")) {
                let venue = try #require(event["venue"] as? [String: Any])
                let city = try #require(venue["city"] as? String)
                let position = Coordinate(
                    latitude: Double(venue["latitude"] as? String ?? "") ?? .nan,
                    longitude: Double(venue["longitude"] as? String ?? "") ?? .nan)
                let known = try #require(gazetteer.bestCity(named: city, country: venue["country"] as? String))
                #expect(haversineDistance(from: position, to: known.coordinate) < 0.01, "\(city)")
                let sample = try #require(sampleCentres[city])
                checked[city] = haversineDistance(
                    from: position, to: Coordinate(latitude: sample.latitude, longitude: sample.longitude))
            }
        }
        #expect(checked.count > 10, "the variation places venues in many cities")
        #expect(checked.values.contains { $0 > 1 }, "some cities' sample centres are over 1 km from the gazetteer's")
    }

    // MARK: - Reading the output back

    struct LabelRow {
        var source: String
        var id: String
        var key: String
    }

    func labels(in directory: URL) throws -> [LabelRow] {
        let text = try String(contentsOf: directory.appendingPathComponent("labels.tsv"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.first == "source\tsource_event_id\tconcert_key")
        lines.removeFirst()
        return lines.map { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            #expect(cells.count == 3, "\(line)")
            return LabelRow(source: cells[0], id: cells.count > 1 ? cells[1] : "", key: cells.count > 2 ? cells[2] : "")
        }
    }

    /// Every file under `directory` by relative path.
    func files(under directory: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let path = enumerator?.nextObject() as? String {
            let url = directory.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = try Data(contentsOf: url)
            }
        }
        return result
    }

    /// The source ids of the event records a format wrote (sports events left out).
    func records(of format: SampleFormat, in directory: URL) throws -> [String] {
        let all = try files(under: directory).filter { $0.key.hasPrefix(format.directoryName + "/") }
        var ids: [String] = []
        for (path, data) in all.sorted(by: { $0.key < $1.key }) {
            switch format {
            case .songkickJSON:
                let results = try json(data)["resultsPage"].flatMap { ($0 as? [String: Any])?["results"] as? [String: Any] }
                switch results?["event"] {
                case let list as [[String: Any]]: ids += list.map { "\($0["id"]!)" }
                case let single as [String: Any]: ids.append("\(single["id"]!)")
                default: break
                }
            case .songkickXML, .lastfmXML:
                let collector = XMLCollector()
                let parser = XMLParser(data: data)
                parser.delegate = collector
                #expect(parser.parse(), "\(path)")
                ids += format == .songkickXML ? collector.eventIDAttributes : collector.eventIDTexts
            case .lastfmJSON:
                let events = (try json(data)["events"] as? [String: Any])?["event"]
                switch events {
                case let list as [[String: Any]]: ids += list.compactMap { $0["id"] as? String }
                case let single as [String: Any]: ids += [single["id"] as? String].compactMap { $0 }
                default: break
                }
            case .bandsintown:
                guard path.hasSuffix("-events.json") else { continue }
                let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
                ids += list.compactMap { $0["id"] as? String }
            case .ticketmaster:
                continue
            case .seatgeek:
                let events = try #require(try json(data)["events"] as? [[String: Any]], "\(path)")
                ids += events.map { "\($0["id"]!)" }
            case .jsonld:
                for block in scriptBlocks(in: String(decoding: data, as: UTF8.self)) {
                    let object = try json(Data(block.utf8))
                    ids += [object["@id"] as? String].compactMap { $0 }
                }
            }
        }
        if format == .ticketmaster {
            ids = try ticketmasterEvents(in: directory).filter { $0.segment == "Music" }.map(\.id)
        }
        return ids
    }

    struct TicketmasterEvent {
        var id: String
        var name: String
        var segment: String
        var date: String
        var venueID: String
        var attractionIDs: [String]
    }

    func ticketmasterEvents(in directory: URL) throws -> [TicketmasterEvent] {
        var events: [TicketmasterEvent] = []
        for (path, data) in try files(under: directory) where path.hasPrefix("ticketmaster/") {
            let page = try json(data)
            let list = ((page["_embedded"] as? [String: Any])?["events"] as? [[String: Any]]) ?? []
            for event in list {
                let embedded = event["_embedded"] as? [String: Any]
                let classification = (event["classifications"] as? [[String: Any]])?.first
                events.append(TicketmasterEvent(
                    id: event["id"] as? String ?? "",
                    name: event["name"] as? String ?? "",
                    segment: (classification?["segment"] as? [String: Any])?["name"] as? String ?? "",
                    date: ((event["dates"] as? [String: Any])?["start"] as? [String: Any])?["localDate"] as? String ?? "",
                    venueID: (embedded?["venues"] as? [[String: Any]])?.first?["id"] as? String ?? "",
                    attractionIDs: ((embedded?["attractions"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }))
            }
        }
        return events
    }

    func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The contents of each `<script type="application/ld+json">` block.
    func scriptBlocks(in html: String) -> [String] {
        var blocks: [String] = []
        var rest = html[...]
        while let open = rest.range(of: "<script type=\"application/ld+json\">"),
            let close = rest.range(of: "</script>", range: open.upperBound..<rest.endIndex)
        {
            blocks.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return blocks
    }
}

/// Collects what the tests need from an XML page while checking it parses: Songkick's
/// `<event id="…">` attributes and Last.fm's `<event><id>…</id>` texts.
private final class XMLCollector: NSObject, XMLParserDelegate {
    var eventIDAttributes: [String] = []
    var eventIDTexts: [String] = []
    private var path: [String] = []
    private var text = ""

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if elementName == "event", let id = attributes["id"] { eventIDAttributes.append(id) }
        path.append(elementName)
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if elementName == "id", path.count >= 2, path[path.count - 2] == "event" {
            eventIDTexts.append(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        path.removeLast()
    }
}
