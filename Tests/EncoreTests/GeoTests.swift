import Foundation
import Geo
import Testing

struct DistanceTests {
    let madrid = Coordinate(latitude: 40.4168, longitude: -3.7038)
    let bilbao = Coordinate(latitude: 43.2630, longitude: -2.9350)
    let london = Coordinate(latitude: 51.5074, longitude: -0.1278)
    let newYork = Coordinate(latitude: 40.7128, longitude: -74.0060)
    let tokyo = Coordinate(latitude: 35.6762, longitude: 139.6503)
    let sanFrancisco = Coordinate(latitude: 37.7749, longitude: -122.4194)

    /// Published great-circle distances between city centres, within 0.5 %.
    @Test(arguments: [
        ("Madrid–Bilbao", 0, 323.0),
        ("London–New York", 1, 5_570.0),
        ("Tokyo–San Francisco, across the antimeridian", 2, 8_270.0),
    ])
    func matchesPublishedGreatCircleDistances(name: String, pair: Int, published: Double) {
        let pairs = [(madrid, bilbao), (london, newYork), (tokyo, sanFrancisco)]
        let (a, b) = pairs[pair]
        let km = haversineDistance(from: a, to: b)
        #expect(abs(km - published) / published < 0.005, "\(name): \(km) km")
    }

    @Test func isSymmetricAndZeroForTheSamePoint() {
        #expect(haversineDistance(from: madrid, to: madrid) == 0)
        #expect(abs(haversineDistance(from: madrid, to: bilbao) - haversineDistance(from: bilbao, to: madrid)) < 1e-9)
    }

    @Test func parsesDistancesAsPeopleTypeThem() {
        #expect(Distance(parsing: "50km") == Distance(50, .kilometres))
        #expect(Distance(parsing: "30mi")?.kilometres == 30 * 1.609344)
        #expect(Distance(parsing: "12.5 km")?.value == 12.5)
        #expect(Distance(parsing: "-5km") == nil)
        #expect(Distance(parsing: "0") == nil)
        #expect(Distance(parsing: "far") == nil)
    }
}

struct BoundingBoxTests {
    @Test func containsTheWholeCircleAwayFromEdgeCases() {
        let centre = Coordinate(latitude: 43.263, longitude: -2.935)
        let box = BoundingBox(around: centre, radiusKilometres: 30)
        #expect(!box.crossesAntimeridian)
        // Points 29.9 km due north, south, east and west are inside.
        for bearing in stride(from: 0.0, to: 360.0, by: 15.0) {
            let point = destination(from: centre, kilometres: 29.9, bearingDegrees: bearing)
            #expect(box.contains(point), "bearing \(bearing)")
        }
    }

    @Test func spansTheAntimeridianAroundTaveuni() {
        // Taveuni, Fiji, lies across the 180° meridian.
        let taveuni = Coordinate(latitude: -16.85, longitude: 179.97)
        let box = BoundingBox(around: taveuni, radiusKilometres: 100)
        #expect(box.crossesAntimeridian)
        #expect(box.longitudeRanges.count == 2)
        #expect(box.contains(Coordinate(latitude: -16.85, longitude: -179.5)))
        #expect(box.contains(Coordinate(latitude: -16.85, longitude: 179.5)))
        #expect(!box.contains(Coordinate(latitude: -16.85, longitude: 0)))
    }

    @Test func coversEveryLongitudeNearAPole() {
        let nearPole = Coordinate(latitude: 89.5, longitude: 10)
        let box = BoundingBox(around: nearPole, radiusKilometres: 100)
        #expect(box.maxLatitude == 90)
        #expect(box.contains(Coordinate(latitude: 89.5, longitude: -170)))
    }

    /// The point reached by travelling `kilometres` along a great circle.
    private func destination(from start: Coordinate, kilometres: Double, bearingDegrees: Double) -> Coordinate {
        let δ = kilometres / meanEarthRadiusKilometres
        let θ = bearingDegrees * .pi / 180
        let φ1 = start.latitude * .pi / 180
        let λ1 = start.longitude * .pi / 180
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        return Coordinate(latitude: φ2 * 180 / .pi, longitude: λ2 * 180 / .pi)
    }
}

/// Venue names that may be one place (merged when also within 250 m) and names of
/// neighbouring rooms that share only their articles and prepositions.
struct VenueNameTests {
    @Test(arguments: [
        ("The Roundhouse", "Roundhouse"), ("Brixton Academy", "O2 Academy Brixton"), ("Le Bataclan", "Bataclan"),
        ("THE HOLLIS'S", "Hollis's"), ("Paradiso", "Paradisso"), ("Café de la Danse", "Cafe de la Danse"),
    ])
    func variantsOfOneNameAgree(_ a: String, _ b: String) {
        #expect(MatchKey.venueNamesAgree(a, b))
    }

    @Test(arguments: [
        ("La Taberna del Faro", "La Taberna del Trueno"), ("Théâtre de la Forge", "Le Bar de la Forge"),
        ("Roundhouse", "Jazz Cafe"),
    ])
    func neighboursSharingOnlyConnectingWordsDoNot(_ a: String, _ b: String) {
        #expect(!MatchKey.venueNamesAgree(a, b))
    }
}
