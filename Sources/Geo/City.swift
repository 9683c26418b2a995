/// A populated place from the gazetteer (GeoNames, population ≥ 15,000).
public struct City: Sendable, Hashable {
    public let geonameID: Int
    public let name: String
    public let coordinate: Coordinate
    /// ISO 3166-1 alpha-2 ("ES", "US").
    public let countryCode: String
    /// GeoNames' first-level division code: US and CA postal codes ("OH"), else numeric.
    public let admin1Code: String
    public let population: Int
    /// IANA time zone ("Europe/Madrid").
    public let timeZone: String
    /// Latin-script alternate names and IATA-like codes ("Bilbo", "BIO").
    public let alternateNames: [String]

    public init(
        geonameID: Int, name: String, coordinate: Coordinate, countryCode: String, admin1Code: String,
        population: Int, timeZone: String, alternateNames: [String] = []
    ) {
        self.geonameID = geonameID
        self.name = name
        self.coordinate = coordinate
        self.countryCode = countryCode
        self.admin1Code = admin1Code
        self.population = population
        self.timeZone = timeZone
        self.alternateNames = alternateNames
    }
}
