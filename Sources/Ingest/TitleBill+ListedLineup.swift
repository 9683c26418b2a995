import Foundation

/// A gig guide's lineup listed in an event's description rather than in its title.
extension TitleBill {
    /// The acts of a lineup written as a list with dots ("Project One · Brennan Heart ·
    /// Rebelion vs Vertile · Four of a Kind. Kl 11–23.30"), as gig guides put it in a
    /// description; nil unless it lists at least three short names.
    public static func listedLineup(_ text: String) -> [String]? {
        let line = String(text.prefix { $0 != "\n" && $0 != "\r" })
        guard line.count <= longestReadForActs * 4 else { return nil }
        let dots = [" · ", " • ", " ∙ "]
        guard let dot = dots.first(where: { line.containsText($0) }) else { return nil }
        var parts = line.components(separatedBy: dot).map { $0.trimmingCharacters(in: .whitespaces) }
        // The sentence after the last name: "Four of a Kind. Kl 11–23.30".
        if let last = parts.last, let stop = last.range(ofText: ". ") { parts[parts.count - 1] = String(last[..<stop.lowerBound]) }
        guard parts.count >= 3, parts.allSatisfy({ !$0.isEmpty && $0.split(separator: " ").count <= 6 }) else { return nil }
        var seen: Set<String> = []
        let acts = parts.flatMap { split($0) }.map(cleaned)
            .filter { !$0.isEmpty && !isNotAnAct($0) && !isSentence($0) && seen.insert($0.lowercased()).inserted }
        return acts.count >= 3 ? acts : nil
    }
}
