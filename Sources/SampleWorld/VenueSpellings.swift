/// How real sources spell a venue so that its name key changes (realistic variations):
/// a city suffix ("Rider Works (Barcelona)", "Comet Works, Vienna", "Club Galería -
/// Madrid"), a word for the kind of place dropped or added ("Teatro Faro" / "Faro",
/// "Kulturhaus Wolke" / "Wolke"), the city in another language ("Köln" for Cologne), and
/// often no position of the venue's own (its city's centre, as a geocoder gives it).
///
/// Per Bandsintown record of a concert not spelled otherwise already, from the seed and
/// the event id alone: one in twelve gets a city suffix, one in twelve a kind word changed,
/// one in ten (of records in a city with another name) the other name; half of these have
/// no position of their own.
extension SourceWorld {
    struct Respelling {
        var name: String
        var city: String?
        var atCityCentre: Bool
        var classes: [String]
    }

    func respelling(ofVenue venue: Int, event: SampleEvent, name: String) -> Respelling? {
        var rng = SplitMix64(seed: world.configuration.seed, stream: .variations, index: 1 << 43 | event.id)
        let spellingRoll = rng.unit()
        let suffixStyle = rng.int(below: 3)
        let cityRoll = rng.unit()
        let centreRoll = rng.unit()
        let city = world.cities[world.venues[venue].cityIndex]
        var result = Respelling(name: name, city: nil, atCityCentre: false, classes: [])
        if spellingRoll < 1.0 / 12 {
            let cityName = city.displayName
            result.name = [name + " (" + cityName + ")", name + ", " + cityName, name + " - " + cityName][suffixStyle]
            result.classes.append("city-suffix")
        } else if spellingRoll < 2.0 / 12, let changed = Self.kindWordChanged(name, kind: world.venues[venue].kind) {
            result.name = changed
            result.classes.append("type-word")
        }
        if cityRoll < 0.1, let other = Self.otherCityNames[city.displayName] {
            result.city = other
            result.classes.append("city-name")
        }
        guard !result.classes.isEmpty else { return nil }
        if centreRoll < 0.5 {
            result.atCityCentre = true
            result.classes.append("no-position")
        }
        return result
    }

    /// A leading or trailing word for a kind of place dropped ("Teatro Faro" → "Faro"),
    /// else one added in front ("Vega" → "Bar Vega"); nil for a name of one such word.
    static func kindWordChanged(_ name: String, kind: SampleVenue.Kind) -> String? {
        var words = name.split(separator: " ").map(String.init)
        let article = words.first == "The" ? 1 : 0
        guard words.count > article else { return nil }
        if words.count - article >= 2, kindWords.contains(words[article].lowercased()) {
            words.remove(at: article)
            return words.joined(separator: " ")
        }
        if words.count - article >= 2, kindWords.contains(words[words.count - 1].lowercased()) {
            words.removeLast()
            return words.joined(separator: " ")
        }
        let added = switch kind {
        case .bar: "Bar"
        case .club: "Club"
        case .theatre: "Teatro"
        case .arena: "Arena"
        case .park: "Park"
        }
        return added + " " + words.dropFirst(article).joined(separator: " ")
    }

    private static let kindWords: Set<String> = [
        "bar", "club", "sala", "salle", "teatro", "theatre", "theater", "théâtre", "kulturhaus", "halle", "hall",
        "arena", "klub", "café", "cafe", "pub", "music", "live",
    ]

    /// The sample's cities as sources in another language write them (each one a name the
    /// gazetteer knows as an alternate name of that city).
    static let otherCityNames: [String: String] = [
        "Cologne": "Köln", "Munich": "München", "Lisbon": "Lisboa", "Copenhagen": "København", "Prague": "Praha",
        "Vienna": "Wien", "Rome": "Roma", "Milan": "Milano", "Warsaw": "Warszawa", "Brussels": "Bruxelles",
        "Antwerp": "Antwerpen", "Gothenburg": "Göteborg", "Seville": "Sevilla", "Athens": "Athina",
        "Kraków": "Cracow", "Zürich": "Zurich", "Montreal": "Montréal",
    ]
}
