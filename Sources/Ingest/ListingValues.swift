import Foundation
import Geo
import Listings

/// Value checks shared by the ingesters written after Songkick and Last.fm: every
/// failure names the page and the JSON path, so the operator can find the value.
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

    /// A stable key for a venue the source gives no id: name, city and country.
    static func derivedVenueKey(name: String, city: String?, country: String?) -> String {
        var hasher = ContentHasher()
        hasher.combine(name.lowercased())
        hasher.combine(city?.lowercased())
        hasher.combine(country?.lowercased())
        return "derived:" + hasher.hexDigest
    }

    static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }
}
