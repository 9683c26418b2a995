import Foundation

/// The mean Earth radius (IUGG), the sphere every distance in Encore is measured on.
public let meanEarthRadiusKilometres = 6_371.0088

/// Kilometres in one international mile.
public let kilometresPerMile = 1.609344

/// The great-circle distance between two points, in kilometres, on a sphere of radius
/// ``meanEarthRadiusKilometres``.
///
/// ```swift
/// let km = haversineDistance(from: madrid, to: bilbao)   // ≈ 320 km
/// ```
///
/// The haversine form stays accurate for short distances, where the spherical law of
/// cosines loses precision; the sphere itself is within 0.5 % of the ellipsoid.
public func haversineDistance(from a: Coordinate, to b: Coordinate) -> Double {
    let φ1 = a.latitude * .pi / 180
    let φ2 = b.latitude * .pi / 180
    let Δφ = (b.latitude - a.latitude) * .pi / 180
    let Δλ = (b.longitude - a.longitude) * .pi / 180
    let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
    return 2 * meanEarthRadiusKilometres * asin(min(1, sqrt(h)))
}

/// A distance with its unit, as people type it: `50km`, `30mi`, `12.5 km`.
public struct Distance: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Unit: String, Sendable, Codable { case kilometres = "km", miles = "mi" }

    public var value: Double
    public var unit: Unit

    public init(_ value: Double, _ unit: Unit) {
        self.value = value
        self.unit = unit
    }

    public var kilometres: Double { unit == .kilometres ? value : value * kilometresPerMile }

    public var description: String {
        let number = value == value.rounded() ? String(Int(value)) : String(value)
        return number + unit.rawValue
    }

    /// Parses `50km`, `50 km`, `30mi`, `30 miles`; a bare number is kilometres.
    /// Returns nil for anything else, zero, negative or non-finite values.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Unit)] = [
            ("kilometres", .kilometres), ("kilometers", .kilometres), ("km", .kilometres),
            ("miles", .miles), ("mile", .miles), ("mi", .miles),
        ]
        var numberPart = trimmed
        var unit = Unit.kilometres
        for (suffix, candidate) in units where trimmed.hasSuffix(suffix) {
            numberPart = String(trimmed.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            unit = candidate
            break
        }
        guard let value = Double(numberPart), value.isFinite, value > 0 else { return nil }
        self.init(value, unit)
    }
}
