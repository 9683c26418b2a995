import Geo

/// A festival's title as every listing of it writes it, without the words that name one
/// day's ticket: "Golden Sound 2027 - Day 2", "Golden Sound 2027 (Saturday)" and
/// "Golden Sound 2027" are one key. A set or a day's ticket listed under the festival's
/// own title belongs to it when one of the two names no act (a festival not billed yet,
/// a day's ticket without its acts).
enum FestivalTitle {
    /// The key, marked so that it never equals an act's name key.
    static func token(_ title: String) -> String {
        var words = NameFolding.fold(title).split(separator: " ").map(String.init)
        while let last = words.last, words.count > 1 {
            if dayWords.contains(last) || ticketWords.contains(last) {
                words.removeLast()
            } else if last.allSatisfy(\.isNumber), last.count <= 2, words.count > 2,
                numberedDayWords.contains(words[words.count - 2])
            {
                words.removeLast(2)
            } else {
                break
            }
        }
        return "title\u{1F}" + words.joined()
    }

    static func isToken(_ key: String) -> Bool { key.hasPrefix("title\u{1F}") }

    /// Marks the keys of a listing that names no act (a festival: whose whole listings name none).
    static let unbilled = "unbilled\u{1F}"

    /// A listing's act keys with its title's token, and ``unbilled`` when it names no act.
    static func keys(acts: Set<String>, title: String) -> Set<String> {
        acts.union(acts.isEmpty ? [token(title), unbilled] : [token(title)])
    }

    /// Whether two bills (``keys(acts:title:)``) meet: an act in common, or the same title
    /// when one names no act.
    static func billsMeet(_ a: Set<String>, _ b: Set<String>) -> Bool {
        let shared = a.intersection(b).subtracting([unbilled])
        if shared.contains(where: { !isToken($0) }) { return true }
        return !shared.isEmpty && (a.contains(unbilled) || b.contains(unbilled))
    }

    /// "Day 2", "Tag 2", "Día 2", "Jour 2", "Dag 2", "Night 2".
    private static let numberedDayWords: Set<String> = ["day", "tag", "dia", "jour", "dag", "giorno", "dzien", "night"]

    private static let dayWords: Set<String> = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "weekend",
        "samstag", "sonntag", "freitag", "sabado", "domingo", "viernes", "samedi", "dimanche", "vendredi",
    ]

    private static let ticketWords: Set<String> = ["ticket", "tickets", "pass", "passes", "only", "day", "single"]
}
