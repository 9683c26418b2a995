import Foundation
import Listings

/// The bill a title names, for sources that name acts only there: calendar `SUMMARY`s,
/// JSON-LD `name`s without `performer`, Songkick's `displayName` of a cancelled show.
///
/// Shapes read, headliner first and support acts in order:
/// - a bare act as the whole title ("Helmet"), unless it reads like an event's name
///   (``TitleBill/readsLikeEventName(_:)``: "Winter Concert", "Jazz Sunday", "BLIND DATE 2026"
///   is kept only for want of an event word), is long, or is only generic words;
/// - lists: "A w/ B", "A with B, C, and D" (Oxford comma), "A + B", "A feat. B", "A b2b B",
///   "A med B" / "mit" / "con" / "avec" / "met"; "&" and "and" split only inside a list or
///   after "with" ("Demons & Wizards" stays one act);
/// - what is not an act: "Act – Tour or Venue" (en or em dash, " - ", " | ", ": "), "Act at
///   Venue" (the first " at ": "Act at Show Bar at Revolution Hall"), "Act @ Venue", "Act /
///   Stage", "Act 1st TOUR in Osaka", "Act «Show name»";
/// - series and tour names before the act: "Jazz Sunday - Sonder Trio", "WORLD TOUR (IRON
///   MAIDEN)", "Promoter presents Act"; "Act pres. av Promoter", "Band plays Zappa" (the
///   tribute band, not Zappa), "Voulez Vous – A Fabulous Tribute to ABBA";
/// - leading emoji, check marks and status words ("CANCELLED:", "ABGESAGT –", "SOLD OUT:");
///   asides in brackets ("(Night 2 of 2)", "(SOLD OUT)"); trailing "& Friends", "live",
///   "in concert", a year.
///
/// Never acts: venues, stages, dates, times, day names, "special guests", "DJ set", "TBA",
/// "Night 2" and the like.
///
/// ```swift
/// TitleBill("✓ Tim Cappello with Ghost, Tigers Jaw, and Pity Sex at Show Bar at Revolution Hall").acts
/// // ["Tim Cappello", "Ghost", "Tigers Jaw", "Pity Sex"]
/// ```
public struct TitleBill: Sendable, Equatable {
    /// The acts, headliner first.
    public var acts: [String] = []
    /// The venue an "at"/"@" names.
    public var venue: String?
    /// The title says the show is cancelled ("CANCELLED: …", "Abgesagt – …").
    public var cancelled = false

    /// Titles longer than this name no acts (a feed once carried a 10 MB `SUMMARY`).
    static let longestReadForActs = 300

    /// - Parameter bareNames: whether a title of no shape may be an act's name alone
    ///   (false where a source's titles are event names, true for calendars and pages).
    public init(_ title: String, bareNames: Bool = true) {
        guard title.utf8.count <= Self.longestReadForActs * 4 else { return }
        var text = Self.collapsed(title)
        // A question is a talk's title ("Who owns Greenland?").
        guard !text.isEmpty, text.count <= Self.longestReadForActs, !text.hasSuffix("?") else { return }
        text = Self.withoutLeadingSymbols(text)
        (text, cancelled) = Self.withoutStatusPrefix(text)
        if let act = Self.actInParentheses(text) {
            acts = [act]
            return
        }
        text = Self.withoutParentheses(text)
        var shaped = false
        // "Act 1st TOUR in Osaka", "Act „Show“": the act is what comes before.
        if let head = Self.beforeTourOrQuote(text) {
            text = head
            shaped = true
        }
        text = Self.seriesOrActSide(text, shaped: &shaped)
        if let range = text.range(ofText: " / ") {
            text = String(text[..<range.lowerBound])
            shaped = true
        }
        if let (head, place) = Self.venueSplit(text) {
            text = head
            venue = place
            shaped = true
        }
        if let head = Self.promoterSplit(text) {
            text = head
            shaped = true
        }
        var names = Self.split(text)
        if names.count > 1 { shaped = true }
        names = names.map(Self.cleaned)
        if !shaped, names.count == 1, let act = Self.beforeReleaseWords(names[0]) {
            names = [act]
            shaped = true
        }
        guard shaped || (bareNames && names.count == 1 && Self.mayBeBareName(names[0])) else { return }
        var seen: Set<String> = []
        acts = names.compactMap(Self.actOrOwner)
            .filter {
                !$0.isEmpty && !Self.isNotAnAct($0) && !Self.isSentence($0) && $0.split(separator: " ").count <= 8
                    && seen.insert($0.lowercased()).inserted
            }
    }

    /// A candidate that reads like an event's name is no act, unless it is an act's own
    /// event ("Ed Romero's 85th Birthday Bash" is Ed Romero's).
    static func actOrOwner(_ name: String) -> String? {
        guard readsLikeEventName(name) else { return name }
        for marker in ["'s ", "’s "] {
            if let range = name.range(ofText: marker) {
                let owner = String(name[..<range.lowerBound])
                return readsLikeEventName(owner) || isNotAnAct(owner) ? nil : owner
            }
        }
        return nil
    }

    /// "Ohmwork Releasekonsert", "Band Album Release": the act before release words.
    static func beforeReleaseWords(_ name: String) -> String? {
        let lower = name.lowercased()
        for suffix in [" releasekonsert", " release concert", " release show", " release party", " album release", " record release",
                       " ep release", " cd release", " albumrelease", " releasefest", " releasekonzert"]
        where lower.hasSuffix(suffix) {
            let head = String(name.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            return head.isEmpty || readsLikeEventName(head) || isNotAnAct(head) ? nil : head
        }
        return nil
    }

    /// The acts as a lineup: the first headlines, keyed by name (`name:` and lower case).
    public var lineup: [PerformanceListing] {
        acts.enumerated().map { index, name in
            PerformanceListing(
                artist: ArtistListing(sourceID: "name:" + name.lowercased(), name: name), billing: index == 0 ? .headline : .support,
                order: index + 1)
        }
    }

    /// The bill of a display name that appends its venue and date, as Songkick's do:
    /// "Iron Maiden with Avatar at Hallenstadion (July 13, 2020) (CANCELLED)".
    public init(displayName: String, venue: String?) {
        var text = Self.collapsed(displayName)
        var wasCancelled = false
        // Bracketed asides at the end: the date, "(CANCELLED)", "(POSTPONED)".
        while text.hasSuffix(")"), let open = text.lastIndex(of: "(") {
            let inside = text[text.index(after: open)..<text.index(before: text.endIndex)].lowercased()
            if Self.cancelWords.contains(inside) { wasCancelled = true }
            text = text[..<open].trimmingCharacters(in: .whitespaces)
        }
        if let venue, !venue.isEmpty, let range = text.range(of: " at " + venue, options: [.caseInsensitive, .backwards]),
            range.upperBound == text.endIndex
        {
            text = String(text[..<range.lowerBound])
        } else if let range = text.range(of: " at ", options: .backwards) {
            text = String(text[..<range.lowerBound])
        }
        self.init(text)
        venue.map { self.venue = $0 }
        cancelled = cancelled || wasCancelled
    }

    // MARK: - Steps

    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// "✓ Tim Cappello", "🎯 Karrin Allyson", "★ Band": marks before the title.
    static func withoutLeadingSymbols(_ text: String) -> String {
        var rest = Substring(text)
        while let first = rest.first, !(first.isLetter || first.isNumber || "\"'«“„‘#(¡¿!".contains(first)) {
            rest = rest.dropFirst()
        }
        let result = rest.trimmingCharacters(in: .whitespaces)
        return result.isEmpty ? text : result
    }

    static let cancelWords = [
        "cancelled", "canceled", "abgesagt", "avlyst", "inställt", "aflyst", "afgelast", "geannuleerd", "annulé", "annulée", "annullato",
        "cancelado", "cancelada", "peruttu",
    ]
    static let statusWords = [
        "sold out", "ausverkauft", "utsolgt", "slutsålt", "uitverkocht", "complet", "agotado", "loppuunmyyty", "loppuunvarattu", "new date", "neuer termin",
        "postponed", "verschoben", "rescheduled", "programmänderung", "just added", "tonight", "moved", "upgraded", "new show",
        "zusatzkonzert", "extra show", "free",
    ]

    /// "CANCELLED: Band", "SOLD OUT – Band", "(Cancelled) Band".
    static func withoutStatusPrefix(_ text: String) -> (String, Bool) {
        var rest = text
        var cancelled = false
        var changed = true
        while changed {
            changed = false
            var lower = rest.lowercased()
            if lower.hasPrefix("(") || lower.hasPrefix("["), let close = rest.firstIndex(where: { $0 == ")" || $0 == "]" }) {
                let inside = lower.dropFirst().prefix(while: { $0 != ")" && $0 != "]" })
                if cancelWords.contains(String(inside)) || statusWords.contains(String(inside)) {
                    cancelled = cancelled || cancelWords.contains(String(inside))
                    rest = String(rest[rest.index(after: close)...]).trimmingCharacters(in: .whitespaces)
                    lower = rest.lowercased()
                    changed = true
                }
            }
            for word in cancelWords + statusWords where lower.hasPrefix(word) {
                let after = lower.dropFirst(word.count)
                guard let next = after.first, !next.isLetter, !next.isNumber else { continue }
                rest = String(rest.dropFirst(word.count)).trimmingCharacters(in: CharacterSet(charactersIn: " :-–—!|*"))
                cancelled = cancelled || cancelWords.contains(word)
                changed = true
                break
            }
        }
        return (rest, cancelled)
    }

    /// "WORLD TOUR (IRON MAIDEN)": a tour's or show's name with the act in brackets.
    static func actInParentheses(_ text: String) -> String? {
        guard let open = text.firstIndex(of: "("), let close = text[open...].firstIndex(of: ")") else { return nil }
        let outside = (text[..<open] + text[text.index(after: close)...]).trimmingCharacters(in: .whitespaces)
        let inside = text[text.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
        guard !outside.isEmpty, !inside.isEmpty, !inside.contains("("),
            readsLikeEventName(outside), !readsLikeEventName(inside), !isNotAnAct(inside), !isAside(inside),
            inside.split(separator: " ").count <= 5
        else { return nil }
        return inside
    }

    /// Asides in brackets that are no act: "Night 2 of 2", "18+", "SOLD OUT", "rescheduled".
    static func isAside(_ text: String) -> Bool {
        let lower = text.lowercased()
        if cancelWords.contains(lower) || statusWords.contains(lower) { return true }
        if lower.contains(where: \.isNumber) { return true }
        // Country codes: "(US)", "(FIN/NOR)".
        if text.count <= 9, text.allSatisfy({ $0.isUppercase || $0 == "/" || $0 == "-" || $0 == " " }) { return true }
        let asides = ["night", "show", "early", "late", "all ages", "matinee", "free", "live", "acoustic", "solo", "band", "dj set", "tba",
                      "support", "special guests", "members", "presale", "ticket", "uk", "usa", "us", "eu"]
        return asides.contains { lower == $0 || lower.hasPrefix($0 + " ") }
    }

    /// "Band (Night 2 of 2)" → "Band": parenthesised and bracketed asides, full-width ones too.
    static func withoutParentheses(_ text: String) -> String {
        var result = ""
        var depth = 0
        for character in text {
            if "([（【［".contains(character) {
                if depth == 0 { result.append(" ") }  // "TOUR（未定）in" is two words
                depth += 1
            } else if ")]）】］".contains(character) {
                depth = max(0, depth - 1)
                if depth == 0 { result.append(" ") }
            } else if depth == 0 {
                result.append(character)
            }
        }
        let trimmed = collapsed(result)
        return trimmed.isEmpty ? text : trimmed
    }

    /// "最終未来少女 1st TOUR in 大阪", "Joris „zu viel retro“-Tour 2025", "GIORA FEIDMAN „Revolution“":
    /// the act before an ordinal tour, a tour word or a quoted show name.
    static func beforeTourOrQuote(_ text: String) -> String? {
        let quotes: Set<Character> = ["„", "“", "«", "『", "「", "\""]
        if let index = text.firstIndex(where: { quotes.contains($0) }), index != text.startIndex {
            let head = text[..<index].trimmingCharacters(in: CharacterSet(charactersIn: " -–—:"))
            if !head.isEmpty, !readsLikeEventName(head) { return head }
        }
        let words = text.split(separator: " ")
        guard words.count >= 2, let tour = words.firstIndex(where: { tourWords.contains($0.lowercased()) }), tour > 0 else { return nil }
        var end = tour
        // "1st TOUR", "2026 Tour", "World Tour": the words that name the tour go too.
        while end > 0, isOrdinalOrYear(words[end - 1]) || ["world", "europe", "european", "us", "uk", "north", "american", "farewell",
                                                            "summer", "spring", "winter", "fall", "autumn", "arena", "club", "headline",
                                                            "reunion", "anniversary", "album"].contains(words[end - 1].lowercased()) {
            end -= 1
        }
        guard end > 0 else { return nil }
        let head = words[..<end].joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: " -–—:"))
        return head.isEmpty || readsLikeEventName(head) ? nil : head
    }

    static let tourWords: Set<String> = ["tour", "tournee", "tournée", "turné", "turne", "gira", "ツアー", "巡演"]

    static func isOrdinalOrYear<S: StringProtocol>(_ word: S) -> Bool {
        let lower = word.lowercased()
        if lower.count == 4, lower.allSatisfy(\.isNumber) { return true }
        return ["st", "nd", "rd", "th", "."].contains { lower.hasSuffix($0) } && lower.first?.isNumber == true
    }

    /// Separators between an act and a tour, venue or programme, or a series and its act.
    static let sideSeparators = [" – ", " — ", " -- ", " - ", " | ", " // ", " · ", ": "]
    /// Words that continue a bill across a separator: "TILL BRÖNNER – Mit Dieter Ilg".
    static let continuingWords = ["with ", "w/ ", "mit ", "med ", "avec ", "con ", "met ", "feat. ", "featuring ", "ft. ", "& ", "+ ", "and "]

    /// "Act – Tour" → "Act"; "Jazz Sunday - Sonder Trio" → "Sonder Trio"; "Act – mit B" → "Act mit B".
    static func seriesOrActSide(_ text: String, shaped: inout Bool) -> String {
        var text = text
        for _ in 0..<3 {
            let found = sideSeparators.compactMap { separator in text.range(ofText: separator).map { ($0, separator) } }
                .min { $0.0.lowerBound < $1.0.lowerBound }
            guard let (range, _) = found else { break }
            let head = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            let tail = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard !head.isEmpty else {
                text = tail
                continue
            }
            guard !tail.isEmpty else {
                text = head
                break
            }
            shaped = true
            let lowerTail = tail.lowercased()
            if let word = continuingWords.first(where: { lowerTail.hasPrefix($0) }) {
                return head + " with " + tail.dropFirst(word.count)
            }
            // A tribute show's own name stays ("A TRIBUTE TO AMY – DIE Amy Winehouse Show" bills no Amy).
            if head.lowercased().containsText("tribute") { return head }
            // "Ed Romero's 85th Birthday Bash – Venue": the owner's event.
            if readsLikeEventName(head), actOrOwner(head) != nil { return head }
            // "KJC Solo Piano: Pyry Brandt & Band", "HiH! nro 79: A, B, C": a colon before a bill.
            // "Tower: Ilkka Uksila ja Lassi Kouvo", "Mus!!Kk!A: Kamilla Kujala": a one-word series, then names.
            let isColon = text[range] == ": "
            let tailWords = tail.split(separator: " ")
            let seriesThenName = isColon && !head.containsText(" ") && tailWords.count >= 2
                && tailWords.prefix(2).allSatisfy { $0.first?.isUppercase == true } && !isSentence(tail)
            let colonBeforeBill = isColon && ((namesABill(tail) && !namesABill(head)) || seriesThenName)
            // Only the tail's own first part says whether it is an event ("Lady Blackbird – … Tour").
            let tailHead = sideSeparators.compactMap { tail.range(ofText: $0)?.lowerBound }.min().map { String(tail[..<$0]) } ?? tail
            if colonBeforeBill && !isNotAnAct(tailHead)
                || (readsLikeEventName(head) || isNotAnAct(head) || isSentence(head)) && !readsLikeEventName(tailHead) && !isNotAnAct(tailHead)
            {
                text = tail  // the series named first; the tail may have a side of its own
                continue
            }
            return head
        }
        return text
    }

    /// Whether a text looks like a bill: a list, "feat.", "&", or an ensemble's word.
    static func namesABill(_ text: String) -> Bool {
        let lower = " " + text.lowercased() + " "
        if actSeparators.contains(where: { lower.containsText($0) }) || listAnds.contains(where: { lower.containsText($0) })
            || lower.containsText(", ")
        {
            return true
        }
        return ensembleWords.contains { lower.containsText(" " + $0 + " ") }
    }

    static let ensembleWords = ["trio", "quartet", "quintet", "sextet", "band", "orchestra", "ensemble", "quartett", "kvartett", "big band"]

    /// Words in a sentence, not a name: all lower case, or mostly so in four words or more
    /// ("to stemmer fra et levd liv", "I år gjør me det heilt enkelt").
    static func isSentence<S: StringProtocol>(_ text: S) -> Bool {
        let words = text.split(separator: " ").filter { $0.first?.isLetter == true }
        guard words.count >= 2 else { return false }
        let lower = words.filter { $0.first?.isLowercase == true }.count
        return lower == words.count || (words.count >= 4 && lower * 2 > words.count)
    }

    /// "Act at Venue", "Act @ Venue": the first " at " ("Act at Show Bar at Revolution Hall").
    static func venueSplit(_ text: String) -> (String, String)? {
        for marker in [" at ", " At ", " AT ", " @ ", " @"] {
            guard let range = text.range(ofText: marker) else { continue }
            let head = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            let place = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            // "Jazz at Lincoln Center", "Live at the Apollo": a name, not an act at a venue.
            guard !head.isEmpty, !place.isEmpty, !genericWords.contains(head.lowercased()) else { return nil }
            return (head, place)
        }
        return nil
    }

    /// "Promoter presents Act" → "Act"; "Act pres. av Promoter", "Band plays Zappa" → the band.
    static func promoterSplit(_ text: String) -> String? {
        let lower = text.lowercased()
        for marker in [" presented by ", " pres. av ", " pres. by ", " präsentiert von ", " presentert av ", " presenteras av ",
                       " plays ", " spielt ", " spiller ", " spelar ", " performs ", " joue ", " speelt "] {
            if let range = lower.range(ofText: marker) {
                return String(text[..<text.index(text.startIndex, offsetBy: lower.distance(from: lower.startIndex, to: range.lowerBound))])
            }
        }
        for marker in [" presents ", " pres. ", " präsentiert ", " presenterer ", " presenteert ", " présente ", " presenta "] {
            if let range = lower.range(ofText: marker) {
                let offset = lower.distance(from: lower.startIndex, to: range.upperBound)
                let tail = String(text[text.index(text.startIndex, offsetBy: offset)...])
                return tail.isEmpty ? nil : tail
            }
        }
        return nil
    }

    /// Separators between acts (matched ignoring case).
    static let actSeparators = [
        " w/ ", " w/", " with ", " med ", " mit ", " con ", " avec ", " met ", " + ", " feat. ", " feat ", " ft. ", " featuring ",
        " support: ", " supported by ", " special guest: ", " special guests: ", " b2b ", " vs. ", " vs ", " /w ", " w. ",
    ]
    /// "and" in the languages of the sources, inside lists.
    static let listAnds = [" & ", " and ", " og ", " och ", " und ", " en ", " y ", " et ", " e ", " ja ", " i "]

    static let actSeparatorBytes = actSeparators.map { Array($0.utf8) }

    /// Where the earliest of `patterns` (ASCII, any case) is in `text`, searched by bytes:
    /// asked a few times of every title, so never through Foundation.
    static func earliest(_ patterns: [[UInt8]], in text: Substring) -> Range<String.Index>? {
        var text = text
        let hit = text.withUTF8 { bytes -> (Int, Int)? in
            var best: (Int, Int)?
            for pattern in patterns {
                if let offset = TextSearch.firstOffset(of: pattern, in: bytes, ignoringASCIICase: true),
                    best.map({ offset < $0.0 }) ?? true
                {
                    best = (offset, pattern.count)
                }
            }
            return best
        }
        guard let (offset, length) = hit else { return nil }
        let start = text.utf8.index(text.startIndex, offsetBy: offset)
        return start..<text.utf8.index(start, offsetBy: length)
    }

    /// "A with B, C, and D" → A, B, C, D.
    static func split(_ text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let range = earliest(actSeparatorBytes, in: rest) {
            names.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        names.append(String(rest))
        let splitOnce = names.count > 1
        var expanded: [String] = []
        for (index, name) in names.enumerated() {
            let listed = name.containsText(", ") || (splitOnce && index > 0)
            let parts = name.components(separatedBy: " & ")
            guard listed || parts.count > 2 else {
                // "Mat Yang Trio & Elder Gindroz Trio": two ensembles.
                let ensembles = ["trio", "quartet", "quintet", "sextet", "band", "orchestra", "ensemble", "quartett", "kvartett"]
                if parts.count == 2, parts.allSatisfy({ part in ensembles.contains { part.lowercased().hasSuffix(" " + $0) } }) {
                    expanded += parts
                } else {
                    expanded.append(name)
                }
                continue
            }
            for part in name.components(separatedBy: ", ") {
                var pieces = [part]
                for and in listAnds {
                    pieces = pieces.flatMap { $0.components(separatedBy: and) }
                }
                // Oxford comma: ", and C".
                expanded += pieces.map { piece in
                    let lower = piece.lowercased()
                    for and in ["and ", "& ", "og ", "och ", "und ", "y ", "et "] where lower.hasPrefix(and) {
                        return String(piece.dropFirst(and.count))
                    }
                    return piece
                }
            }
        }
        return expanded
    }

    /// An act's name without the words around it: "Mark Shilansky & Friends", "Höhner 2025",
    /// "Martin Lepperød live".
    static func cleaned(_ name: String) -> String {
        var text = name.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters.subtracting(["!", "?", ".", "'", "&", "$", "’"])))
        var changed = true
        while changed {
            changed = false
            let lower = text.lowercased()
            for suffix in trailingWords where lower.hasSuffix(suffix) && lower.count > suffix.count {
                text = String(text.dropLast(suffix.count)).trimmingCharacters(in: CharacterSet(charactersIn: " -–—:,&+"))
                changed = true
                break
            }
            if let last = text.split(separator: " ").last, text.split(separator: " ").count > 1, isOrdinalOrYear(last),
                last.count == 4
            {
                text = String(text.dropLast(last.count)).trimmingCharacters(in: CharacterSet(charactersIn: " -–—:,"))
                changed = true
            }
        }
        return text
    }

    static let trailingWords = [
        " and friends", " & friends", " + friends", " and guests", " & guests", " + guests", " & venner", " og venner", " und freunde",
        " & freunde", " och vänner", " en vrienden", " et ses amis", " y amigos", " live in concert", " in concert", " live", " unplugged live",
        " dj set", " (live)", " show", " & band", " and band", " + band", " & his band", " and his band", " & orchestra", " + support",
        " & support", " w/ support", " with support", " + special guests", " + special guest", " & special guests", " with special guests",
    ]

    /// Words that make a title an event's name, not an act's.
    static let eventWords: Set<String> = [
        "concert", "concerts", "konzert", "konzerte", "konsert", "koncert", "concierto", "festival", "festivals", "fest", "fes", "night",
        "nights", "nacht", "natt", "nuit", "noche", "notte", "party", "parties", "fiesta", "fête", "series", "serie", "tour", "turné",
        "tournee", "jam", "session", "sessions", "open mic", "karaoke", "quiz", "trivia", "bingo", "market", "markt", "workshop", "class",
        "course", "kurs", "showcase", "gala", "ball", "disco", "club", "klubi", "evening", "stage", "abend", "kväll", "kveld", "afterwork",
        "happening", "brunch", "dinner", "lunch", "breakfast", "matinee", "celebration", "christmas", "xmas", "jul", "weihnacht",
        "weihnachten", "carols", "singalong", "sing along", "rave", "dance", "tanz", "danse", "dans", "special", "edition", "presents",
        "launch", "benefit", "benefiz", "fundraiser", "weekend", "dag", "tag", "jour", "season",
        "saison", "program", "programme", "programm", "week", "holiday", "music of", "the music of", "tribute to", "a tribute to",
        "hommage", "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sonntag", "montag", "freitag", "samstag",
        "søndag", "mandag", "fredag", "lørdag", "söndag", "lördag", "zondag", "vrijdag", "zaterdag", "domingo", "sábado", "dimanche",
        "samedi", "vol", "volume", "edition", "live music", "open air", "openair", "circuit", "parade", "fair", "expo", "revue",
        "cabaret", "special", "awards", "award", "sesión", "soirée", "soiree",
        "meetup", "mixer", "gathering", "contest", "competition", "battle", "competition", "new year", "new year's",
        "halloween", "pride", "carnival", "karneval", "fasching", "fasnacht", "kermis", "cruise", "after party", "afterparty",
        "pre party", "launch party", "jazzklubi", "klubben", "kino", "film", "cinema", "theatre", "theater", "comedy", "yoga", "talk",
        "lecture", "seminar", "reading", "exhibition", "museum", "library", "tasting", "sale", "weekly", "monthly",
        "jam session", "liveshow", "birthday", "bash", "release party", "release show", "live show", "special edition",
    ]
    /// Stems of event words in languages that compound them ("Rakettnatt", "Jubiläumskonzert",
    /// "jazzlauantai"), and in Chinese, Japanese and Korean.
    static let eventStems = [
        "festival", "konzert", "konsert", "concert", "natt", "nacht", "party", "tour", "turné", "session", "jatsit", "jazzillat",
        "maanantai", "tiistai", "keskiviikko", "torstai", "perjantai", "lauantai", "sunnuntai", "sonntag", "samstag", "freitag",
        "fest!", "abend", "kveld", "kväll", "julekonsert", "weihnacht", "ライブ", "公演", "フェス", "イベント", "主催", "ツアー", "演唱会",
        "活动", "音乐会", "直播", "见面会", "公演", "콘서트", "공연", "페스티벌", "presents", "présente", "线下", "线上", "回归",
        "综艺", "写真", "杂志", "品牌", "生日", "концерт", "фестиваль", "вечер", "kierros", "päivä", "jamit", "jazzjam", "ふぇす",
    ]

    /// Whether a title reads like an event's name rather than an act's: an event word
    /// ("Winter Concert", "Jazz Sunday", "Rakettnatt 2026!"), or only generic words.
    public static func readsLikeEventName<S: StringProtocol>(_ text: S) -> Bool {
        let title = TitleText(String(text))
        if title.words.isEmpty { return true }
        if title.matches(eventPatterns) { return true }
        return title.words.allSatisfy { genericWords.contains(String($0)) || $0.allSatisfy(\.isNumber) }
    }

    static let eventPatterns = WordPatterns(words: Array(eventWords), stems: eventStems)

    /// Whether a whole title may be an act's name: not an event's, at most five words, not a
    /// sentence or a question.
    static func mayBeBareName(_ name: String) -> Bool {
        let words = name.split(separator: " ")
        guard !words.isEmpty, TitleText(name).words.count <= 6, name.contains(where: \.isLetter) else { return false }
        if name.hasSuffix("?") || name.hasSuffix("!") || name.containsText(": ") { return false }
        return !readsLikeEventName(name)
    }

    /// Generic words: alone or together, they name no act.
    static let genericWords: Set<String> = [
        "the", "a", "an", "and", "of", "in", "on", "at", "with", "for", "to", "de", "la", "le", "les", "el", "los", "der", "die", "das",
        "und", "og", "och", "en", "et", "y", "live", "music", "musik", "musikk", "muziek", "musique", "jazz", "blues", "rock", "pop",
        "folk", "classical", "klassik", "new", "year", "years", "summer", "winter", "spring", "autumn", "fall", "open", "air", "big",
        "band", "bands", "orchestra", "choir", "dj", "djs", "guest", "guests", "special", "friends", "more", "many", "others", "free",
        "entry", "tickets", "ticket", "event", "events", "evening", "night", "tba", "tbc", "tbd", "annual", "local", "family", "kids",
        "children", "all", "ages", "late", "early", "show", "shows", "program", "am", "pm", "jr", "vinyl", "sold", "out", "strykekvartett",
        "string", "quartet", "trio", "kor", "venner", "gäster", "gjester", "gäste", "freunde", "special guests", "support", "acts",
        "artists", "various", "lineup", "line", "up", "headliner", "night", "one", "only", "two", "three", "år", "jahre", "ans",
        "años", "jaar", "vuotta", "anni",
    ]

    static let notActs: Set<String> = [
        "doors", "doors open", "tba", "tbc", "tbd", "support", "supports", "special guest", "special guests", "guests", "guest", "friends",
        "and friends", "more", "and more", "many more", "others", "dj", "djs", "live", "show", "concert", "sold out", "free", "free entry",
        "late show", "early show", "matinee", "dj set", "venner", "gäster", "gjester", "gäste", "freunde", "invités", "invitados", "u.a.",
        "uvm", "and many more", "more tba", "more to be announced", "various artists", "va", "local support", "headliner", "all ages",
        "ausverkauft", "utsolgt", "cancelled", "canceled", "postponed",
    ]

    static let dayNames: Set<String> = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue", "wed", "thu", "fri", "sat", "sun",
        "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag", "mandag", "tirsdag", "onsdag", "torsdag",
        "fredag", "lørdag", "søndag", "måndag", "tisdag", "lördag", "söndag", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi",
        "dimanche", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo", "tonight", "today", "tomorrow",
    ]
    static let monthNames: Set<String> = [
        "jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june", "jul", "july", "aug", "august", "sep",
        "sept", "september", "oct", "october", "nov", "november", "dec", "december", "januar", "februar", "märz", "mai", "juni", "juli",
        "oktober", "dezember", "desember", "janvier", "février", "mars", "avril", "juin", "juillet", "août", "septembre", "octobre",
        "novembre", "décembre",
    ]

    /// Names that are no act: placeholders, generic words, day names, dates, times, "Night 2".
    static func isNotAnAct(_ name: String) -> Bool {
        let lower = name.lowercased().trimmingCharacters(in: .whitespaces)
        if lower.isEmpty || notActs.contains(lower) { return true }
        if lower.hasPrefix("doors ") || lower.hasPrefix("tickets") { return true }
        let words = TitleText(lower).words
        if words.isEmpty { return true }
        // A bare time ("7pm", "19:00"), a date ("May 5, 2026", "15.08.2024"), "Night 2".
        if lower.allSatisfy({ $0.isNumber || ":.apm -/".contains($0) }) { return true }
        if words.allSatisfy({ dayNames.contains(String($0)) || monthNames.contains(String($0)) || $0.allSatisfy(\.isNumber)
            || ["night", "day", "show", "part", "nr", "no", "of", "the", "and", "pm", "am"].contains(String($0))
            || (isOrdinalOrYear($0) && $0.count <= 4)
        }) {
            return true
        }
        return words.allSatisfy { genericWords.contains(String($0)) }
    }
}
