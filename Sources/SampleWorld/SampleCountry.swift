/// How sources other than Songkick name a country, and what its tickets cost.
///
/// The world stores countries as Songkick writes them ("UK", "US", "Czech Republic");
/// Bandsintown and Last.fm spell them out ("United Kingdom", "United States"),
/// Ticketmaster gives an ISO code and its own name ("GB", "Great Britain"), and
/// schema.org pages usually carry the ISO code. Prices are in the local currency.
struct SampleCountry: Sendable {
    /// ISO 3166-1 alpha-2.
    let code: String
    /// The English name Bandsintown and Last.fm use.
    let name: String
    /// Ticketmaster's `country.name`.
    let ticketmasterName: String
    /// ISO 4217.
    let currency: String
    /// Local currency units per euro, roughly, and the step prices are rounded to (in cents).
    let perEuro: Double
    let roundingCents: Int

    /// Keyed by the world's (Songkick's) country name.
    static func named(_ songkickName: String) -> SampleCountry {
        table[songkickName] ?? SampleCountry(
            code: "ZZ", name: songkickName, ticketmasterName: songkickName, currency: "USD", perEuro: 1.1,
            roundingCents: 50)
    }

    private static let table: [String: SampleCountry] = {
        let rows: [(String, String, String, String?, String, Double, Int)] = [
            ("Spain", "ES", "Spain", nil, "EUR", 1, 50),
            ("UK", "GB", "United Kingdom", "Great Britain", "GBP", 0.85, 50),
            ("Ireland", "IE", "Ireland", nil, "EUR", 1, 50),
            ("France", "FR", "France", nil, "EUR", 1, 50),
            ("Germany", "DE", "Germany", nil, "EUR", 1, 50),
            ("Netherlands", "NL", "Netherlands", nil, "EUR", 1, 50),
            ("Belgium", "BE", "Belgium", nil, "EUR", 1, 50),
            ("Portugal", "PT", "Portugal", nil, "EUR", 1, 50),
            ("Italy", "IT", "Italy", nil, "EUR", 1, 50),
            ("Austria", "AT", "Austria", nil, "EUR", 1, 50),
            ("Switzerland", "CH", "Switzerland", nil, "CHF", 0.95, 100),
            ("Czech Republic", "CZ", "Czech Republic", "Czechia", "CZK", 25, 1_000),
            ("Poland", "PL", "Poland", nil, "PLN", 4.3, 100),
            ("Hungary", "HU", "Hungary", nil, "HUF", 390, 10_000),
            ("Sweden", "SE", "Sweden", nil, "SEK", 11.5, 1_000),
            ("Denmark", "DK", "Denmark", nil, "DKK", 7.5, 1_000),
            ("Norway", "NO", "Norway", nil, "NOK", 11.7, 1_000),
            ("Finland", "FI", "Finland", nil, "EUR", 1, 50),
            ("Iceland", "IS", "Iceland", nil, "ISK", 150, 10_000),
            ("Turkey", "TR", "Turkey", nil, "TRY", 38, 1_000),
            ("Greece", "GR", "Greece", nil, "EUR", 1, 50),
            ("US", "US", "United States", "United States Of America", "USD", 1.1, 50),
            ("Canada", "CA", "Canada", nil, "CAD", 1.5, 50),
            ("Mexico", "MX", "Mexico", nil, "MXN", 19, 1_000),
            ("Brazil", "BR", "Brazil", nil, "BRL", 6, 100),
            ("Argentina", "AR", "Argentina", nil, "ARS", 1_000, 100_000),
            ("Chile", "CL", "Chile", nil, "CLP", 1_000, 100_000),
            ("Colombia", "CO", "Colombia", nil, "COP", 4_500, 500_000),
            ("Japan", "JP", "Japan", nil, "JPY", 160, 50_000),
            ("South Korea", "KR", "South Korea", "Korea, Republic of", "KRW", 1_450, 100_000),
            ("India", "IN", "India", nil, "INR", 92, 10_000),
            ("Australia", "AU", "Australia", nil, "AUD", 1.65, 100),
            ("New Zealand", "NZ", "New Zealand", nil, "NZD", 1.8, 100),
            ("Fiji", "FJ", "Fiji", nil, "FJD", 2.4, 100),
            ("South Africa", "ZA", "South Africa", nil, "ZAR", 20, 1_000),
        ]
        var table: [String: SampleCountry] = [:]
        for (songkick, code, name, ticketmaster, currency, perEuro, rounding) in rows {
            table[songkick] = SampleCountry(
                code: code, name: name, ticketmasterName: ticketmaster ?? name, currency: currency,
                perEuro: perEuro, roundingCents: rounding)
        }
        return table
    }()

    /// A price in local cents for a euro amount, rounded to the local step.
    func cents(euros: Double) -> Int {
        let cents = euros * perEuro * 100
        return max(roundingCents, Int((cents / Double(roundingCents)).rounded()) * roundingCents)
    }

    /// Full names of the state and province codes the catalogue uses (Ticketmaster's `state.name`).
    static func stateName(_ code: String, country: String) -> String {
        switch (country, code) {
        case ("US", "NY"): "New York"
        case ("US", "IL"): "Illinois"
        case ("US", "OH"): "Ohio"
        case ("US", "CA"): "California"
        case ("US", "MN"): "Minnesota"
        case ("US", "TX"): "Texas"
        case ("US", "WA"): "Washington"
        case ("US", "TN"): "Tennessee"
        case ("US", "LA"): "Louisiana"
        case ("US", "CO"): "Colorado"
        case ("US", "AZ"): "Arizona"
        case ("US", "HI"): "Hawaii"
        case ("Canada", "ON"): "Ontario"
        case ("Canada", "QC"): "Quebec"
        case ("Canada", "BC"): "British Columbia"
        case ("Canada", "NL"): "Newfoundland and Labrador"
        case ("Australia", "NSW"): "New South Wales"
        case ("Australia", "VIC"): "Victoria"
        case ("Australia", "QLD"): "Queensland"
        case ("Australia", "WA"): "Western Australia"
        case ("Australia", "SA"): "South Australia"
        default: code
        }
    }
}
