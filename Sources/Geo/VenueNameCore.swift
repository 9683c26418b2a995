/// What is left of a venue's name once the words any spelling may add or drop are gone:
/// articles, words for a kind of place, and a trailing city name ("Teatro Faro", "Faro"
/// and "Faro (Madrid)" are all "faro"; "Sala Apolo 2" stays "apolo 2"). Two spellings of
/// one core are one venue even from one source, which lists a room under several
/// spellings as its pages drift; so are a core and the same core behind a sponsor's name
/// ("Toyota Dragon Academy", "Dragon Academy"). A name that is only its city and kind
/// words ("Chicago Arena") is its own core.
public enum VenueNameCore {
    /// - Parameter cities: the names of the venue's city (any language) to drop from the end.
    public static func of(_ name: String, cities: [String]) -> String {
        words(name, cities: cities).joined()
    }

    /// Whether two names are one core, or one is the other behind a sponsor's name: its
    /// words end the other's and say something (four letters or more), and the words
    /// before them are a sponsor's. Any other word in front is another room ("Angel
    /// Moreau" is not "Théâtre Moreau").
    public static func agree(_ a: String, _ b: String, cities: [String]) -> Bool {
        let coreA = words(a, cities: cities)
        let coreB = words(b, cities: cities)
        if coreA == coreB { return true }
        let (shorter, longer) = coreA.count < coreB.count ? (coreA, coreB) : (coreB, coreA)
        guard !shorter.isEmpty, shorter.reduce(0, { $0 + $1.count }) >= 4,
            longer.suffix(shorter.count).elementsEqual(shorter)
        else { return false }
        return longer.dropLast(shorter.count).allSatisfy(sponsorWords.contains)
    }

    /// The words of brands that buy venues' names (folded, one word at a time: "Coca-Cola"
    /// is "coca" and "cola").
    static let sponsorWords: Set<String> = [
        "toyota", "honda", "nissan", "hyundai", "kia", "ford", "audi", "bmw", "mercedes", "benz", "volkswagen", "vw",
        "coca", "cola", "pepsi", "pepsico", "budweiser", "heineken", "carlsberg", "guinness", "corona", "estrella",
        "damm", "o2", "vodafone", "telekom", "telenor", "tele2", "telia", "movistar", "orange", "ziggo", "verizon",
        "att", "tmobile", "sprint", "xfinity", "comcast", "samsung", "yamaha", "sony", "philips", "spotify",
        "barclaycard", "barclays", "santander", "bbva", "ing", "rabobank", "ubs", "allianz", "aviva", "axa",
        "mastercard", "visa", "amex", "citi", "chase", "hsbc", "wizink", "mediolanum", "unipol", "postfinance",
        "lanxess", "sap", "uber", "crypto", "fiserv", "ovo", "utilita", "sse", "motorpoint", "etihad", "emirates",
        "qudos", "rogers", "scotiabank", "budweisergardens", "redbull", "kaseya", "footprint", "paycom", "acrisure",
    ]

    static func words(_ name: String, cities: [String]) -> [String] {
        var words = NameFolding.fold(name).split(separator: " ").map(String.init)
        while words.first == "the" { words.removeFirst() }
        for city in cities {
            let cityWords = NameFolding.fold(city).split(separator: " ").map(String.init)
            if !cityWords.isEmpty, words.count > cityWords.count, Array(words.suffix(cityWords.count)) == cityWords {
                words.removeLast(cityWords.count)
                break
            }
        }
        let core = words.filter { !MatchKey.connectingWords.contains($0) && !MatchKey.venueKindWords.contains($0) }
        // "Chicago Arena" and "Chicago Music Hall" are not one "chicago".
        let cityWords = Set(cities.flatMap { NameFolding.fold($0).split(separator: " ").map(String.init) })
        return core.allSatisfy(cityWords.contains) ? [words.joined()] : core
    }
}
