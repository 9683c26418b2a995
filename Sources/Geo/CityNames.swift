/// Whether two place names name one city in the bundled gazetteer, in any of the
/// languages it lists: "Köln" and "Cologne", "København" and "Copenhagen", "Cracow" and
/// "Kraków". Sources write a city in their own language; the venue is the same.
public enum CityNames {
    public static func nameOneCity(_ a: String, _ b: String) -> Bool {
        let foldedA = NameFolding.fold(a)
        let foldedB = NameFolding.fold(b)
        if foldedA == foldedB { return true }
        return !cities(foldedA).isDisjoint(with: cities(foldedB))
    }

    /// The gazetteer cities a folded name names (a search of the whole gazetteer: remembered).
    private static func cities(_ folded: String) -> Set<Int> {
        named.value(for: folded) {
            Set(((try? Gazetteer.bundled())?.cities(named: folded) ?? []).map(\.geonameID))
        }
    }

    private static let named = MemoCache<String, Set<Int>>(limit: 10_000)
}
