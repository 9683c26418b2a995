/// An event's note: the first line of its `DESCRIPTION` that says something.
///
/// Real feeds write descriptions three ways, and a line ends in each: plain text (lines
/// escaped as `\n`), text escaped twice (a literal `\n` left after unescaping, as the
/// `ics` npm package writes), and HTML (Google Calendar: `<br>`, `<p>`, `<b>`), whose tags
/// are dropped. HTML's common entities (`&amp;`) are decoded in all three: plugins escape
/// text for the web without writing tags.
enum ICalendarNote {
    /// A note is a line, not a press text.
    static let longest = 500

    /// Tags that end a line of text.
    private static let breaking: Set<String> = ["br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6"]

    static func note(from description: String) -> String? {
        var text = description.replacingOccurrences(of: "\\n", with: "\n")
        if text.contains("<"), text.contains(">") { text = withoutTags(text) }
        text = decodingEntities(text)
        var line = ""
        for character in text {
            if character.isNewline {
                if !line.trimmingWhitespace().isEmpty { break }
                line = ""
            } else {
                line.append(character)
            }
        }
        line = String(line.trimmingWhitespace().prefix(longest)).trimmingWhitespace()
        if NameControlCharacters.hasControl(line) { line = NameControlCharacters.cleaned(line) }
        return line.isEmpty ? nil : line
    }

    /// HTML without its tags: those that break a line become line breaks.
    static func withoutTags(_ html: String) -> String {
        var text = ""
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            text += rest[..<open]
            let after = rest.index(after: open)
            // "3 < 4" is text: a tag starts with a name, `/` or `!`.
            guard after < rest.endIndex, rest[after].isLetter || rest[after] == "/" || rest[after] == "!",
                let close = rest[open...].firstIndex(of: ">")
            else {
                text.append("<")
                rest = rest[after...]
                continue
            }
            let name = rest[after..<close].drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
            if breaking.contains(name) { text += "\n" }
            rest = rest[rest.index(after: close)...]
        }
        text += rest
        return text
    }

    private static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = text
        for (entity, character) in [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'")] {
            result = result.replacingOccurrences(of: entity, with: character)
        }
        return result.replacingOccurrences(of: "&amp;", with: "&")
    }
}
