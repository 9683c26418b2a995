import Foundation
import Geo
import Listings

/// A place written as one line of text (an iCalendar `LOCATION`, a JSON-LD address
/// string), read by the conventions of the country it is written in.
///
/// ```swift
/// FreeTextAddress("The Earl, 488 Flat Shoals Ave SE, Atlanta, GA 30316")
/// // name "The Earl", street "488 Flat Shoals Ave SE", city Atlanta, region GA, country US
/// FreeTextAddress("Wacken, Germany")        // city Wacken, country DE, no name
/// FreeTextAddress("Burg Wilhelmstein, 52146 Würselen")   // postal code 52146, city Würselen
/// ```
///
/// Rules, last part first (a part is what commas separate):
/// - **Country**: a country's name in the usual languages or its ISO code ("Germany",
///   "Deutschland", "Norge", "日本", "SE", "USA"), never a city. A two-letter code that is
///   also a US state ("LA", "DE", "CA") is a state when the address has a US shape (a
///   ZIP code, a street that starts with its number), else left for the gazetteer to tell.
/// - **US and Canada**: "ST 12345", "City ST 12345-6789", "ON M6K 3C3": region and postal
///   code. A number that starts a part before them is a house number, however long
///   ("1099 Euclid Ave NE").
/// - **UK**: a postcode ending a part ("London N1 7UX") gives city and country GB.
/// - **Postcode first** (most of Europe): "12345 City", "D-12345 City", "1234 AB City"
///   (NL, which it implies), "0123 City" (NO, DK, AT, CH, BE), "123 45 City" (SE, which
///   it implies): unless a street word ends it ("1234 Main St").
/// - **Japan**: "Venue（東京都渋谷区…）": the address in brackets, country JP.
/// - **Several venues** ("A / B / C") are the first one's place.
/// - **Online** (YouTube, Weverse, "Online", 线上, Zoom…) is no place: ``isOnline``.
/// - What is left: the first part names the venue, a part with a number or a street word
///   is the street, the last plain part the city. A lone part with a country or state
///   after it is the city ("Town, LA"), not a venue.
public struct FreeTextAddress: Sendable, Hashable {
    /// The venue's name, when the text names one before the address.
    public var name: String?
    public var street: String?
    public var postalCode: String?
    public var city: String?
    /// A US state, Canadian province or other first-level code as written ("GA").
    public var region: String?
    /// ISO 3166-1 alpha-2, when the text names the country or its shape implies one.
    public var country: String?
    /// The text names an online place only (a stream, a platform).
    public var isOnline = false

    public init(_ written: String) {
        var text = written.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: ", ")
            .trimmingCharacters(in: .whitespaces)
        // "📍Venue", "会場：A、B": markers before the place.
        text = String(text.drop { !($0.isLetter || $0.isNumber) })
        for marker in ["会場：", "会場:", "場所：", "地点：", "Venue:", "Location:", "Ort:"] where text.hasPrefix(marker) {
            text = String(text.dropFirst(marker.count)).trimmingCharacters(in: .whitespaces)
        }
        guard !text.isEmpty else { return }
        if Self.isOnlineOnly(text) {
            isOnline = true
            return
        }
        // Several venues of one event: the first one's place.
        for separator in [" / ", "／", "、"] where text.contains(separator) {
            text = String(text.components(separatedBy: separator)[0]).trimmingCharacters(in: .whitespaces)
        }
        if let open = text.firstIndex(of: "（"), let close = text.lastIndex(of: "）"), open < close {
            // Japanese: "Venue（full address）".
            let inside = String(text[text.index(after: open)..<close])
            name = String(text[..<open]).trimmingCharacters(in: .whitespaces)
            readEastAsian(inside)
            if name?.isEmpty == true { name = nil }
            return
        }
        if Self.isEastAsian(text) {
            readEastAsian(text)
            name = text
            return
        }
        var parts = text.split(whereSeparator: { $0 == "," || $0 == "，" || $0 == ";" })
            .map { Self.withoutRemark($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return }
        let usShaped = parts.contains { Self.usTail($0) != nil || Self.startsWithHouseNumber($0) }
        readTail(&parts, usShaped: usShaped)
        readRest(parts, usShaped: usShaped)
    }

    // MARK: - The tail: country, state and ZIP, postcodes

    private mutating func readTail(_ parts: inout [String], usShaped: Bool) {
        if parts.count == 1, parts[0].count > 3, let code = CountryNames.code(for: parts[0]) {
            // "Nederländerna": somewhere in a country.
            country = code
            parts.removeAll()
            return
        }
        guard parts.count >= 2 || Self.usTail(parts[0]) != nil else { return }
        if let last = parts.last, let code = Self.countryCode(last, usShaped: usShaped) {
            country = code
            parts.removeLast()
            // "London, England, United Kingdom": the country named twice.
            while parts.count >= 2, let last = parts.last, Self.countryCode(last, usShaped: usShaped) == code { parts.removeLast() }
        } else if let last = parts.last, let code = Self.usStateNames[last.lowercased()],
            parts.count >= 3 || !Self.statesNamedLikeCities.contains(code)
        {
            // "Hodgenville, Kentucky"; "…, Brooklyn, New York" (but "Bowery Ballroom, New York" is the city).
            region = code
            country = "US"
            parts.removeLast()
        } else if let last = parts.last, last.count == 2, last.allSatisfy({ $0.isASCII && $0.isUppercase }),
            Self.usStates.contains(last)
        {
            // "Wilmington, DE" or "Berlin, DE": the gazetteer tells by the city.
            region = last
            if usShaped || !Self.countryCodesThatAreStates.contains(last) { country = "US" }
            parts.removeLast()
        }
        guard let last = parts.last, country == nil || country == "US" || country == "CA" || country == "GB" else { return }
        if let tail = Self.usTail(last) {
            region = tail.region
            postalCode = tail.postalCode
            if country == nil { country = tail.isCanadian ? "CA" : "US" }
            parts.removeLast()
            if let city = tail.city { parts.append(city) }
        } else if let (place, postcode) = Self.ukPostcode(last) {
            postalCode = postcode
            if country == nil { country = "GB" }
            parts.removeLast()
            if let place { parts.append(place) }
        }
    }

    // MARK: - The rest: name, street, city

    private mutating func readRest(_ parts: [String], usShaped: Bool) {
        var rest = parts
        guard !rest.isEmpty else { return }
        if rest.count == 1, country != nil || region != nil || postalCode != nil {
            // "Wacken, Germany", "Town, LA", "London N1 7UX": a place, not a venue.
            if let (postcode, place) = Self.leadingPostcode(rest[0], usShaped: usShaped) {
                postalCode = postcode
                city = place
            } else if Self.isStreet(rest[0], usShaped: usShaped) {
                street = rest[0]
            } else {
                city = rest[0]
            }
            return
        }
        // The first part names the venue unless it is a street ("6010 W Pico Blvd", "Hämeentie 3").
        if let first = rest.first,
            rest.count == 1 || !(first.first?.isNumber == true || (first.contains(where: \.isNumber) && Self.isStreet(first, usShaped: usShaped)))
        {
            name = String(first.prefix(200))
            rest.removeFirst()
        }
        var plain: [String] = []
        for part in rest {
            if postalCode == nil, let (postcode, place) = Self.leadingPostcode(part, usShaped: usShaped) {
                postalCode = postcode
                city = place
                if country == nil { country = Self.postcodeCountry(postcode) }
            } else if Self.isStreet(part, usShaped: usShaped) {
                if street == nil { street = part }
            } else {
                plain.append(part)
            }
        }
        if city == nil, let last = plain.last { city = last }
        if name == nil, let street { name = street }
    }

    // MARK: - East Asian addresses

    private mutating func readEastAsian(_ text: String) {
        let compact = text.replacingOccurrences(of: " ", with: "")
        if let postcode = compact.range(of: "〒[0-9]{3}-?[0-9]{4}", options: .regularExpression) {
            postalCode = String(compact[postcode].dropFirst())
        }
        for (country, words) in Self.eastAsianCountryWords where words.contains(where: { compact.contains($0) }) {
            self.country = country
            break
        }
        // Kana is written in Japan only.
        if country == nil, compact.unicodeScalars.contains(where: { (0x3040...0x30FF).contains($0.value) }) { country = "JP" }
        // The gazetteer's other names are in Latin script: the large cities by their
        // names in Han, kana and Hangul.
        if let (_, latin) = Self.eastAsianCities.first(where: { compact.contains($0.0) }) {
            city = latin
            return
        }
        // 東京都渋谷区… → 渋谷区; 福岡市…: the first city or ward after the prefecture.
        if let range = compact.range(of: "(?<=[都道府県])[^都道府県市区町村]{1,6}?[市区]", options: .regularExpression)
            ?? compact.range(of: "^[^都道府県市区町村]{1,6}?[市区]", options: .regularExpression)
        {
            city = String(compact[range])
        }
    }

    /// Words that place Japanese, Korean and Chinese text: prefectures, the script itself.
    static let eastAsianCountryWords: [(String, [String])] = [
        ("JP", ["東京", "北海道", "大阪", "京都府", "県", "日本", "〒", "渋谷", "新宿", "横浜", "名古屋", "福岡", "札幌"]),
        ("KR", ["서울", "首尔", "首爾", "ソウル", "韩国", "韓国", "釜山", "부산", "대한민국"]),
        ("TW", ["台北", "臺北", "台湾", "臺灣", "高雄"]),
        ("HK", ["香港"]),
        ("CN", ["上海", "北京", "广州", "深圳", "成都", "杭州", "中国"]),
    ]

    /// Wards before cities: "東京都渋谷区" is Shibuya.
    static let eastAsianCities: [(String, String)] = [
        ("渋谷", "Shibuya"), ("新宿", "Shinjuku"), ("豊洲", "Koto"), ("有楽町", "Chiyoda"), ("原宿", "Shibuya"),
        ("代官山", "Shibuya"), ("品川", "Shinagawa"), ("池袋", "Toshima"), ("横浜", "Yokohama"), ("東京", "Tokyo"),
        ("大阪", "Osaka"), ("名古屋", "Nagoya"), ("福岡", "Fukuoka"), ("札幌", "Sapporo"), ("京都", "Kyoto"),
        ("神戸", "Kobe"), ("仙台", "Sendai"), ("広島", "Hiroshima"), ("首尔", "Seoul"), ("首爾", "Seoul"),
        ("ソウル", "Seoul"), ("서울", "Seoul"), ("釜山", "Busan"), ("부산", "Busan"), ("台北", "Taipei"),
        ("臺北", "Taipei"), ("高雄", "Kaohsiung"), ("香港", "Hong Kong"), ("上海", "Shanghai"), ("北京", "Beijing"),
        ("广州", "Guangzhou"), ("深圳", "Shenzhen"), ("成都", "Chengdu"), ("杭州", "Hangzhou"),
    ]

    static func isEastAsian(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) || (0xAC00...0xD7AF).contains($0.value) }
    }

    // MARK: - Recognizers

    /// Places that are not places: streams and platforms.
    static let onlineWords: [String] = [
        "online", "livestream", "live stream", "streaming", "youtube", "weverse", "twitch", "zoom", "instagram", "tiktok",
        "facebook live", "bilibili", "vlive", "v live", "discord", "virtual", "线上", "線上", "直播", "オンライン", "配信",
        "온라인", "網上", "网络",
    ]

    static func isOnlineOnly(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard text.count <= 60, !text.contains(where: \.isNumber) || lower.contains("youtube") else { return false }
        return onlineWords.contains { lower.contains($0) } && !lower.contains(",")
    }

    /// "Au Lac (Vietnamese vegan restaurant)" → "Au Lac": a remark in brackets at the end.
    static func withoutRemark(_ part: String) -> String {
        guard part.hasSuffix(")"), let open = part.lastIndex(of: "("), open > part.startIndex else { return part }
        return part[..<open].trimmingCharacters(in: .whitespaces)
    }

    static func countryCode(_ part: String, usShaped: Bool) -> String? {
        let isUpperCode = (part.count == 2 || part.count == 3) && part.allSatisfy { $0.isASCII && $0.isUppercase }
        // "Town, LA", "Oakland, CA", "Berlin, DE": states for the caller to read.
        if part.count == 2, isUpperCode, usStates.contains(part) { return nil }
        if part.count <= 3, !isUpperCode { return nil }
        return CountryNames.code(for: part)
    }

    /// "GA 30316", "Atlanta GA 30316", "NJ 07029-1234", "ON M6K 3C3", "California 90012".
    static func usTail(_ part: String) -> (city: String?, region: String, postalCode: String, isCanadian: Bool)? {
        let words = part.split(separator: " ").map(String.init)
        guard words.count >= 2 else { return nil }
        let last = words[words.count - 1]
        if last.count == 5 || last.count == 10, last.prefix(5).allSatisfy({ $0.isASCII && $0.isNumber }),
            last.count == 5 || last.dropFirst(5).first == "-"
        {
            let state = words[words.count - 2]
            if usStates.contains(state) {
                let city = words.dropLast(2).joined(separator: " ")
                return (city.isEmpty ? nil : city, state, last, false)
            }
            if let code = usStateNames[state.lowercased()] {
                return (nil, code, last, false)
            }
            return nil
        }
        // Canada: "ON M6K 3C3".
        if words.count >= 3, canadianProvinces.contains(words[words.count - 3]),
            part.range(of: "[A-Z][0-9][A-Z] ?[0-9][A-Z][0-9]$", options: .regularExpression) != nil
        {
            let city = words.dropLast(3).joined(separator: " ")
            return (city.isEmpty ? nil : city, words[words.count - 3], words.suffix(2).joined(separator: " "), true)
        }
        return nil
    }

    /// "London N1 7UX" → ("London", "N1 7UX"); "EC1V 9LT" → (nil, "EC1V 9LT").
    static func ukPostcode(_ part: String) -> (String?, String)? {
        guard let range = part.range(of: "(^|\\s)[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$", options: .regularExpression) else { return nil }
        let postcode = part[range].trimmingCharacters(in: .whitespaces)
        let place = part[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
        return (place.isEmpty || place.contains(where: \.isNumber) ? nil : place, postcode)
    }

    /// "52146 Würselen", "D-52146 Würselen", "1012 AB Amsterdam", "9008 Tromsø",
    /// "114 55 Stockholm": postal code and city, unless it reads as a street.
    static func leadingPostcode(_ part: String, usShaped: Bool) -> (String, String)? {
        guard !usShaped,
            let range = part.range(
                of: "^([A-Z]{1,2}-)?([0-9]{4} ?[A-Z]{2}(?= )|[0-9]{3} [0-9]{2}(?= )|[0-9]{4,5})", options: .regularExpression)
        else { return nil }
        let city = part[range.upperBound...].trimmingCharacters(in: .whitespaces)
        guard !city.isEmpty, !city.contains(where: \.isNumber), !endsWithStreetWord(city) else { return nil }
        return (String(part[range]), city)
    }

    /// Postcodes of one country's shape: "1017 SG" is Dutch, "117 39" Swedish.
    static func postcodeCountry(_ postcode: String) -> String? {
        if postcode.range(of: "^[0-9]{4} ?[A-Z]{2}$", options: .regularExpression) != nil { return "NL" }
        if postcode.range(of: "^[0-9]{3} [0-9]{2}$", options: .regularExpression) != nil { return "SE" }
        return nil
    }

    static func startsWithHouseNumber(_ part: String) -> Bool {
        let words = part.split(separator: " ")
        guard words.count >= 3, let first = words.first, first.first?.isNumber == true,
            first.allSatisfy({ $0.isNumber || $0.isLetter || $0 == "-" })
        else { return false }
        return endsWithStreetWord(part) || directions.contains(String(words.last!).lowercased())
    }

    static func isStreet(_ part: String, usShaped: Bool) -> Bool {
        if startsWithHouseNumber(part) || endsWithStreetWord(part) { return true }
        guard part.contains(where: \.isNumber) else { return false }
        // "Hämeentie 3", "Puistokatu 2-4", "800 Old Flat Shoals Rd SE", "Sal 3".
        return leadingPostcode(part, usShaped: usShaped) == nil
    }

    static func endsWithStreetWord(_ part: String) -> Bool {
        var words = part.lowercased().split(separator: " ").map { $0.trimmingCharacters(in: .punctuationCharacters) }
        if let last = words.last, directions.contains(last), words.count > 1 { words.removeLast() }
        guard let last = words.last else { return false }
        if streetWords.contains(last) { return true }
        // German, Scandinavian, Finnish, Dutch compounds: "Hauptstraße", "Storgatan", "Hämeentie".
        return streetSuffixes.contains { last.hasSuffix($0) && last.count > $0.count + 2 }
    }

    static let directions: Set<String> = ["n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west"]

    /// Last words of a street, not a city.
    static let streetWords: Set<String> = [
        "street", "st", "road", "rd", "avenue", "ave", "av", "boulevard", "blvd", "lane", "ln", "way", "drive", "dr",
        "place", "pl", "square", "sq", "court", "ct", "terrace", "row", "parkway", "pkwy", "highway", "hwy", "circle",
        "cir", "alley", "crescent", "close", "trail", "pike", "plaza", "broadway", "strasse", "straße", "str", "gasse",
        "weg", "platz", "allee", "ring", "rue", "calle", "via", "viale", "piazza", "plaza", "rua", "straat", "laan",
        "plein", "gracht", "kade", "gata", "gatan", "vei", "veien", "vegen", "gade", "vej", "katu", "tie", "kuja",
    ]
    static let streetSuffixes = [
        "straße", "strasse", "str.", "gasse", "weg", "platz", "allee", "ufer", "damm", "straat", "laan", "gracht",
        "plein", "gatan", "gata", "vägen", "gate", "gaten", "veien", "vegen", "gade", "vej", "katu", "tie", "kuja",
        "polku", "ranta", "tori",
    ]

    /// Two-letter codes that are both a US state and a country (DE: Delaware, Germany).
    static let countryCodesThatAreStates: Set<String> = [
        "AL", "AR", "AZ", "CA", "CO", "DE", "GA", "ID", "IL", "IN", "LA", "MA", "MD", "ME", "MN", "MO", "MS", "MT",
        "NC", "NE", "PA", "SC", "SD", "TN", "VA",
    ]

    static let usStates: Set<String> = [
        "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME",
        "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA",
        "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "DC",
    ]

    static let canadianProvinces: Set<String> = ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"]

    /// States whose name is also a city's: a state only after a city.
    static let statesNamedLikeCities: Set<String> = ["NY", "WA"]

    /// Georgia is left out: as a last part it is as often the country.
    static let usStateNames: [String: String] = [
        "alabama": "AL", "alaska": "AK", "arizona": "AZ", "arkansas": "AR", "california": "CA", "colorado": "CO",
        "connecticut": "CT", "delaware": "DE", "florida": "FL", "hawaii": "HI", "idaho": "ID",
        "illinois": "IL", "indiana": "IN", "iowa": "IA", "kansas": "KS", "kentucky": "KY", "louisiana": "LA",
        "maine": "ME", "maryland": "MD", "massachusetts": "MA", "michigan": "MI", "minnesota": "MN", "mississippi": "MS",
        "missouri": "MO", "montana": "MT", "nebraska": "NE", "nevada": "NV", "ohio": "OH", "oklahoma": "OK",
        "oregon": "OR", "pennsylvania": "PA", "tennessee": "TN", "texas": "TX", "utah": "UT", "vermont": "VT",
        "virginia": "VA", "washington": "WA", "wisconsin": "WI", "wyoming": "WY", "new york": "NY", "new jersey": "NJ",
        "new mexico": "NM", "new hampshire": "NH", "north carolina": "NC", "south carolina": "SC", "north dakota": "ND",
        "south dakota": "SD", "rhode island": "RI", "west virginia": "WV", "district of columbia": "DC",
    ]
}
