import Ingest
import Testing

/// How one line of address text splits into name, street, postal code, city, region and
/// country, by the conventions of the country it is written in.
struct FreeTextAddressTests {
    /// text → name | street | postal code | city | region | country ("-": none).
    static let cases: [(String, String)] = [
        ("The Eastern, 800 Old Flat Shoals Rd SE, Atlanta, GA 30316", "The Eastern|800 Old Flat Shoals Rd SE|30316|Atlanta|GA|US"),
        ("Terminal West, 1099 Euclid Ave NE, Atlanta, GA 30307", "Terminal West|1099 Euclid Ave NE|30307|Atlanta|GA|US"),
        ("Sports Illustrated Stadium, 600 Cape May St, Harrison, NJ 07029", "Sports Illustrated Stadium|600 Cape May St|07029|Harrison|NJ|US"),
        ("Gruene Hall, 1281 Gruene Rd, New Braunfels TX 78130", "Gruene Hall|1281 Gruene Rd|78130|New Braunfels|TX|US"),
        ("The Danforth Music Hall, 147 Danforth Ave, Toronto, ON M4K 1N2", "The Danforth Music Hall|147 Danforth Ave|M4K 1N2|Toronto|ON|CA"),
        // "LA" is also Laos: the state is kept and placement decides (a US state unless
        // the page says otherwise; see PlaceEvidenceTests).
        ("Town Hall, Rayne, LA", "Town Hall|-|-|Rayne|LA|-"),
        ("Rayne, LA", "-|-|-|Rayne|LA|-"),
        ("Lakeside Amphitheater, Rayne, MS", "Lakeside Amphitheater|-|-|Rayne|MS|-"),
        ("Spring Hall, Dover, NH", "Spring Hall|-|-|Dover|NH|US"),
        ("Wacken, Germany", "-|-|-|Wacken|-|DE"),
        ("Berlin, DE", "-|-|-|Berlin|DE|-"),
        ("The Lexington, 96-98 Pentonville Rd, London N1 9JB", "The Lexington|96-98 Pentonville Rd|N1 9JB|London|-|GB"),
        ("14 St John Street, Bromsgrove, B61 8QY, United Kingdom", "14 St John Street|14 St John Street|B61 8QY|Bromsgrove|-|GB"),
        ("London Heathrow Airport, London, England, United Kingdom", "London Heathrow Airport|-|-|London|-|GB"),
        ("Burg Wilhelmstein, 52146 Würselen", "Burg Wilhelmstein|-|52146|Würselen|-|-"),
        ("Meson El Cordobes, Gladbacher Str. 11, 50672 Köln, Deutschland", "Meson El Cordobes|Gladbacher Str. 11|50672|Köln|-|DE"),
        ("Paradiso, Weteringschans 6-8, 1017 SG Amsterdam", "Paradiso|Weteringschans 6-8|1017 SG|Amsterdam|-|NL"),
        ("Rockefeller Music Hall, Torggata 16, 0181 Oslo", "Rockefeller Music Hall|Torggata 16|0181|Oslo|-|-"),
        ("Debaser Strand, Hornstulls strand 4, 117 39 Stockholm", "Debaser Strand|Hornstulls strand 4|117 39|Stockholm|-|SE"),
        ("Officine Brera, Telakkakatu 10, 00150 Helsinki, Suomi", "Officine Brera|Telakkakatu 10|00150|Helsinki|-|FI"),
        ("Hovedscenen, Kulturhuset Tromsø", "Hovedscenen|-|-|Kulturhuset Tromsø|-|-"),
        ("Au Lac (Vietnamese vegan restaurant), 710 W 1st St, Downtown Los Angeles", "Au Lac|710 W 1st St|-|Downtown Los Angeles|-|-"),
        ("6010 W Pico Blvd, Los Angeles", "6010 W Pico Blvd|6010 W Pico Blvd|-|Los Angeles|-|-"),
        ("Nederländerna", "-|-|-|-|-|NL"),
        ("代官山AビルB1F（東京都渋谷区代官山町20-17）", "代官山AビルB1F|-|-|Shibuya|-|JP"),
        ("Spotify O-EAST / duo MUSIC EXCHANGE / Veats SHIBUYA", "Spotify O-EAST|-|-|-|-|-"),
        ("会場：Spotify O-EAST、Spotify O-WEST、WOMB", "Spotify O-EAST|-|-|-|-|-"),
        ("韩国 首尔", "韩国 首尔|-|-|Seoul|-|KR"),
    ]

    @Test(arguments: cases)
    func readsAnAddressByItsCountrysConventions(text: String, expected: String) {
        let address = FreeTextAddress(text)
        let got = [address.name, address.street, address.postalCode, address.city, address.region, address.country]
            .map { $0 ?? "-" }.joined(separator: "|")
        #expect(got == expected)
        #expect(!address.isOnline)
    }

    @Test(arguments: ["YouTube", "Weverse 直播", "线上", "Online", "Livestream on Twitch", "オンライン配信"])
    func anOnlinePlaceIsNoAddress(text: String) {
        #expect(FreeTextAddress(text).isOnline)
    }

    @Test func aFourDigitHouseNumberIsAStreetWhereZIPCodesAreWritten() {
        // Before a US state and ZIP, "1099 Euclid Ave NE" is no Norwegian postcode and city.
        let us = FreeTextAddress("Terminal West, 1099 Euclid Ave NE, Atlanta, GA 30307")
        #expect(us.street == "1099 Euclid Ave NE" && us.postalCode == "30307" && us.city == "Atlanta")
        let norway = FreeTextAddress("Cosmopolite, Industrigata 36, 0357 Oslo")
        #expect(norway.postalCode == "0357" && norway.city == "Oslo")
    }
}
