import Foundation

/// A WGS 84 point in degrees.
///
/// The module depends on Foundation only, so it cannot share the app's `Geo.Coordinate`;
/// this is the minimal equivalent the world model needs.
public struct SampleCoordinate: Sendable, Hashable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension SampleCoordinate {
    /// The point `metres` away towards `bearing` (radians from north), on a flat earth:
    /// exact enough for the few hundred metres sources disagree by.
    func moved(metres: Double, bearing: Double) -> SampleCoordinate {
        let metresPerDegree = 111_320.0
        let movedLatitude = self.latitude + metres * cos(bearing) / metresPerDegree
        var longitude = self.longitude + metres * sin(bearing) / (metresPerDegree * cos(self.latitude * .pi / 180))
        if longitude >= 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return SampleCoordinate(latitude: movedLatitude, longitude: longitude)
    }
}
