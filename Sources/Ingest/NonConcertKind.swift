import Foundation
import Listings

/// A kind of listing that is not a concert, told from what a source that has no event
/// type gives: a title, its categories, the place's name.
///
/// Sources with types (Ticketmaster's segments, SeatGeek's taxonomies) are judged by
/// those; calendars and venue pages have only words, and this reads them:
///
/// | kind | says so |
/// |---|---|
/// | `sports` | football, rugby, soccer, hockey, lacrosse... ; "A vs B" with a league, "FC" or a sport word; "A vs B" alone unless DJs |
/// | `anniversaries` | birthday, anniversary, Jubiläum, "days since debut", 誕生日, 周年, 生日 |
/// | `readings` | readings, book launches and clubs, Lesung, poetry, talks, lectures, seminars, panels, podcasts |
/// | `passes` | day, weekend and festival passes, parking, VIP packages, upgrades, bundles, Tageskarte, ticket sales |
/// | `meet-and-greets` | meet & greet, fan meetings, signing and photo sessions (握手会, 签售) |
/// | `markets` | markets, fairs, flea markets, car shows |
/// | `workshops` | workshops, classes, courses, yoga, sketching, knitting |
/// | `films` | film, cinema, Kino, screenings; a place that is a cinema |
/// | `readings`, `exhibitions` by place | a library's or museum's events, when the title says nothing of music |
/// | `theatre` | theatre, Theater, teater, musicals, puppet shows |
/// | `comedy` | comedy, stand-up, Kabarett |
/// | `exhibitions` | exhibitions, Ausstellung, expo, museum nights |
/// | `games` | bingo, trivia, quizzes |
/// | `online` | livestreams, teasers, magazine covers, announcements; a place that is a website |
/// | `doors`, `tba`, `soundchecks` | doors times, "TBA" placeholders, soundchecks and load-ins |
/// | `other` | ceremonies, tastings, story times...; a category that is not music, in a feed that marks music by category |
///
/// Conservative: the words of the softer kinds (all but sports, passes, meet & greets,
/// online items and the placeholders) give way to a music word in the same title ("Stumfilm konsert",
/// "Jubiläumskonzert", "45th Anniversary Tour"), and a venue named in the title ("Band –
/// Fox Theater") is not read for them. When unsure, the listing is kept.
public enum NonConcertKind: String, CaseIterable, Sendable, Hashable, Comparable {
    case sports, anniversaries, readings, passes
    case meetAndGreets = "meet-and-greets"
    case markets, workshops, films, theatre, comedy, exhibitions, games, online, doors, tba, soundchecks, other

    /// How the summary counts it: "non-performance entries (sports fixtures)".
    public var reason: String {
        switch self {
        case .sports: "sports fixtures"
        case .anniversaries: "anniversaries and birthdays"
        case .readings: "readings and talks"
        case .passes: "passes and ticket sales"
        case .meetAndGreets: "meet & greets"
        case .markets: "markets and fairs"
        case .workshops: "workshops and classes"
        case .films: "film screenings"
        case .theatre: "theatre"
        case .comedy: "comedy"
        case .exhibitions: "exhibitions"
        case .games: "quizzes and games"
        case .online: "online and broadcast items"
        case .doors: "doors times"
        case .tba: "TBA entries"
        case .soundchecks: "soundchecks and load-ins"
        case .other: "other non-music entries"
        }
    }

    /// The `page.skipped` key of a listing skipped as this kind.
    public var skippedKey: String { "non-performance entries (\(reason))" }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Kinds that a music word in the title does not overrule.
    var isFirm: Bool { [.sports, .passes, .meetAndGreets, .online, .doors, .tba, .soundchecks].contains(self) }
}

/// Reads what kind of listing a title names (see ``NonConcertKind``).
public struct NonConcertClassifier: Sendable {
    /// Kinds the operator keeps for this source (`keep = ["sports"]`).
    public var kept: Set<NonConcertKind>

    public init(keeping kept: Set<NonConcertKind> = []) {
        self.kept = kept
    }

    /// The kind of non-concert a listing is, or nil for a concert (or when unsure).
    /// - Parameters:
    ///   - title: the listing's title (a `SUMMARY`, a `name`).
    ///   - categories: its categories (`CATEGORIES`), any case.
    ///   - place: the venue's name, which a title often repeats ("Band – Fox Theater").
    ///   - musicByCategory: whether the feed marks its music by category (some entry has
    ///     "Muziek", "Music", "Konzert"...): then an entry with only other categories is not music.
    ///   - typedAsMusic: the source says it is music (a schema.org `MusicEvent`): only the
    ///     firm kinds and anniversaries are read.
    public func kind(
        title: String, categories: [String] = [], place: String? = nil, musicByCategory: Bool = false, typedAsMusic: Bool = false
    ) -> NonConcertKind? {
        guard let kind = Self.rawKind(
            title: title, categories: categories, place: place, musicByCategory: musicByCategory, typedAsMusic: typedAsMusic)
        else { return nil }
        return kept.contains(kind) ? nil : kind
    }

    /// Characters of a title read: what says a kind comes first (a feed once carried a 10 MB `SUMMARY`).
    static let longestRead = 300

    static func rawKind(
        title: String, categories: [String], place: String?, musicByCategory: Bool, typedAsMusic: Bool
    ) -> NonConcertKind? {
        let title = String(title.prefix(longestRead))
        let place = place.map { String($0.prefix(longestRead)) }
        let lowerCategories = categories.map { $0.lowercased().trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let categorisedMusic = lowerCategories.contains { Self.isMusicCategory($0) }
        let text = TitleText(title)
        // The firm kinds: whatever else the title says.
        for kind in [NonConcertKind.doors, .tba, .passes, .meetAndGreets, .soundchecks, .online] where text.matches(Self.patterns[kind]!) {
            return kind
        }
        if let sports = sportsFixture(text, title: title) { return sports }
        if let online = place.flatMap({ Self.onlinePlace($0) }) { return online }
        if let kind = lowerCategories.lazy.compactMap({ Self.categoryKind($0) }).first, !categorisedMusic { return kind }
        if categorisedMusic { return nil }
        if musicByCategory, !lowerCategories.isEmpty { return .other }
        if text.matches(Self.musicWords) { return nil }
        // The soft kinds, read in the title less the venue it names.
        let soft = TitleText(Self.withoutPlace(title, place: place))
        if soft.matches(Self.patterns[.anniversaries]!) && !soft.matches(Self.festiveWords) { return .anniversaries }
        if typedAsMusic { return nil }
        for kind in [NonConcertKind.readings, .workshops, .markets, .films, .theatre, .comedy, .exhibitions, .games, .other]
        where soft.matches(Self.patterns[kind]!) {
            return kind
        }
        if let place {
            let placeText = TitleText(place)
            if placeText.matches(Self.cinemaPlaces) { return .films }
            if placeText.matches(Self.libraryPlaces) { return .readings }
            if placeText.matches(Self.museumPlaces) { return .exhibitions }
        }
        return nil
    }

    /// "A vs B" is a fixture when a league, club or sport says so, and two acts when DJs
    /// do; a sport word alone ("Cowgirl Soccer: …") is one too.
    static func sportsFixture(_ text: TitleText, title: String) -> NonConcertKind? {
        let cue = text.matches(patterns[.sports]!)
        if cue || nordicClubFixture(title) { return .sports }
        guard text.matches(versusWords) else { return nil }
        return text.matches(djWords) ? nil : .sports
    }

    /// "TIL — Bodø/Glimt", "AIK - Hammarby": a Nordic sports club's initials (idrettslag,
    /// idrottsförening, fotballklubb: …IL, …IF, …IK, …FK, …BK, …SK, …FF) before a dash.
    static func nordicClubFixture(_ title: String) -> Bool {
        guard let first = title.split(separator: " ").first, (2...4).contains(first.count), first.allSatisfy(\.isUppercase),
            ["IL", "IF", "IK", "FK", "BK", "SK", "FF", "AIK", "IFK"].contains(where: { first.hasSuffix($0) })
        else { return false }
        let rest = title.dropFirst(first.count).trimmingCharacters(in: .whitespaces)
        return ["—", "–", "-", "vs", "v "].contains { rest.hasPrefix($0) }
    }

    /// The title without the venue it repeats and without what follows " at "/" @ ".
    static func withoutPlace(_ title: String, place: String?) -> String {
        var text = title
        if let place, place.count >= 4, let range = text.range(ofText: place, ignoringASCIICase: true) {
            text.removeSubrange(range)
        }
        for marker in [" at ", " @ ", " At "] {
            if let range = text.range(ofText: marker) { text = String(text[..<range.lowerBound]) }
        }
        return text
    }

    static func isMusicCategory(_ category: String) -> Bool {
        let stems = ["muziek", "music", "musik", "musique", "música", "musica", "concert", "konzert", "konsert", "koncert", "klassik",
                     "classical", "clubnacht", "festival"]
        return stems.contains { category.containsText($0) } || TitleText(category).matches(categoryMusicWords)
    }

    /// Short music words of categories, as whole words ("olive" is a colour, not "live").
    static let categoryMusicWords = WordPatterns(
        words: ["gig", "gigs", "jazz", "rock", "pop", "dj", "djs", "live", "opera", "metal", "blues", "folk", "hip hop", "electronic"], stems: [])

    /// A category that names a kind ("Film", "Expo", "Sport", "Workshops & Maken").
    static func categoryKind(_ category: String) -> NonConcertKind? {
        let table: [(NonConcertKind, [String])] = [
            (.sports, ["sport", "football", "soccer", "athletics"]),
            (.meetAndGreets, ["meet & greet", "meet and greet"]),
            (.films, ["film", "cinema", "kino", "movie"]),
            (.exhibitions, ["expo", "exhibition", "ausstellung", "tentoonstelling", "utstilling", "museum"]),
            (.workshops, ["workshop", "maken", "cursus", "course", "kurs", "class", "yoga", "fitness"]),
            (.markets, ["markt", "market", "marked", "shops", "fair"]),
            (.readings, ["talk", "lezing", "lecture", "literatur", "literature", "reading", "lesung", "community"]),
            (.theatre, ["theater", "theatre", "teater", "toneel"]),
            (.comedy, ["comedy", "cabaret", "kabarett"]),
        ]
        return table.first { _, stems in stems.contains { category.containsText($0) } }?.0
    }

    static func onlinePlace(_ place: String) -> NonConcertKind? {
        let lower = place.lowercased().trimmingCharacters(in: .whitespaces)
        let sites = ["youtube", "weverse", "instagram", "tiktok", "twitch", "zoom", "facebook live", "online", "线上", "オンライン", "온라인",
                     "全平台", "livestream", "stream"]
        return sites.contains { lower == $0 || lower.hasPrefix($0 + " ") } ? .online : nil
    }

    // MARK: - Words

    /// Words of music that keep a title with soft words a concert.
    static let musicWords = WordPatterns(
        words: ["music", "in concert", "live music", "livemusik", "gig", "gigs", "recital", "orchestra", "orchester", "philharmonic", "filharmoni",
                "symphony", "sinfonie", "choir", "chor", "kor", "quartet", "quartett", "kvartett", "trio", "quintet", "band", "tribute"],
        stems: ["concert", "konzert", "konsert", "koncert", "concierto", "orkest", "orchest", "ensemble", "jazz", "musiik", "musik",
                "muziek", "musique", "música", "演唱会", "音乐会", "コンサート", "ライブ", "공연", "콘서트"])

    /// Words that make a birthday or anniversary a show.
    static let festiveWords = WordPatterns(
        words: ["bash", "tour", "show", "live", "festival", "gala", "jam", "party", "celebration"], stems: ["konzert", "konsert", "concert", "tournee", "turné"])

    static let libraryPlaces = WordPatterns(
        words: ["library", "bibliothek", "biblioteca", "bibliothèque", "bibliotheek"],
        stems: ["bibliotek", "kirjasto", "stadtbücherei", "図書館", "图书馆"])
    static let museumPlaces = WordPatterns(words: ["museum", "museo", "musée", "gallery", "galerie"], stems: ["museum", "museet", "美术馆", "博物館"])
    static let versusWords = WordPatterns(words: ["vs", "v", "versus"], stems: [])
    static let djWords = WordPatterns(words: ["dj", "djs", "b2b", "soundsystem", "sound system", "sound clash", "mc", "dubplate"], stems: [])
    static let cinemaPlaces = WordPatterns(words: ["kino", "cinema", "cinéma", "cine", "biograf", "bio", "multiplex", "imax"],
                                          stems: ["kino", "cinema", "biograf"])

    static let patterns: [NonConcertKind: WordPatterns] = [
        .doors: WordPatterns(words: [], stems: [], prefixes: ["doors", "doors open", "einlass", "ovet", "dörrar", "dører", "deuren"]),
        .tba: WordPatterns(
            words: [], stems: [],
            exactly: ["tba", "tbc", "tbd", "to be announced", "to be confirmed", "closed", "private event", "private party", "venue closed",
                      "イベント予定", "未定"],
            prefixes: ["private event", "private party", "venue closed"]),
        .passes: WordPatterns(
            words: ["on sale", "festival pass", "day pass", "weekend pass", "season pass", "vip pass", "wristband", "parking", "vip package",
                    "vip packages", "vip upgrade", "upgrade", "bundle", "tageskarte", "tagesticket", "wochenendticket", "kombiticket",
                    "festivalpass", "camping", "shuttle", "gift card", "voucher", "gutschein", "season ticket", "add on", "locker",
                    "2 day pass", "3 day pass", "4 day pass", "campus pass", "dagpass", "helgepass"],
            stems: ["parkplatz", "parkeringsbillett"], prefixes: ["presale", "pre sale", "tickets"], suffixes: ["pass", "passes"]),
        .meetAndGreets: WordPatterns(
            words: ["meet greet", "meet and greet", "meet n greet", "m g", "fan meeting", "fanmeeting", "fan meet", "fan sign", "fansign",
                    "autograph session", "signing session", "photo op", "vip experience"],
            stems: ["握手会", "签售", "팬사인", "サイン会", "特典会", "撮影会", "见面会", "팬미팅", "ファンミーティング"],
            prefixes: ["signing", "autograph"]),
        .soundchecks: WordPatterns(words: [], stems: [], prefixes: ["soundcheck", "sound check", "load in", "rehearsal", "probe"]),
        .sports: WordPatterns(
            words: ["fc", "afc", "league", "leagues", "liga", "cup", "pokal", "nwsl", "mls", "nfl", "nba", "nhl",
                    "mlb", "wnba", "ncaa", "uefa", "fifa", "premier league", "football", "fußball", "fussball", "fotball", "fotboll",
                    "voetbal", "soccer", "rugby", "hockey", "eishockey", "ishockey", "lacrosse", "volleyball", "basketball", "baseball",
                    "softball", "handball", "håndball", "cricket", "golf", "boxing", "wrestling", "wwe", "ufc", "mma",
                    "marathon", "triathlon", "playoff", "playoffs", "game day", "gameday", "home game", "season opener",
                    "tournament", "turnier", "matchday", "spieltag", "kampdag", "bandy", "floorball", "innebandy", "futsal"],
            stems: ["足球", "サッカー", "野球", "축구", "야구", "篮球", "bundesliga", "eliteserien", "allsvenskan", "eredivisie"]),
        .anniversaries: WordPatterns(
            words: ["birthday", "bday", "b day", "anniversary", "jubilee", "days since", "day since", "years since", "since debut",
                    "debut day", "anniversaire", "cumpleaños", "compleanno", "verjaardag", "bursdag", "födelsedag", "fødselsdag"],
            stems: ["geburtstag", "jubiläum", "jubileum", "誕生日", "周年", "生日", "생일", "주년", "記念日", "纪念日", "デビュー日", "成人式"]),
        .readings: WordPatterns(
            words: ["reading", "readings", "book launch", "book club", "book signing", "bookclub", "lesung", "lezing", "poetry",
                    "poetry slam", "talk", "talks", "artist talk", "lecture", "lectures", "guest lecture", "seminar", "seminars",
                    "webinar", "panel", "panel discussion", "conference", "symposium", "colloquium", "disputas", "public defence",
                    "debate", "debatt", "podcast", "q a", "author", "in conversation", "i samtale", "samtale", "bokbad", "bokprat",
                    "lunsjbokprat", "bokfest", "lesesirkel", "bokklubb", "lesestund", "vortrag", "conférence", "rencontre", "konferanse",
                    "konferenz", "fagdag", "forelesning", "frokostforelesning", "poesi", "gedichte", "litteraten", "help desk",
                    "historical society", "history talk", "storytelling"],
            stems: ["发布会", "記者会見", "lesesirkel", "bokklubb", "bokprat", "forelesning", "seminar", "konferans", "conference", "lecture", "literatur",
                    "litteratur"]),
        .workshops: WordPatterns(
            words: ["workshop", "workshops", "class", "classes", "course", "kurs", "cursus", "curso", "cours", "lesson", "lessons", "yoga",
                    "pilates", "meditation", "fitness", "bootcamp", "sketching", "journaling", "knitting", "crochet", "tutorial",
                    "training", "verksted", "werkstatt", "masterclass", "phd course", "glassblaserkurs"],
            stems: ["workshop", "yoga", "verksted", "strikke", "strikk", "kurset", "werkstatt", "ワークショップ", "工作坊"]),
        .markets: WordPatterns(
            words: ["market", "markets", "markt", "marked", "marknad", "marché", "mercado", "mercato", "flea market", "flohmarkt", "loppis",
                    "rummage sale", "car show", "cars and coffee", "craft fair", "bazaar", "basar", "fair", "julemesse", "messe", "trade show"],
            stems: ["markt", "julemarked", "marknad", "flohmarkt", "rommelmarkt"]),
        .films: WordPatterns(
            words: ["film", "films", "movie", "movies", "cinema", "kino", "screening", "filmvisning", "filmen", "open air kino",
                    "openair kino", "film festival", "filmfestival", "full dome film", "søndagsfilm", "onsdagsfilmen"],
            stems: ["filmvisning", "filmspecial", "filmfestival", "kinoabend", "电影", "映画"]),
        .theatre: WordPatterns(
            words: ["theatre", "theater", "teater", "teatret", "théâtre", "teatro", "musical", "puppet", "puppets", "poppenkast",
                    "pantomime", "dukketeater", "figurentheater", "schauspiel", "play reading", "theatrics"],
            stems: ["theater", "theatre", "teater", "teatret", "poppenkast", "話劇", "话剧", "演劇"]),
        .comedy: WordPatterns(
            words: ["comedy", "comedian", "stand up", "standup", "kabarett", "improv", "impro", "komiker", "komedie", "comédie", "humor"],
            stems: ["comedy", "kabarett", "komedie"]),
        .exhibitions: WordPatterns(
            words: ["exhibition", "exhibit", "expo", "ausstellung", "utstilling", "utställning", "tentoonstelling", "exposition",
                    "exposición", "photo show", "museum", "vernissage", "gallery opening", "photos", "photographs", "photography"],
            stems: ["ausstellung", "utstilling", "utställning", "展覧会", "展览"]),
        .games: WordPatterns(
            words: ["bingo", "trivia", "quiz", "pub quiz", "pubquiz", "game night", "board games", "brettspill", "spieleabend"], stems: []),
        .online: WordPatterns(
            words: ["livestream", "live stream", "teaser", "trailer", "music video", "magazine", "magazine cover", "photoshoot",
                    "concept photo", "tracklist", "announcement", "pop up store", "popup store"],
            stems: ["直播", "预告", "写真", "概念照", "杂志", "公告", "曲目", "发行", "综艺", "ティザー", "雑誌", "配信"]),
        .other: WordPatterns(
            words: ["ribbon cutting", "ceremony", "homecoming", "rededication", "stargaze", "stargazing", "hike", "open house", "cowork",
                    "wine tasting", "beer tasting", "vinsmaking", "babytreff", "eventyrstund", "story time", "storytime", "fredagseventyret",
                    "lørdagseventyr", "gjeldsrådgivning", "advokatvakta", "job fair", "blood drive", "volunteer day"],
            stems: ["品牌", "快闪", "颁奖"]),
    ]
}

/// A title lower-cased, with words separated by single spaces, for word and phrase tests.
struct TitleText {
    /// " word word … ": words of letters and digits (CJK runs stay whole), spaces either side.
    let spaced: String
    /// The lower-cased title as written, for stems (compounds, CJK).
    let lower: String
    /// The words, in order.
    let words: [Substring]
    let wordSet: Set<Substring>

    init(_ title: String) {
        lower = title.lowercased()
        var result = " "
        var lastWasSpace = true
        for character in lower {
            if character.isLetter || character.isNumber {
                result.append(character)
                lastWasSpace = false
            } else if !lastWasSpace {
                result.append(" ")
                lastWasSpace = true
            }
        }
        if !lastWasSpace { result.append(" ") }
        spaced = result
        words = result.split(separator: " ")
        wordSet = Set(words)
    }

    func matches(_ patterns: WordPatterns) -> Bool {
        patterns.matches(self)
    }
}

/// Words and phrases (whole words), stems (anywhere), and whole titles, prefixes and last
/// words, lower case, with phrases' punctuation written as spaces ("meet greet").
///
/// Asked of every listing of the sources that read titles: single words are looked up in
/// a set, and text is searched by its bytes (``TextSearch``), not through Foundation.
struct WordPatterns: Sendable {
    let single: Set<String>
    /// " meet greet ": phrases with a space either side.
    let phrases: [String]
    /// Stems as UTF-8 bytes, searched in the title's bytes without a copy a stem.
    let stems: [[UInt8]]
    let exactly: Set<String>
    let prefixes: [String]
    let suffixes: [String]

    init(words: [String], stems: [String], exactly: [String] = [], prefixes: [String] = [], suffixes: [String] = []) {
        single = Set(words.filter { !$0.contains(" ") })
        phrases = words.filter { $0.contains(" ") }.map { " " + $0 + " " }
        self.stems = stems.map { Array($0.utf8) }
        self.exactly = Set(exactly)
        self.prefixes = prefixes.map { " " + $0 + " " }
        self.suffixes = suffixes.map { " " + $0 + " " }
    }

    func matches(_ text: TitleText) -> Bool {
        if !exactly.isEmpty {
            let trimmed = String(text.spaced.dropFirst().dropLast())
            if exactly.contains(trimmed) || exactly.contains(text.lower.trimmingCharacters(in: .whitespaces)) { return true }
        }
        if prefixes.contains(where: { text.spaced.hasPrefix($0) }) { return true }
        if suffixes.contains(where: { text.spaced.hasSuffix($0) }) { return true }
        if !single.isEmpty, text.words.contains(where: { single.contains(String($0)) }) { return true }
        if phrases.contains(where: { text.spaced.containsText($0) }) { return true }
        guard !stems.isEmpty else { return false }
        var lower = text.lower
        return lower.withUTF8 { bytes in stems.contains { TextSearch.firstOffset(of: $0, in: bytes) != nil } }
    }
}
