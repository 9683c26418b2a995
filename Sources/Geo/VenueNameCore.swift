/// What is left of a venue's name once the words any spelling may add or drop are gone:
/// articles, words for a kind of place, and a trailing city name ("Teatro Faro", "Faro"
/// and "Faro (Madrid)" are all "faro"; "Sala Apolo 2" stays "apolo 2"). Two spellings of
/// one core are one venue even from one source, which lists a room under several
/// spellings as its pages drift.
public enum VenueNameCore {
    /// - Parameter cities: the names of the venue's city (any language) to drop from the end.
    public static func of(_ name: String, cities: [String]) -> String {
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
        // "Chicago Arena" and "Chicago Music Hall" are not one "chicago": a name that is
        // its city and a kind of place keeps its kind words.
        let cityWords = Set(cities.flatMap { NameFolding.fold($0).split(separator: " ").map(String.init) })
        return core.allSatisfy(cityWords.contains) ? words.joined() : core.joined()
    }
}
