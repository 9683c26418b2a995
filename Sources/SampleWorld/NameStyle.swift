/// The language a generated name is in, with the word lists for it.
///
/// An aggregator has to cope with names in many scripts and with diacritics (folding
/// "Sigur Rós" and "Sigur Ros" together, slugging "Мумий Тролль"), so names are drawn
/// per language rather than from one English list. All names are invented from these
/// lists; any resemblance to a real act is a coincidence of common words.
enum NameStyle: Sendable, Hashable {
    case english, spanish, french, german, dutch, italian, portuguese, nordic, icelandic
    case polish, czech, turkish, greek, japanese, russian

    var firstNames: [String] {
        switch self {
        case .english: NameBank.englishFirstNames
        case .spanish: ["Lucía", "Martín", "Carmen", "Álvaro", "Inés", "Jorge", "Nerea", "Íñigo", "Paula", "Sergio", "Begoña", "Raúl", "Ainhoa", "Joaquín"]
        case .french: ["Camille", "Élodie", "Théo", "Louise", "Benoît", "Zoé", "Hélène", "Jérôme", "Anaïs", "Maël", "Gaëlle", "Rémi"]
        case .german: ["Jürgen", "Lena", "Matthias", "Sophie", "Jörg", "Anja", "Björn", "Käthe", "Lukas", "Frieda", "Günther", "Mareike"]
        case .dutch: ["Sanne", "Joost", "Femke", "Daan", "Maartje", "Bram", "Lieke", "Sjoerd", "Floor", "Thijs"]
        case .italian: ["Giulia", "Matteo", "Chiara", "Niccolò", "Francesca", "Lorenzo", "Ilaria", "Gianluca", "Beatrice", "Andrea"]
        case .portuguese: ["João", "Beatriz", "Gonçalo", "Inês", "Thiago", "Luíza", "Conceição", "Caetano", "Marília", "Vinícius"]
        case .nordic: ["Åsa", "Björn", "Sølvi", "Øystein", "Linnéa", "Måns", "Jörgen", "Karin", "Søren", "Frida", "Ebba", "Henrik"]
        case .icelandic: ["Sóley", "Þórunn", "Ragnar", "Guðrún", "Hrafn", "Ásdís", "Eyþór", "Björt", "Snæfríður", "Kári"]
        case .polish: ["Łukasz", "Zofia", "Wojciech", "Małgorzata", "Jędrzej", "Agnieszka", "Paweł", "Żaneta", "Grzegorz", "Katarzyna"]
        case .czech: ["Tereza", "Jiří", "Kateřina", "Ondřej", "Barbora", "Tomáš", "Zuzana", "Vojtěch", "Markéta", "Lukáš"]
        case .turkish: ["Ayşe", "Gökhan", "Çağla", "Emre", "Şebnem", "Barış", "Gülşen", "Oğuz", "Deniz", "İlkay"]
        case .greek: ["Ελένη", "Γιώργος", "Μαρία", "Νίκος", "Κατερίνα", "Δημήτρης"]
        case .japanese: ["Yui", "Haruto", "Aoi", "Ren", "Sakura", "Sora", "Hina", "Kaito"]
        case .russian: ["Алёна", "Дмитрий", "Ксения", "Григорий", "Ульяна", "Пётр"]
        }
    }

    /// Surnames that read correctly after any of the first names (no gendered endings
    /// where the language has them, e.g. Greek genitives and Russian "-ых").
    var lastNames: [String] {
        switch self {
        case .english: NameBank.englishLastNames
        case .spanish: ["García", "Fernández", "Muñoz", "Echeverría", "Ruiz", "Ibáñez", "Zubizarreta", "Ortega", "Cañizares", "Navarro", "Sáenz", "Beltrán", "Peña", "Olmedo"]
        case .french: ["Lefèvre", "Moreau", "Dubois", "Garnier", "Béranger", "Rousseau", "Fontaine", "Mercier", "Lemaître", "Chevalier", "Leclerc", "Guérin"]
        case .german: ["Müller", "Schröder", "Weiß", "Krüger", "Böhm", "Fuchs", "Hoffmann", "Schäfer", "Köhler", "Wagner", "Strauß", "Vogel"]
        case .dutch: ["de Vries", "van Dijk", "Bakker", "Jansen", "Visser", "van den Berg", "Smit", "de Jong", "Mulder", "Bos"]
        case .italian: ["Rossi", "Bianchi", "Esposito", "Colombo", "Ricci", "Fabbri", "De Luca", "Santoro", "Marchetti", "Galli"]
        case .portuguese: ["Gonçalves", "Araújo", "Simões", "Magalhães", "Brandão", "Falcão", "Lima", "Ribeiro", "Assunção", "Carvalho"]
        case .nordic: ["Lindqvist", "Åkesson", "Sjöberg", "Øvrebø", "Bergström", "Håkansson", "Ødegård", "Næss", "Lindgren", "Sandström", "Jørgensen", "Nyström"]
        case .icelandic: ["Þórsdóttir", "Magnússon", "Sigurðardóttir", "Ólafsson", "Jónsdóttir", "Gunnarsson", "Hallgrímsdóttir", "Einarsson"]
        case .polish: ["Wróblewski", "Żmuda", "Kowalczyk", "Grzegorczyk", "Szczęsny", "Nowak", "Wiśniewski", "Dąbrowski", "Król", "Jabłoński"]
        case .czech: ["Dvořák", "Novák", "Kořínek", "Svoboda", "Procházka", "Černý", "Růžička", "Veselý", "Havlík", "Šťastný"]
        case .turkish: ["Yıldırım", "Şahin", "Öztürk", "Çelik", "Aydın", "Güneş", "Kılıç", "Doğan", "Erdem", "Koç"]
        case .greek: ["Παππάς", "Οικονόμου", "Αλεξίου", "Νικολάου", "Γεωργίου", "Βλάχου"]
        case .japanese: ["Tanaka", "Suzuki", "Takahashi", "Watanabe", "Itō", "Nakamura", "Kobayashi", "Yamamoto"]
        case .russian: ["Белых", "Черных", "Долгих", "Седых", "Старых", "Кручёных"]
        }
    }

    /// A local band-name shape: `template` with `{1}` and `{2}` filled from the two lists
    /// (chosen so the words agree in gender and number). Nil for English, whose band names
    /// come from ``NameBank``'s richer patterns.
    var bandWords: (template: String, first: [String], second: [String])? {
        switch self {
        case .english: nil
        case .spanish: ("Los {1} {2}", ["Lobos", "Faros", "Planetas", "Caballos", "Relámpagos", "Santos", "Volcanes", "Tiburones", "Búhos", "Cometas"], ["Eléctricos", "Dorados", "Perdidos", "Salvajes", "Nocturnos", "Imposibles", "Tímidos", "Azules", "Dormidos", "Líquidos"])
        case .french: ("Les {1} {2}", ["Fantômes", "Rêveurs", "Orages", "Navires", "Loups", "Anges", "Châteaux", "Oiseaux"], ["Électriques", "Sauvages", "Perdus", "Éphémères", "Dorés", "Bleus", "Tranquilles", "Étranges"])
        case .german: ("{1}{2}", ["Stahl", "Nacht", "Eisen", "Wolken", "Stern", "Beton", "Sommer", "Nebel", "Blitz", "Rost"], ["maschine", "falter", "werk", "kapelle", "gewitter", "fabrik", "garten", "flüstern", "kränze", "träume"])
        case .dutch: ("De {1}{2}", ["Zee", "Nacht", "Wolken", "Tulpen", "Fiets", "Zilver"], ["honden", "vogels", "meisjes", "dromers", "ruiters", "wachters"])
        case .italian: ("I {1} {2}", ["Lupi", "Fantasmi", "Pianeti", "Cavalli", "Santi", "Gatti", "Sogni", "Fiumi"], ["Elettrici", "Perduti", "Selvaggi", "Notturni", "Dorati", "Lenti", "Gentili", "Blu"])
        case .portuguese: ("Os {1} {2}", ["Lobos", "Faróis", "Planetas", "Cavalos", "Tubarões", "Corações", "Pássaros", "Trovões"], ["Elétricos", "Dourados", "Perdidos", "Selvagens", "Noturnos", "Tímidos", "Azuis", "Líquidos"])
        case .nordic: ("{1} {2}", ["Södra", "Norra", "Stilla", "Vilda", "Mörka", "Ljusa", "Kalla", "Gyllene"], ["Vågor", "Skogar", "Stjärnor", "Ljud", "Drömmar", "Fjällen", "Vindar", "Öar"])
        case .icelandic: ("{1} {2}", ["Sigur", "Vetur", "Myrkur", "Dögun", "Norður", "Eldur", "Hljóð", "Ísbjörn", "Sól", "Þoka"], ["Rós", "Ljós", "Vindur", "Haf", "Jökull", "Stjarna", "Fjöll", "Draumur", "Steinn", "Bára"])
        case .polish: ("{1} {2}", ["Czerwone", "Ciche", "Nocne", "Złote", "Dzikie", "Białe", "Smutne", "Żywe"], ["Sny", "Ptaki", "Miasta", "Światła", "Koła", "Drzewa", "Okna", "Żagle"])
        case .czech: ("{1} {2}", ["Modré", "Tiché", "Noční", "Zlaté", "Divoké", "Bílé", "Černé", "Ztracené"], ["Hvězdy", "Řeky", "Stíny", "Lodě", "Zahrady", "Vlny", "Cesty", "Kostky"])
        case .turkish: ("{1} {2}", ["Kırmızı", "Mavi", "Kara", "Sessiz", "Uzak", "Yeşil", "Gümüş", "Deli"], ["Gece", "Rüzgâr", "Deniz", "Şehir", "Ayna", "Yıldız", "Vapur", "Kuşlar"])
        case .greek: ("{1} {2}", ["Μαύρα", "Άσπρα", "Κόκκινα", "Χρυσά", "Άγρια", "Μπλε"], ["Κύματα", "Φεγγάρια", "Όνειρα", "Πουλιά", "Νησιά", "Αστέρια"])
        case .japanese: ("{1}・{2}", ["ヒカリ", "ソラ", "ユメ", "ホシ", "カゼ", "サクラ", "ミドリ", "ツキ"], ["ノイズ", "ガーデン", "ロケット", "パレード", "トンネル", "マシーン"])
        case .russian: ("{1} {2}", ["Белые", "Тихие", "Северные", "Звёздные", "Медные", "Пустые", "Ночные", "Бумажные"], ["Ночи", "Волны", "Облака", "Трамваи", "Сады", "Сны", "Крыши", "Мосты"])
        }
    }

    /// Local words for venue and festival names (`{w}` in templates).
    var placeWords: [String] {
        switch self {
        case .english, .russian: NameBank.englishNouns
        case .spanish: ["Luna", "Sirena", "Faro", "Búho", "Cíclope", "Mirador", "Vesta", "Galápago", "Jaguar", "Candela", "Trueno", "Nébula", "Ámbar", "Cometa"]
        case .french: ["Étoile", "Cigogne", "Lune", "Sirène", "Mouette", "Forge", "Danse", "Rotonde", "Péniche", "Hirondelle", "Comète", "Chouette"]
        case .german: ["Licht", "Hafen", "Kessel", "Stern", "Wolken", "Turm", "Keller", "Funken", "Rost", "Beton", "Nebel", "Ufer"]
        case .dutch: ["Zilver", "Duif", "Lantaarn", "Molen", "Vonk", "Haven", "Wolk", "Anker", "Echo", "Spiegel"]
        case .italian: ["Luna", "Stella", "Fenice", "Lanterna", "Sirena", "Civetta", "Cometa", "Vela", "Rondine", "Torre"]
        case .portuguese: ["Lua", "Estrela", "Sereia", "Coruja", "Andorinha", "Maré", "Vela", "Fábrica", "Lanterna", "Aurora"]
        case .nordic: ["Ljus", "Hamn", "Kvarn", "Stjärn", "Fyr", "Mås", "Järn", "Vind", "Ek", "Björk"]
        case .icelandic: ["Ljós", "Hraun", "Vík", "Fjara", "Norður", "Sól", "Hafnar", "Ís"]
        case .polish: ["Żuraw", "Sowa", "Kometa", "Latarnia", "Przystań", "Iskra", "Wieża", "Mewa", "Jaskółka", "Kuźnia"]
        case .czech: ["Hvězda", "Lampa", "Sova", "Věž", "Kometa", "Přístav", "Jiskra", "Kovárna", "Vlaštovka", "Loď"]
        case .turkish: ["Ay", "Yıldız", "Martı", "Fener", "Rüzgâr", "Liman", "Kule", "Işık", "Gemi", "Çınar"]
        case .greek: ["Άστρο", "Φάρος", "Κύμα", "Φεγγάρι", "Λιμάνι", "Ήχος", "Αύρα", "Γλάρος"]
        case .japanese: ["ソラ", "ホシ", "ツキ", "カゼ", "ヒカリ", "ミライ", "ユメ", "ナミ"]
        }
    }

    /// Venue name templates for a kind of room. Tokens: `{w}` local word, `{s}` local
    /// surname, `{c}` city, `{n}` house number, `{N}` English noun, `{A}` English adjective,
    /// `{S}` sponsor.
    func venueTemplates(_ kind: SampleVenue.Kind) -> [String] {
        switch (self, kind) {
        case (.spanish, .bar): ["Bar {w}", "La Taberna del {w}", "El {w}"]
        case (.spanish, .club): ["Sala {w}", "Sala {w}", "Club {w}", "Sala {s}"]
        case (.spanish, .theatre): ["Teatro {s}", "Teatro {w}", "Auditorio {s}"]
        case (.spanish, .arena): ["{S} Arena", "Pabellón {s}", "Palacio de los Deportes {w}"]
        case (.spanish, .park): ["Parque {w}", "Recinto Ferial {w}", "Explanada {s}"]
        case (.french, .bar): ["Le Bar de la {w}", "Café de la {w}", "La {w}"]
        case (.french, .club): ["La {w}", "Club {w}", "La {w} Électrique", "Le Petit {s}"]
        case (.french, .theatre): ["Théâtre {s}", "Théâtre de la {w}", "Salle {s}"]
        case (.french, .arena): ["Zénith {s}", "{S} Arena", "Palais des Sports {s}"]
        case (.french, .park): ["Parc de la {w}", "Jardins {s}", "Plaine de la {w}"]
        case (.german, .bar): ["{w}bar", "Bar {w}", "Kneipe {s}"]
        case (.german, .club): ["{w}club", "Klub {w}", "{w}keller", "{w}werk"]
        case (.german, .theatre): ["{w}theater", "{w}halle", "{s}-Saal", "Kulturhaus {w}"]
        case (.german, .arena): ["{S} Arena", "{S}-Halle"]
        case (.german, .park): ["{w}park", "Festwiese {w}", "{s}-Park"]
        case (.dutch, .bar): ["Café {w}", "De {w}"]
        case (.dutch, .club): ["De {w}", "Club {w}", "Het {w}huis"]
        case (.dutch, .theatre): ["Schouwburg {s}", "{w}theater", "Zaal {w}"]
        case (.dutch, .arena): ["{S} Dome", "{S} Arena"]
        case (.dutch, .park): ["{w}park", "Park {s}"]
        case (.italian, .bar): ["Bar {w}", "Osteria della {w}"]
        case (.italian, .club): ["Circolo {w}", "Club {w}", "La {w}"]
        case (.italian, .theatre): ["Teatro {s}", "Teatro della {w}"]
        case (.italian, .arena): ["{S} Forum", "Palazzetto {s}"]
        case (.italian, .park): ["Parco della {w}", "Giardini {s}"]
        case (.portuguese, .bar): ["Bar da {w}", "Tasca {s}"]
        case (.portuguese, .club): ["Casa da {w}", "Clube {w}", "Espaço {w}"]
        case (.portuguese, .theatre): ["Teatro {s}", "Cine-Teatro {w}"]
        case (.portuguese, .arena): ["{S} Arena", "Pavilhão {s}"]
        case (.portuguese, .park): ["Parque da {w}", "Jardim {s}"]
        case (.nordic, .bar): ["{w}baren", "Krogen {w}"]
        case (.nordic, .club): ["Klubb {w}", "{w}källaren", "{w}huset"]
        case (.nordic, .theatre): ["{w}teatern", "{s} Konserthus", "{w}salen"]
        case (.nordic, .arena): ["{S} Arena", "{w}hallen"]
        case (.nordic, .park): ["{w}parken", "{w}ängen"]
        case (.icelandic, .bar): ["{w}barinn", "Kaffi {w}"]
        case (.icelandic, .club): ["Klúbburinn {w}", "{w}kjallarinn"]
        case (.icelandic, .theatre): ["{w}bíó", "{w}höll"]
        case (.icelandic, .arena): ["{S} Höllin"]
        case (.icelandic, .park): ["{w}garður"]
        case (.polish, .bar): ["Bar {w}", "Pub {w}"]
        case (.polish, .club): ["Klub {w}", "Scena {w}"]
        case (.polish, .theatre): ["Teatr {w}", "Sala {w}"]
        case (.polish, .arena): ["{S} Arena", "Hala {s}"]
        case (.polish, .park): ["Park {w}", "Błonia {s}"]
        case (.czech, .bar): ["Bar {w}", "Hospoda {w}"]
        case (.czech, .club): ["Klub {w}", "Kulturní dům {w}", "Sál {w}"]
        case (.czech, .theatre): ["Divadlo {w}", "Palác {s}"]
        case (.czech, .arena): ["{S} Aréna", "Hala {s}"]
        case (.czech, .park): ["Park {w}", "Výstaviště {s}"]
        case (.turkish, .bar): ["{w} Bar", "{w} Meyhanesi"]
        case (.turkish, .club): ["Küçük Sahne {w}", "{w} Kulüp", "Salon {w}"]
        case (.turkish, .theatre): ["{w} Sahnesi", "{s} Tiyatrosu"]
        case (.turkish, .arena): ["{S} Arena", "{s} Spor Salonu"]
        case (.turkish, .park): ["{w} Parkı", "{s} Bahçesi"]
        case (.greek, .bar): ["Μπαρ {w}"]
        case (.greek, .club): ["Κλαμπ {w}", "{w} Club"]
        case (.greek, .theatre): ["Θέατρο {w}"]
        case (.greek, .arena): ["{S} Arena"]
        case (.greek, .park): ["Πάρκο {w}"]
        case (.japanese, .bar): ["バー{w}", "{w} Bar"]
        case (.japanese, .club): ["クラブ{w}", "Club {w}", "Live House {w}"]
        case (.japanese, .theatre): ["{w}ホール", "{c} {w} Hall"]
        case (.japanese, .arena): ["{S} Arena"]
        case (.japanese, .park): ["{w}公園", "{w} Park"]
        case (_, .bar): ["The {N} & {N}", "{s}'s Bar", "The {A} {N}", "{N} Tavern"]
        case (_, .club): ["The {N} Room", "{A} {N} Club", "The {N}", "{s}'s", "{N} Social Club", "{N} Lounge"]
        case (_, .theatre): ["{s} Theatre", "The {N} Playhouse", "{c} Music Hall", "The {A} Theater", "{s} Hall"]
        case (_, .arena): ["{c} Arena", "{S} Arena", "{c} Coliseum", "{S} Center"]
        case (_, .park): ["{N} Park", "{c} Showground", "{A} {N} Fields", "{s} Park"]
        }
    }

    /// How a street address reads; `{s}` is a local surname, `{n}` a house number.
    var streetTemplate: String {
        switch self {
        case .spanish: "Calle de {s}, {n}"
        case .french: "{n} rue {s}"
        case .german: "{s}straße {n}"
        case .dutch: "{s}straat {n}"
        case .italian: "Via {s}, {n}"
        case .portuguese: "Rua {s}, {n}"
        case .nordic: "{s}gatan {n}"
        case .polish: "ul. {s} {n}"
        case .czech, .turkish, .greek, .icelandic, .japanese, .russian: "{s} {n}"
        case .english: "{n} {s} Street"
        }
    }

    /// A local festival name template (same tokens as venues), alternated with English ones.
    var festivalTemplate: String {
        switch self {
        case .english, .russian: "{c} {A} Weekender"
        case .spanish: "Festival {w} {c}"
        case .french: "Festival de la {w}"
        case .german: "{w} Open Air"
        case .dutch: "{w}festival"
        case .italian: "Festa della {w}"
        case .portuguese: "Festival da {w}"
        case .nordic: "{w}festivalen"
        case .icelandic: "{w}hátíð"
        case .polish: "Festiwal {w}"
        case .czech: "Festival {w}"
        case .turkish: "{w} Festivali"
        case .greek: "Φεστιβάλ {w}"
        case .japanese: "{w}フェス"
        }
    }

    /// Typical announced start times (minutes after midnight): later in southern Europe and
    /// Latin America, earlier in Japan, so offsets and local times vary realistically.
    var concertStartMinutes: [Int] {
        switch self {
        case .spanish, .portuguese, .italian, .greek, .turkish: Self.lateStarts
        case .japanese: Self.earlyStarts
        default: Self.usualStarts
        }
    }

    private static let lateStarts = [20 * 60 + 30, 21 * 60, 21 * 60, 21 * 60 + 30, 22 * 60, 22 * 60 + 30]
    private static let earlyStarts = [18 * 60, 18 * 60 + 30, 19 * 60, 19 * 60, 19 * 60 + 30]
    private static let usualStarts = [18 * 60 + 30, 19 * 60, 19 * 60 + 30, 20 * 60, 20 * 60, 20 * 60, 20 * 60 + 30, 21 * 60]
}
