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
