import Foundation

/// A latitude/longitude rectangle that contains every point within a radius of a centre.
///
/// Near the antimeridian the box wraps: `minLongitude > maxLongitude` means it spans
/// ±180°, and ``longitudeRanges`` splits it into the two plain ranges an index can use.
/// Near a pole the box widens to every longitude, because the circle contains the pole
/// (or comes so close that meridians converge).
public struct BoundingBox: Sendable, Hashable {
    public var minLatitude: Double
    public var maxLatitude: Double
    public var minLongitude: Double
    public var maxLongitude: Double

    public init(minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.maxLatitude = maxLatitude
        self.minLongitude = minLongitude
        self.maxLongitude = maxLongitude
    }

    /// The smallest box containing every point within `radiusKilometres` of `center`
    /// (Jan Matuschek's method, "Finding Points Within a Distance of a Latitude/Longitude").
    public init(around center: Coordinate, radiusKilometres: Double) {
        let angular = radiusKilometres / meanEarthRadiusKilometres
        let lat = center.latitude * .pi / 180
        let lng = center.longitude * .pi / 180
        var minLat = lat - angular
        var maxLat = lat + angular
        var minLng: Double
        var maxLng: Double
        if minLat > -.pi / 2, maxLat < .pi / 2 {
            let Δλ = asin(min(1, sin(angular) / cos(lat)))
            minLng = lng - Δλ
            maxLng = lng + Δλ
            if minLng < -.pi { minLng += 2 * .pi }
            if maxLng > .pi { maxLng -= 2 * .pi }
        } else {
            minLat = max(minLat, -.pi / 2)
            maxLat = min(maxLat, .pi / 2)
            minLng = -.pi
            maxLng = .pi
        }
        self.init(
            minLatitude: minLat * 180 / .pi, maxLatitude: maxLat * 180 / .pi,
            minLongitude: minLng * 180 / .pi, maxLongitude: maxLng * 180 / .pi)
    }

    /// Whether the box spans the antimeridian.
    public var crossesAntimeridian: Bool { minLongitude > maxLongitude }

    /// One or two plain longitude ranges (two when the box crosses the antimeridian).
    public var longitudeRanges: [ClosedRange<Double>] {
        crossesAntimeridian
            ? [minLongitude...180, -180...maxLongitude]
            : [minLongitude...maxLongitude]
    }

    public func contains(_ point: Coordinate) -> Bool {
        guard (minLatitude...maxLatitude).contains(point.latitude) else { return false }
        return longitudeRanges.contains { $0.contains(point.longitude) }
    }
}
