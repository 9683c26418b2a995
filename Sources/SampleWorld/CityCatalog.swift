/// The hard-coded real cities the sample world is built on.
///
/// Coordinates are real city centres and time zones real IANA zones. Metro-area ids are
/// the ones seen in recorded Songkick responses where there was one (London 24426,
/// Chicago 9426, Twin Cities 35130, Zürich 104761...) and plausible invented integers
/// otherwise; either way they never change, so fixtures and tests can name them.
/// `weight` is a rough share of live music and decides how many events a metro gets.
enum CityCatalog {
    struct Entry: Sendable {
        let name: String
        let country: String
        let state: String?
        let latitude: Double
        let longitude: Double
        let timeZone: String
        let metroID: Int
        /// Set on a metro's main city when the metro is called something else ("Twin Cities").
        let metroName: String?
        /// Set on secondary cities of a metro; a main city's id is the metro id.
        let cityID: Int?
        let weight: Double
        let style: NameStyle
        /// Hand-written venues placed first, for names generation would not produce:
        /// shared across cities ("The Roundhouse"), or in non-Latin scripts.
        let venues: [(name: String, kind: SampleVenue.Kind)]
    }

    private static func city(
        _ name: String, _ country: String, state: String? = nil,
        _ latitude: Double, _ longitude: Double, _ timeZone: String, metro: Int,
        metroName: String? = nil, cityID: Int? = nil, weight: Double, _ style: NameStyle,
        venues: [(name: String, kind: SampleVenue.Kind)] = []
    ) -> Entry {
        Entry(
            name: name, country: country, state: state, latitude: latitude, longitude: longitude,
            timeZone: timeZone, metroID: metro, metroName: metroName, cityID: cityID, weight: weight,
            style: style, venues: venues)
    }

    /// Cities of one metro area are listed together, main city first.
    static let entries: [Entry] = [
        city("Madrid", "Spain", 40.4168, -3.7038, "Europe/Madrid", metro: 28755, weight: 6, .spanish, venues: [("Sala Búho Real", .club)]),
        city("Barcelona", "Spain", 41.3874, 2.1686, "Europe/Madrid", metro: 28714, weight: 5, .spanish, venues: [("Sala Apolo", .club)]),
        city("Bilbao", "Spain", 43.2630, -2.9350, "Europe/Madrid", metro: 28716, weight: 2, .spanish, venues: [("Teatro Principal", .theatre), ("Sala Itsaso", .club)]),
        city("Valencia", "Spain", 39.4699, -0.3763, "Europe/Madrid", metro: 28797, weight: 2.5, .spanish, venues: [("Teatro Principal", .theatre)]),
        city("Seville", "Spain", 37.3891, -5.9845, "Europe/Madrid", metro: 28793, weight: 2, .spanish),
        city("San Sebastián", "Spain", 43.3183, -1.9812, "Europe/Madrid", metro: 28780, weight: 1.5, .spanish),
        city("London", "UK", 51.5074, -0.1278, "Europe/London", metro: 24426, weight: 10, .english, venues: [("The Roundhouse", .theatre), ("The Lantern & Anchor", .bar)]),
        city("Manchester", "UK", 53.4808, -2.2426, "Europe/London", metro: 24475, weight: 4, .english),
        city("Glasgow", "UK", 55.8642, -4.2518, "Europe/London", metro: 24473, weight: 3, .english),
        city("Leeds", "UK", 53.8008, -1.5491, "Europe/London", metro: 24495, weight: 2.5, .english),
        city("Bristol", "UK", 51.4545, -2.5879, "Europe/London", metro: 24521, weight: 2.5, .english),
        city("Brighton", "UK", 50.8225, -0.1372, "Europe/London", metro: 24554, weight: 2, .english),
        city("Dublin", "Ireland", 53.3498, -6.2603, "Europe/Dublin", metro: 29314, weight: 3, .english),
        city("Paris", "France", 48.8566, 2.3522, "Europe/Paris", metro: 28909, weight: 7, .french, venues: [("Café de la Danse", .club)]),
        city("Lyon", "France", 45.7640, 4.8357, "Europe/Paris", metro: 28889, weight: 2.5, .french),
        city("Marseille", "France", 43.2965, 5.3698, "Europe/Paris", metro: 28891, weight: 2, .french),
        city("Lille", "France", 50.6292, 3.0573, "Europe/Paris", metro: 28886, weight: 2, .french),
        city("Berlin", "Germany", 52.5200, 13.4050, "Europe/Berlin", metro: 28443, weight: 7, .german, venues: [("Wärmetauscher", .club)]),
        city("Hamburg", "Germany", 53.5511, 9.9937, "Europe/Berlin", metro: 28498, weight: 4, .german, venues: [("Lärmkontor", .club)]),
        city("Cologne", "Germany", 50.9375, 6.9603, "Europe/Berlin", metro: 28456, weight: 3, .german, venues: [("Kölner Klanghalle", .theatre)]),
        city("Munich", "Germany", 48.1351, 11.5820, "Europe/Berlin", metro: 28549, weight: 3, .german),
        city("Leipzig", "Germany", 51.3397, 12.3731, "Europe/Berlin", metro: 28528, weight: 2, .german),
        city("Amsterdam", "Netherlands", 52.3676, 4.9041, "Europe/Amsterdam", metro: 31366, weight: 5, .dutch),
        city("Utrecht", "Netherlands", 52.0907, 5.1214, "Europe/Amsterdam", metro: 31405, weight: 2, .dutch),
        city("Brussels", "Belgium", 50.8503, 4.3517, "Europe/Brussels", metro: 26850, weight: 3, .french),
        city("Antwerp", "Belgium", 51.2194, 4.4025, "Europe/Brussels", metro: 26852, weight: 2, .dutch),
        city("Lisbon", "Portugal", 38.7223, -9.1393, "Europe/Lisbon", metro: 31802, weight: 3, .portuguese, venues: [("Armazém São João", .club)]),
        city("Porto", "Portugal", 41.1579, -8.6291, "Europe/Lisbon", metro: 31806, weight: 2, .portuguese),
        city("Milan", "Italy", 45.4642, 9.1900, "Europe/Rome", metro: 30338, weight: 3, .italian),
        city("Rome", "Italy", 41.9028, 12.4964, "Europe/Rome", metro: 30366, weight: 2.5, .italian),
        city("Vienna", "Austria", 48.2082, 16.3738, "Europe/Vienna", metro: 26771, weight: 3, .german),
        city("Zürich", "Switzerland", 47.3769, 8.5417, "Europe/Zurich", metro: 104761, weight: 2, .german, venues: [("Klangkeller Zürich", .club)]),
        city("Prague", "Czech Republic", 50.0755, 14.4378, "Europe/Prague", metro: 28425, weight: 3, .czech, venues: [("Kulturní dům Žižkov", .club)]),
        city("Warsaw", "Poland", 52.2297, 21.0122, "Europe/Warsaw", metro: 31787, weight: 3, .polish, venues: [("Klub Żuraw", .club)]),
        city("Kraków", "Poland", 50.0647, 19.9450, "Europe/Warsaw", metro: 31774, weight: 2, .polish, venues: [("Piwnica pod Łabędziem", .bar)]),
        city("Budapest", "Hungary", 47.4979, 19.0402, "Europe/Budapest", metro: 29047, weight: 2.5, .english),
        city("Stockholm", "Sweden", 59.3293, 18.0686, "Europe/Stockholm", metro: 32252, weight: 3, .nordic, venues: [("Södra Teatern", .theatre)]),
        city("Gothenburg", "Sweden", 57.7089, 11.9746, "Europe/Stockholm", metro: 32237, weight: 2, .nordic),
        city("Copenhagen", "Denmark", 55.6761, 12.5683, "Europe/Copenhagen", metro: 28617, weight: 3, .nordic, venues: [("Ølhallen Vesterbro", .bar)]),
        city("Oslo", "Norway", 59.9139, 10.7522, "Europe/Oslo", metro: 31422, weight: 2.5, .nordic),
        city("Helsinki", "Finland", 60.1699, 24.9384, "Europe/Helsinki", metro: 28825, weight: 2.5, .nordic),
        city("Reykjavik", "Iceland", 64.1466, -21.9426, "Atlantic/Reykjavik", metro: 29877, weight: 1, .icelandic, venues: [("Gamla Bíóhúsið", .theatre)]),
        city("Istanbul", "Turkey", 41.0082, 28.9784, "Europe/Istanbul", metro: 34440, weight: 3, .turkish, venues: [("Küçük Sahne Kadıköy", .club)]),
        city("Athens", "Greece", 37.9838, 23.7275, "Europe/Athens", metro: 28966, weight: 2, .greek, venues: [("Στέγη Ήχου", .club)]),
        city("New York", "US", state: "NY", 40.7128, -74.0060, "America/New_York", metro: 7644, metroName: "New York (NYC)", weight: 7, .english),
        city("Brooklyn", "US", state: "NY", 40.6782, -73.9442, "America/New_York", metro: 7644, cityID: 7652, weight: 3, .english),
        city("Chicago", "US", state: "IL", 41.8781, -87.6298, "America/Chicago", metro: 9426, weight: 6, .english, venues: [("The Roundhouse", .club)]),
        city("Columbus", "US", state: "OH", 39.9612, -82.9988, "America/New_York", metro: 9480, weight: 2, .english, venues: [("The Roundhouse", .theatre)]),
        city("Los Angeles", "US", state: "CA", 34.0522, -118.2437, "America/Los_Angeles", metro: 17835, metroName: "Los Angeles (LA)", weight: 8, .english),
        city("San Francisco", "US", state: "CA", 37.7749, -122.4194, "America/Los_Angeles", metro: 26330, metroName: "SF Bay Area", weight: 5, .english),
        city("Minneapolis", "US", state: "MN", 44.9778, -93.2650, "America/Chicago", metro: 35130, metroName: "Twin Cities", weight: 2.5, .english),
        city("St. Paul", "US", state: "MN", 44.9537, -93.0900, "America/Chicago", metro: 35130, cityID: 35137, weight: 1, .english),
        city("Austin", "US", state: "TX", 30.2672, -97.7431, "America/Chicago", metro: 9179, weight: 4, .english),
        city("Seattle", "US", state: "WA", 47.6062, -122.3321, "America/Los_Angeles", metro: 2846, weight: 3, .english),
        city("Nashville", "US", state: "TN", 36.1627, -86.7816, "America/Chicago", metro: 11104, weight: 3, .english),
        city("New Orleans", "US", state: "LA", 29.9511, -90.0715, "America/Chicago", metro: 11772, weight: 2.5, .english),
        city("Denver", "US", state: "CO", 39.7392, -104.9903, "America/Denver", metro: 6404, weight: 3, .english),
        city("Phoenix", "US", state: "AZ", 33.4484, -112.0740, "America/Phoenix", metro: 23068, weight: 2, .english),
        city("Honolulu", "US", state: "HI", 21.3069, -157.8583, "Pacific/Honolulu", metro: 6843, weight: 1, .english),
        city("Toronto", "Canada", state: "ON", 43.6532, -79.3832, "America/Toronto", metro: 27396, weight: 5, .english),
        city("Montreal", "Canada", state: "QC", 45.5019, -73.5674, "America/Toronto", metro: 27377, weight: 3, .french, venues: [("Le Cabaret Étoile", .club)]),
        city("Vancouver", "Canada", state: "BC", 49.2827, -123.1207, "America/Vancouver", metro: 27398, weight: 3, .english),
        city("London", "Canada", state: "ON", 42.9849, -81.2453, "America/Toronto", metro: 27385, weight: 1, .english),
        city("St. John's", "Canada", state: "NL", 47.5615, -52.7126, "America/St_Johns", metro: 27408, weight: 0.8, .english),
        city("Mexico City", "Mexico", 19.4326, -99.1332, "America/Mexico_City", metro: 34385, weight: 5, .spanish, venues: [("Teatro Principal", .theatre), ("Foro Ñandú", .club)]),
        city("São Paulo", "Brazil", -23.5505, -46.6333, "America/Sao_Paulo", metro: 31850, weight: 5, .portuguese, venues: [("Espaço Cênico Ibirapuera", .theatre)]),
        city("Buenos Aires", "Argentina", -34.6037, -58.3816, "America/Argentina/Buenos_Aires", metro: 28217, weight: 3, .spanish),
        city("Santiago", "Chile", -33.4489, -70.6693, "America/Santiago", metro: 30997, weight: 2, .spanish),
        city("Bogotá", "Colombia", 4.7110, -74.0721, "America/Bogota", metro: 32190, weight: 2, .spanish),
        city("Tokyo", "Japan", 35.6762, 139.6503, "Asia/Tokyo", metro: 30717, weight: 6, .japanese, venues: [("渋谷クラブ・ソラ", .club)]),
        city("Osaka", "Japan", 34.6937, 135.5023, "Asia/Tokyo", metro: 30733, weight: 3, .japanese),
        city("Seoul", "South Korea", 37.5665, 126.9780, "Asia/Seoul", metro: 32128, weight: 3, .english),
        city("Mumbai", "India", 19.0760, 72.8777, "Asia/Kolkata", metro: 29210, weight: 2, .english),
        city("Sydney", "Australia", state: "NSW", -33.8688, 151.2093, "Australia/Sydney", metro: 26794, weight: 5, .english, venues: [("The Roundhouse", .theatre)]),
        city("Melbourne", "Australia", state: "VIC", -37.8136, 144.9631, "Australia/Melbourne", metro: 26790, weight: 5, .english),
        city("Brisbane", "Australia", state: "QLD", -27.4698, 153.0251, "Australia/Brisbane", metro: 26779, weight: 2.5, .english),
        city("Perth", "Australia", state: "WA", -31.9505, 115.8605, "Australia/Perth", metro: 26801, weight: 2, .english),
        city("Adelaide", "Australia", state: "SA", -34.9285, 138.6007, "Australia/Adelaide", metro: 26776, weight: 1.5, .english),
        city("Auckland", "New Zealand", -36.8485, 174.7633, "Pacific/Auckland", metro: 31975, weight: 2, .english),
        city("Suva", "Fiji", -18.1248, 178.4501, "Pacific/Fiji", metro: 56981, weight: 0.5, .english, venues: [("Thurston Gardens Stage", .park)]),
        city("Cape Town", "South Africa", -33.9249, 18.4241, "Africa/Johannesburg", metro: 32790, weight: 1.5, .english),
    ]
}
