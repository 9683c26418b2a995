/// Keys under which two sources' spellings of one name meet.
///
/// "The Distillers", "Distillers" and "the distillers!" share a key (so do "Thë Lünar
/// Kings" and "The Thë Lünar Kings"); so do "AC/DC" and
/// "ACDC", and "Simon & Garfunkel" and "Simon and Garfunkel". A shared key is a weak
/// signal: the catalog merges on it only with corroboration (a shared event, a nearby
/// venue).
public enum MatchKey {
    public static func of(_ name: String) -> String {
        keys.value(for: name) {
            var folded = Substring(NameFolding.fold(name)).unicodeScalars
            // Every leading "the": a source may put one before a name whose first word
            // folds to "the" ("The Thë Lünar Kings").
            while folded.starts(with: "the ".unicodeScalars) { folded = folded.dropFirst(4) }
            var key = String.UnicodeScalarView()
            key.append(contentsOf: folded.lazy.filter { $0 != " " })
            return String(key)
        }
    }

    private static let keys = MemoCache<String, String>()

    /// Articles, prepositions and conjunctions of the languages venue names come in.
    static let connectingWords: Set<String> = [
        "a", "an", "and", "at", "of", "on", "in", "y", "e", "et", "und", "en", "i",
        "la", "le", "les", "l", "el", "los", "las", "lo", "il", "gli", "o", "os", "as",
        "de", "del", "della", "dei", "da", "do", "dos", "das", "di", "du", "des", "d",
        "der", "die", "dem", "den", "het", "van", "von", "zum", "zur", "au", "aux",
    ]

    /// The folded words of a name, without a leading "the".
    public static func words(_ name: String) -> Set<String> {
        Set(NameFolding.fold(name).split(separator: " ").map(String.init)).subtracting(["the"])
    }

    /// Whether a title names an act: the act's folded words appear in order, as whole
    /// words, in the title's ("Os Lobos Elétricos with Chapel Moon at ..." names
    /// "Chapel Moon", not "Moon Chapel"; "Yellow" does not name "Low"). For sources
    /// that list a cancelled show with its title but an empty bill.
    public static func title(_ title: String, names act: String) -> Bool {
        let actWords = NameFolding.fold(act).split(separator: " ").filter { $0 != "the" }
        guard !actWords.isEmpty, actWords.reduce(0, { $0 + $1.count }) >= 3 else { return false }
        let titleWords = NameFolding.fold(title).split(separator: " ").filter { $0 != "the" }
        guard titleWords.count >= actWords.count else { return false }
        for start in 0...(titleWords.count - actWords.count)
        where titleWords[start..<(start + actWords.count)].elementsEqual(actWords) {
            return true
        }
        return false
    }

    /// Words that say what kind of place a venue is, not which one: two venues sharing
    /// only these ("Outlaw Music Hall", "Angel Music Hall") are different places.
    static let venueKindWords: Set<String> = [
        "hall", "halle", "club", "bar", "pub", "cafe", "music", "musik", "live", "sala", "salle", "theatre",
        "theater", "teatro", "teatr", "arena", "stage", "room", "rooms", "house", "lounge", "centre", "center",
        "venue", "ballroom", "tavern", "taverna", "saloon", "auditorium", "auditorio", "concert", "concerts",
        "hotel", "park", "garden", "gardens", "studio", "kulturhaus", "haus", "casa", "social", "bowl",
    ]

    /// Whether two venue names plausibly name one place: same key, one key containing
    /// the other, at least half their words shared (articles and prepositions aside: "La
    /// Taberna del Faro" and "La Taberna del Trueno" share one word of three, not three of
    /// five) and at least half of the words that are not a kind of place ("Outlaw Music
    /// Hall" and "Angel Music Hall" share none of two), or a spelling slip apart.
    public static func venueNamesAgree(_ a: String, _ b: String) -> Bool {
        let keyA = of(a)
        let keyB = of(b)
        if keyA == keyB { return true }
        if min(keyA.count, keyB.count) >= 4, keyA.contains(keyB) || keyB.contains(keyA) { return true }
        func shareHalf(_ a: Set<String>, _ b: Set<String>) -> Bool {
            let union = a.union(b)
            return !union.isEmpty && Double(a.intersection(b).count) / Double(union.count) >= 0.5
        }
        let wordsA = words(a).subtracting(connectingWords)
        let wordsB = words(b).subtracting(connectingWords)
        if shareHalf(wordsA, wordsB) {
            // What tells places apart must agree too, when both names have some of it.
            let distinctiveA = wordsA.subtracting(venueKindWords)
            let distinctiveB = wordsB.subtracting(venueKindWords)
            if distinctiveA.isEmpty || distinctiveB.isEmpty || shareHalf(distinctiveA, distinctiveB) { return true }
        }
        return NameFolding.editDistance(keyA, keyB) <= max(1, min(keyA.count, keyB.count) / 8)
    }

    /// The acts a credit names when it features a guest: "The Neon Rivers feat. Stella
    /// Dunmore" names "the neon rivers" and "stella dunmore" (folded). Empty for a credit
    /// of one act. Only `feat.`, `ft.` and `featuring` split: "&", "and", "with" and "x"
    /// are inside too many real band names ("Simon & Garfunkel") to split on sight.
    public static func featuredActs(_ credit: String) -> [String] {
        let words = NameFolding.fold(credit).split(separator: " ")
        guard words.contains(where: { featuringWords.contains($0) }) else { return [] }
        let parts = words.split(whereSeparator: { featuringWords.contains($0) }).map { $0.joined(separator: " ") }
        return parts.count > 1 ? parts : []
    }

    private static let featuringWords: Set<Substring> = ["feat", "ft", "featuring"]
}
