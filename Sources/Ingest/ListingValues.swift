import Foundation
import Geo
import Listings

/// What the ingesters share: value checks whose every failure names the page and the
/// position, so the operator can find the value, and the keys and titles a source
/// leaves for Encore to make.
struct ListingValues {
    let locator: String

    func invalid(_ path: String, _ detail: String) -> IngestError {
        IngestError(locator: locator, position: path, reason: .invalidValue(detail))
    }

    /// A coordinate from two numbers that may be missing; `nil` when either is missing.
    /// Both zero is "unknown" in every source that writes it, not a venue off Africa.
    func coordinate(_ latitude: Double?, _ longitude: Double?, at path: String) throws(IngestError) -> Coordinate? {
        guard let latitude, let longitude else { return nil }
        guard latitude.isFinite, (-90.0...90.0).contains(latitude) else {
            throw invalid("\(path).latitude", "latitude \(latitude) is outside -90...90")
        }
        guard longitude.isFinite, (-180.0...180.0).contains(longitude) else {
            throw invalid("\(path).longitude", "longitude \(longitude) is outside -180...180")
        }
        if latitude == 0, longitude == 0 { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// `2018-11-29T19:30:00` (seconds and fractions optional, no offset): a wall-clock time.
    func localDateTime(_ text: String, at path: String) throws(IngestError) -> (date: LocalDate, time: LocalTime?) {
        let failure = invalid(path, "\"\(text)\" is not a local date and time (like \"2026-04-17T20:00:00\")")
        guard let date = LocalDate(iso: text.prefix(10)) else {
            throw text.count >= 10 && text.prefix(10).allSatisfy({ $0.isNumber || $0 == "-" })
                ? invalid(path, "\"\(text)\" is not a date: \(text.prefix(10)) does not exist") : failure
        }
        guard text.count > 10 else { return (date, nil) }
        let separator = text[text.index(text.startIndex, offsetBy: 10)]
        guard separator == "T" || separator == " " else { throw failure }
        var clock = text.dropFirst(11)
        if let dot = clock.firstIndex(of: ".") { clock = clock[..<dot] }
        guard let time = LocalTime(iso: clock) else { throw failure }
        return (date, time)
    }

    /// A stable key for a venue the source gives no id: its name and city, and the area
    /// they are in as the source names it (a country, lower-cased; a metro area's id).
    static func derivedVenueKey(name: String, city: String?, area: String?) -> String {
        var hasher = ContentHasher()
        hasher.combine(name.lowercased())
        hasher.combine(city?.lowercased())
        hasher.combine(area)
        return "derived:" + hasher.hexDigest
    }

    /// The source id of an artist a source knows by name only (Bandsintown's lineups,
    /// a Ticketmaster attraction without an id).
    static func artistNameKey(_ name: String) -> String { "name:" + name.lowercased() }

    /// A title made from the bill and the venue, for a listing that has none.
    static func title(lineup: [PerformanceListing], venue: VenueListing?) -> String {
        let acts = lineup.map(\.artist.name).prefix(3).joined(separator: ", ")
        let place = venue.map { " at \($0.name)" } ?? ""
        return acts.isEmpty ? "Event\(place)" : acts + place
    }

    /// An on-sale date as a source gave it, when it is an ISO 8601 date or date and time
    /// that exists (`2027-02-14`, `2027-02-14T10:00:00Z`, `2027-02-14T10:00:00-05:00`).
    /// Text that is not such a date ("2027-02-30", "0000-00-00", "Sat, 30 Feb 2027
    /// 20:00:00") is dropped with a warning at `path`: the offer is kept without it.
    func onSale(_ text: String?, at path: String, warnings: inout [ListingWarning]) -> String? {
        guard let text = Self.clean(text) else { return nil }
        guard Self.isDateTime(text) else {
            warnings.append(Self.impossibleOnSale(text, locator: locator, at: path))
            return nil
        }
        return text
    }

    static func impossibleOnSale(_ text: String, locator: String, at position: String) -> ListingWarning {
        ListingWarning(
            locator: locator, position: position,
            message: "\"\(text)\" is not an ISO 8601 date that exists; the on-sale date is dropped, the offer kept")
    }

    /// `YYYY-MM-DD`, then optionally `T` or a space, `hh:mm[:ss[.fff]]` and an offset
    /// (`Z`, `±hh:mm`, `±hhmm`, `±hh`), every part in range.
    static func isDateTime(_ text: String) -> Bool {
        guard LocalDate(iso: text.prefix(10)) != nil else { return false }
        var rest = Substring(text.dropFirst(10))
        if rest.isEmpty { return true }
        guard rest.first == "T" || rest.first == " " else { return false }
        rest = rest.dropFirst()
        var clock = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ":") }
        rest = rest.dropFirst(clock.count)
        guard LocalTime(iso: clock) != nil else { return false }
        if rest.first == "." {
            let fraction = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(1 + fraction.count)
        }
        if rest.isEmpty || rest == "Z" { return true }
        guard rest.first == "+" || rest.first == "-" else { return false }
        let offset = Array(rest.dropFirst().utf8)
        let digits = offset.filter { $0 != UInt8(ascii: ":") }
        guard [2, 4].contains(digits.count), offset.count == digits.count || (offset.count == 5 && offset[2] == UInt8(ascii: ":")),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return false }
        let hours = Int(digits[0] - 48) * 10 + Int(digits[1] - 48)
        let minutes = digits.count == 4 ? Int(digits[2] - 48) * 10 + Int(digits[3] - 48) : 0
        return hours <= 14 && minutes <= 59
    }

    /// Trimmed text; nil when nothing is left.
    static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }
}
