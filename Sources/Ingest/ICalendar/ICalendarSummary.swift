import Foundation

/// What a `SUMMARY` says: the acts it names, a venue after "at", and whether the entry is
/// a performance at all.
///
/// Shapes read: "A w/ B", "A with B & C", "A + B", "A, B and C", "A / Stage Name" (what
/// follows the slash is a stage), "A at Venue", "A – Tour Name" (en or em dash, or " - "),
/// with "(Night 2 of 2)", "(SOLD OUT)" and the like left out. A summary of none of these
/// shapes names no act: "Winter Concert" or "Füürball" is a title, not a band. Words like
/// "Doors", "TBA" or "special guests" are never acts.
struct ICalendarSummary {
    var acts: [String] = []
    var venue: String?
    /// Why the entry is not a performance ("meet & greet"), when it is not.
    var notAPerformance: String?
    var cancelled = false

    /// Summaries longer than this are titles only: no acts are read from them.
    static let longestReadForActs = 300

    init(_ summary: String) {
        var text = summary.trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = text.lowercased()
        for (reason, patterns) in Self.nonPerformances where patterns.contains(where: { Self.matches(lower, $0) }) {
            notAPerformance = reason
            return
        }
        for prefix in ["cancelled:", "canceled:", "cancelled -", "canceled -", "(cancelled)", "(canceled)", "cancelled", "canceled"]
        where lower.hasPrefix(prefix) {
            cancelled = true
            text = String(text.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        guard text.count <= Self.longestReadForActs else { return }
        text = Self.withoutParentheses(text)

        var head = text
        var shaped = false
        // "A / Stage": the stage is not an act.
        if let slash = head.range(of: " / ") {
            head = String(head[..<slash.lowerBound])
            shaped = true
        }
        // "A – Tour Name": what follows the dash names the tour or the night.
        for dash in [" – ", " — ", " - "] {
            if let range = head.range(of: dash) {
                head = String(head[..<range.lowerBound])
                shaped = true
                break
            }
        }
        // "A at Venue".
        if let range = head.range(of: " at ", options: .backwards), !head[range.upperBound...].isEmpty {
            venue = head[range.upperBound...].trimmingCharacters(in: .whitespaces)
            head = String(head[..<range.lowerBound])
            shaped = true
        } else if let range = head.range(of: " @ ") {
            venue = head[range.upperBound...].trimmingCharacters(in: .whitespaces)
            head = String(head[..<range.lowerBound])
            shaped = true
        }
        var names: [String] = []
        // "A w/ B", "A with B & C", "A + B", "A feat. B".
        let separators = [" w/ ", " w/", " with ", " With ", " + ", " feat. ", " ft. ", " featuring ", " support: ", " supported by "]
        var rest = head
        var splitOnce = false
        while let range = separators.compactMap({ rest.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            names.append(String(rest[..<range.lowerBound]))
            rest = String(rest[range.upperBound...])
            splitOnce = true
        }
        names.append(rest)
        // "A, B and C": a list with commas; "&" and "and" only split inside such a list or
        // after "with" (so "Demons & Wizards" stays one act).
        var expanded: [String] = []
        for (index, name) in names.enumerated() {
            let listed = name.contains(", ") || (splitOnce && index > 0)
            guard listed else {
                expanded.append(name)
                continue
            }
            for part in name.components(separatedBy: ", ") {
                expanded += part.components(separatedBy: " & ").flatMap { $0.components(separatedBy: " and ") }
            }
        }
        if expanded.count > 1 { shaped = true }
        guard shaped else { return }
        var seen: Set<String> = []
        acts = expanded.map { $0.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters.subtracting(["!", "?", ".", "'", "&", "$"]))) }
            .filter { !$0.isEmpty && !Self.isNotAnAct($0) && seen.insert($0.lowercased()).inserted }
    }

    /// Entries that are not performances, by the reason counted in the summary.
    static let nonPerformances: [(String, [String])] = [
        ("meet & greets", ["meet & greet", "meet and greet", "meet&greet", "m&g"]),
        ("doors times", ["^doors", "^doors open", "^einlass", "^ovet"]),
        ("passes and ticket sales", ["^presale", "^pre-sale", "on sale", "^tickets", "festival pass", "day pass", "season pass", "vip pass", "wristband"]),
        ("TBA entries", ["^tba$", "^tbc$", "^tbd$", "^to be announced", "^to be confirmed", "^closed$", "^private event", "^private party", "^venue closed"]),
        ("sports fixtures", [" vs ", " vs. ", " v. "]),
        ("soundchecks and load-ins", ["^soundcheck", "^sound check", "^load in", "^load-in", "^signing", "^autograph"]),
    ]

    /// `^x`: starts with x (then a non-letter); `x$`: is x; else contains x.
    static func matches(_ lower: String, _ pattern: String) -> Bool {
        if pattern.hasPrefix("^"), pattern.hasSuffix("$") { return lower == pattern.dropFirst().dropLast() }
        if pattern.hasPrefix("^") {
            let word = pattern.dropFirst()
            guard lower.hasPrefix(word) else { return false }
            return lower.dropFirst(word.count).first.map { !$0.isLetter } ?? true
        }
        return lower.contains(pattern)
    }

    static let notActs: Set<String> = [
        "doors", "doors open", "tba", "tbc", "tbd", "support", "special guest", "special guests", "guests", "guest",
        "friends", "and friends", "more", "and more", "many more", "others", "dj", "djs", "live", "show", "concert",
        "sold out", "free", "free entry", "late show", "early show", "matinee",
    ]

    static func isNotAnAct(_ name: String) -> Bool {
        let lower = name.lowercased()
        if notActs.contains(lower) { return true }
        if lower.hasPrefix("doors ") || lower.hasPrefix("tickets") { return true }
        // A bare time ("7pm", "19:00") is no band either.
        return lower.allSatisfy { $0.isNumber || ":.apm ".contains($0) }
    }

    /// "Band (Night 2 of 2)" → "Band": parenthesised and bracketed asides.
    static func withoutParentheses(_ text: String) -> String {
        var result = ""
        var depth = 0
        for character in text {
            if character == "(" || character == "[" {
                depth += 1
            } else if character == ")" || character == "]" {
                depth = max(0, depth - 1)
            } else if depth == 0 {
                result.append(character)
            }
        }
        let trimmed = result.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return trimmed.isEmpty ? text : trimmed
    }
}
