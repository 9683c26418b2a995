/// A point on the Earth's surface in WGS 84 degrees.
///
/// Construction does not validate, so sources can be read first and judged after:
/// call ``isValid`` (or ``validated(latitude:longitude:)``) before trusting one.
public struct Coordinate: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether the latitude is within -90...90 and the longitude within -180...180.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite
            && (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude)
    }

    /// A coordinate, or nil when either value is out of range.
    public static func validated(latitude: Double, longitude: Double) -> Coordinate? {
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        return coordinate.isValid ? coordinate : nil
    }
}

extension Coordinate: CustomStringConvertible {
    public var description: String {
        "\(Self.format(latitude)),\(Self.format(longitude))"
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 100_000).rounded() / 100_000
        return String(rounded)
    }
}
