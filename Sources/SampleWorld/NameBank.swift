import Foundation

/// English word lists and the name builders that combine them with ``NameStyle``'s.
///
/// Artist names are built from words rather than picked from a list of real acts, so the
/// sample never implies that a real artist plays a real venue on a given date, and a
/// million-event world still has tens of thousands of distinct names (with the occasional
/// duplicate, as real catalogues have).
enum NameBank {
    static let englishAdjectives = [
        "Velvet", "Paper", "Electric", "Golden", "Hollow", "Silver", "Neon", "Quiet", "Wild", "Broken",
        "Crystal", "Midnight", "Northern", "Lonely", "Bright", "Hidden", "Burning", "Frozen", "Violet", "Crimson",
        "Static", "Glass", "Iron", "Wooden", "Lucky", "Secret", "Distant", "Gentle", "Savage", "Tiny",
        "Endless", "Restless", "Sleepy", "Amber", "Scarlet", "Copper", "Radiant", "Sunken", "Falling", "Rising",
        "Silent", "Modern", "Analog", "Cosmic", "Lunar", "Solar", "Magnetic", "Plastic", "Feral", "Pale",
        "Shallow", "Open", "Faded", "Western", "Southern", "Honey", "Tender", "Heavy", "Sacred", "Nervous",
    ]

    static let englishPluralNouns = [
        "Foxes", "Lanterns", "Tigers", "Ghosts", "Horses", "Rivers", "Machines", "Satellites", "Wolves", "Harbours",
        "Sparrows", "Owls", "Hearts", "Mirrors", "Shadows", "Engines", "Comets", "Tides", "Strangers", "Pilots",
        "Saints", "Kings", "Daughters", "Sons", "Animals", "Giants", "Dreamers", "Orchids", "Ravens", "Cities",
        "Bells", "Waves", "Mountains", "Oceans", "Gardens", "Arrows", "Echoes", "Signals", "Islands", "Brothers",
        "Sisters", "Lovers", "Thieves", "Poets", "Painters", "Swimmers", "Dancers", "Drifters", "Hounds", "Moths",
        "Beetles", "Cathedrals", "Radios", "Telephones", "Parades", "Fountains", "Canyons", "Meadows", "Deserts", "Glaciers",
    ]

    static let englishNouns = [
        "Harbour", "Lantern", "Moon", "Fever", "Garden", "Parade", "Mirror", "Signal", "Orchard", "Engine",
        "Comet", "Tide", "Anchor", "Lighthouse", "Pylon", "Furnace", "Meadow", "Canyon", "Glacier", "Thunder",
        "Velvet", "Compass", "Feather", "Horizon", "Atlas", "Satellite", "Ember", "Magnet", "Quarry", "Foundry",
        "Cellar", "Chapel", "Ferry", "Kettle", "Orbit", "Prism", "Rocket", "Saloon", "Tunnel", "Violet",
    ]

    static let englishFirstNames = [
        "Alice", "Ben", "Clara", "Daniel", "Eliza", "Finn", "Grace", "Harry", "Isla", "Jack",
        "Kate", "Liam", "Maya", "Noah", "Olive", "Paul", "Quinn", "Rosa", "Sam", "Tessa",
        "Umar", "Vera", "Will", "Xavier", "Yasmin", "Zach", "Amber", "Caleb", "Delia", "Ezra",
        "Freya", "Gus", "Hazel", "Ivy", "Jonah", "Kit", "Lola", "Miles", "Nina", "Otis",
    ]

    static let englishLastNames = [
        "Abbott", "Barlow", "Carver", "Dalton", "Ellery", "Fairweather", "Greaves", "Hollis", "Irving", "Jessop",
        "Kendrick", "Lowry", "Marsh", "Newell", "Oakley", "Pemberton", "Quayle", "Rowntree", "Sheldon", "Thorne",
        "Underwood", "Vance", "Whitlock", "Yardley", "Ashby", "Blackwood", "Calloway", "Drummond", "Everly", "Fletcher",
        "Garrow", "Hartley", "Ingram", "Jarvis", "Kingsley", "Larkin", "Merritt", "Norwood", "Osborne", "Prescott",
    ]

    /// Invented sponsors for arena names ("Meridian Arena").
    static let sponsors = ["Meridian", "Atlas", "Northstar", "Keystone", "Vantage", "Pinnacle", "Harbourview", "Summit", "Bluewater", "Orion"]

    static let ensembleSuffixes = ["Trio", "Quartet", "Collective", "Ensemble", "Orchestra", "Band", "Project", "Sound System"]

    /// Genres with rough shares of a concert listing.
    static let genres: [(name: String, weight: Double)] = [
        ("indie", 18), ("rock", 16), ("electronic", 12), ("pop", 10), ("hip hop", 8), ("folk", 8),
        ("metal", 7), ("jazz", 6), ("punk", 5), ("soul", 4), ("latin", 4), ("classical", 2),
    ]

    /// Which language an artist's name is in, with shares of a global catalogue.
    static let artistStyles: [(style: NameStyle, weight: Double)] = [
        (.english, 55), (.spanish, 7), (.french, 5), (.german, 5), (.nordic, 4), (.portuguese, 4),
        (.italian, 3), (.polish, 3), (.turkish, 3), (.russian, 3), (.icelandic, 2), (.dutch, 2),
        (.czech, 2), (.greek, 1), (.japanese, 1),
    ]

    /// A new artist name in `style`, shaped by `genre` (DJs for electronic, trios for jazz,
    /// "heavy metal umlauts" for some metal bands).
    static func artistName(style: NameStyle, genre: String, rng: inout SplitMix64) -> String {
        let person = "\(rng.element(of: style.firstNames)) \(rng.element(of: style.lastNames))"
        switch genre {
        case "electronic" where rng.chance(0.4):
            return rng.chance(0.5) ? "DJ \(rng.element(of: style.firstNames))" : "\(rng.element(of: englishNouns)) \(rng.element(of: englishNouns))"
        case "jazz" where rng.chance(0.5), "classical" where rng.chance(0.5):
            return "\(rng.element(of: style.lastNames)) \(rng.element(of: ensembleSuffixes))"
        case "folk" where rng.chance(0.5), "soul" where rng.chance(0.5), "latin" where rng.chance(0.3):
            return person
        case "metal" where rng.chance(0.4):
            return metalUmlauts(englishBand(rng: &rng))
        default:
            break
        }
        let roll = rng.unit()
        if roll < 0.3 {
            return rng.chance(0.1) ? rng.element(of: style.firstNames) : person
        }
        if roll < 0.65, let words = style.bandWords {
            return words.template
                .replacingOccurrences(of: "{1}", with: rng.element(of: words.first))
                .replacingOccurrences(of: "{2}", with: rng.element(of: words.second))
        }
        if roll < 0.72 {
            return "\(person) & the \(rng.element(of: englishPluralNouns))"
        }
        return englishBand(rng: &rng)
    }

    /// Fills a venue or festival template; see ``NameStyle/venueTemplates(_:)`` for tokens.
    static func fill(_ template: String, style: NameStyle, city: String, rng: inout SplitMix64) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            switch rest[rest.index(after: open)..<close] {
            case "w": result += rng.element(of: style.placeWords)
            case "s": result += rng.element(of: style.lastNames)
            case "c": result += city
            case "n": result += String(rng.int(in: 1...220))
            case "N": result += rng.element(of: englishNouns)
            case "A": result += rng.element(of: englishAdjectives)
            default: result += rng.element(of: sponsors)
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    private static func englishBand(rng: inout SplitMix64) -> String {
        switch rng.int(below: 5) {
        case 0: "The \(rng.element(of: englishAdjectives)) \(rng.element(of: englishPluralNouns))"
        case 1: "\(rng.element(of: englishAdjectives)) \(rng.element(of: englishPluralNouns))"
        case 2: "\(rng.element(of: englishAdjectives)) \(rng.element(of: englishNouns))"
        case 3: "The \(rng.element(of: englishPluralNouns))"
        default: "\(rng.element(of: englishNouns)) \(rng.element(of: englishPluralNouns))"
        }
    }

    /// "The Velvet Wolves" → "Thë Vëlvet Wölves": the first vowel of each word gets an umlaut.
    private static func metalUmlauts(_ name: String) -> String {
        let marked: [Character: Character] = ["a": "ä", "e": "ë", "o": "ö", "u": "ü", "A": "Ä", "O": "Ö", "U": "Ü"]
        return name.split(separator: " ").map { word in
            var done = false
            return String(word.map { character -> Character in
                guard !done, let umlauted = marked[character] else { return character }
                done = true
                return umlauted
            })
        }.joined(separator: " ")
    }
}
