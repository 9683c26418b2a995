import Foundation

/// Country names as addresses write them, in English (the bundled `countries.tsv`, with
/// its ISO 3166-1 alpha-2 and alpha-3 codes) and in the languages Encore's sources use
/// ("Deutschland", "Allemagne", "Norge", "Sverige", "Nederland", "日本", "韩国").
///
/// ```swift
/// CountryNames.code(for: "Deutschland")   // "DE"
/// CountryNames.code(for: "Wacken")        // nil
/// ```
///
/// Readers of free text ask it whether the last part of an address is a country; it
/// needs no gazetteer, so an ingester can ask.
public enum CountryNames {
    /// The ISO 3166-1 alpha-2 code of a country name or code (folded: case and accents
    /// do not matter), or nil.
    public static func code(for name: String) -> String? {
        let key = NameFolding.fold(name)
        if let code = table[key] { return code }
        // Names in scripts the folding leaves alone ("日本", "Германия").
        return table[name.trimmingCharacters(in: .whitespaces).lowercased()]
    }

    /// Names in other languages and the usual short forms, folded (see ``NameFolding``),
    /// or as written for non-Latin scripts.
    static let otherNames: [String: String] = [
        // Short forms.
        "uk": "GB", "england": "GB", "scotland": "GB", "wales": "GB", "northern ireland": "GB", "great britain": "GB",
        "usa": "US", "u s a": "US", "united states of america": "US", "america": "US", "czechia": "CZ",
        "holland": "NL", "the netherlands": "NL", "south korea": "KR", "korea": "KR", "republic of korea": "KR",
        "russia": "RU", "turkiye": "TR",
        // German, French, Spanish, Italian, Dutch, Scandinavian, Finnish, Polish, Portuguese.
        "deutschland": "DE", "allemagne": "DE", "alemania": "DE", "germania": "DE", "duitsland": "DE", "tyskland": "DE",
        "saksa": "DE", "niemcy": "DE", "alemanha": "DE", "bundesrepublik deutschland": "DE",
        "osterreich": "AT", "autriche": "AT", "austria": "AT", "oostenrijk": "AT", "osterrike": "AT", "itavalta": "AT",
        "schweiz": "CH", "suisse": "CH", "svizzera": "CH", "suiza": "CH", "zwitserland": "CH", "sveits": "CH",
        "sverige": "SE", "schweden": "SE", "suede": "SE", "suecia": "SE", "svezia": "SE", "zweden": "SE", "ruotsi": "SE",
        "norge": "NO", "noreg": "NO", "norwegen": "NO", "norvege": "NO", "noruega": "NO", "norvegia": "NO",
        "noorwegen": "NO", "norja": "NO",
        "danmark": "DK", "danemark": "DK", "danemarca": "DK", "dinamarca": "DK", "danimarca": "DK", "denemarken": "DK",
        "tanska": "DK", "daenemark": "DK",
        "suomi": "FI", "finnland": "FI", "finlande": "FI", "finlandia": "FI", "finland": "FI",
        "island": "IS", "islande": "IS", "islandia": "IS",
        "nederland": "NL", "niederlande": "NL", "pays bas": "NL", "paises bajos": "NL", "paesi bassi": "NL",
        "nederlanderna": "NL", "nederlandene": "NL", "alankomaat": "NL",
        "belgie": "BE", "belgique": "BE", "belgien": "BE", "belgica": "BE", "belgio": "BE",
        "frankreich": "FR", "francia": "FR", "frankrijk": "FR", "frankrike": "FR", "ranska": "FR", "franca": "FR",
        "espana": "ES", "spanien": "ES", "espagne": "ES", "spagna": "ES", "spanje": "ES", "espanha": "ES",
        "italia": "IT", "italien": "IT", "italie": "IT",
        "vereinigtes konigreich": "GB", "royaume uni": "GB", "reino unido": "GB",
        "regno unito": "GB", "verenigd koninkrijk": "GB", "storbritannien": "GB", "storbritannia": "GB",
        "grossbritannien": "GB", "iso britannia": "GB",
        "irland": "IE", "irlande": "IE", "irlanda": "IE", "ierland": "IE", "eire": "IE",
        "polska": "PL", "polen": "PL", "pologne": "PL", "polonia": "PL",
        "cesko": "CZ", "ceska republika": "CZ", "tschechien": "CZ", "czech republic": "CZ",
        "magyarorszag": "HU", "ungarn": "HU", "hongrie": "HU",
        "portugal": "PT", "eesti": "EE", "latvija": "LV", "lietuva": "LT", "hrvatska": "HR", "slovenija": "SI",
        "slovensko": "SK", "srbija": "RS", "ellada": "GR", "griechenland": "GR", "grece": "GR", "grecia": "GR",
        "turkei": "TR", "rossiya": "RU", "russland": "RU", "ukraina": "UA",
        "vereinigte staaten": "US", "etats unis": "US", "estados unidos": "US", "stati uniti": "US",
        "verenigde staten": "US", "forenta staterna": "US", "usa amerika": "US",
        "kanada": "CA", "japon": "JP", "giappone": "JP", "nihon": "JP", "nippon": "JP", "japani": "JP",
        "brasil": "BR", "brasilien": "BR", "bresil": "BR", "mexiko": "MX", "mexique": "MX", "australien": "AU",
        "australie": "AU", "neuseeland": "NZ", "sudafrika": "ZA", "zhongguo": "CN", "china": "CN", "hanguk": "KR",
        "sudkorea": "KR", "coree du sud": "KR", "corea del sur": "KR",
        // Non-Latin scripts, as written.
        "日本": "JP", "日本国": "JP", "中国": "CN", "中華人民共和国": "CN", "台湾": "TW", "臺灣": "TW", "香港": "HK",
        "韩国": "KR", "韓国": "KR", "韓國": "KR", "대한민국": "KR", "한국": "KR", "美国": "US", "アメリカ": "US",
        "英国": "GB", "イギリス": "GB", "德国": "DE", "ドイツ": "DE", "法国": "FR", "フランス": "FR",
        "россия": "RU", "германия": "DE", "украина": "UA", "беларусь": "BY", "казахстан": "KZ",
        "ελλάδα": "GR", "ישראל": "IL", "ประเทศไทย": "TH",
    ]

    private static let table: [String: String] = {
        var table: [String: String] = [:]
        if let url = Bundle.module.url(forResource: "countries", withExtension: "tsv", subdirectory: "Resources"),
            let data = try? Data(contentsOf: url)
        {
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: "\t").map(String.init)
                guard fields.count >= 3 else { continue }
                for alias in fields { table[NameFolding.fold(alias)] = fields[0] }
            }
        }
        for (name, code) in otherNames {
            let folded = NameFolding.fold(name)
            table[folded.isEmpty ? name : folded] = code
            table[name] = code
        }
        return table
    }()
}
