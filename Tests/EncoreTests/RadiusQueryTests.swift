import Catalog
import Geo
import Ingest
import Listings
import Testing

/// The R*Tree radius query must return exactly what a brute-force haversine scan does.
struct RadiusQueryTests {
    /// A random catalog of venues clustered around a few centres, including one that
    /// straddles the antimeridian and one near the North Pole. Some events have no
    /// start time, and one in eight lasts several days (so starts before a window it
    /// overlaps).
    func makeCatalog(seed: UInt64, venues: Int) throws -> CatalogDatabase {
        var random = SeededRandom(seed: seed)
        let centres = [
            Coordinate(latitude: 43.26, longitude: -2.93), Coordinate(latitude: -16.85, longitude: 179.97),
            Coordinate(latitude: 51.5, longitude: -0.12), Coordinate(latitude: 78.2, longitude: 15.6),
            Coordinate(latitude: -33.87, longitude: 151.21),
        ]
        let (catalog, _) = try TestSupport.makeCatalog()
        var page = ListingPage(source: .registered("test"), locator: "random")
        for index in 0..<venues {
            let centre = centres[index % centres.count]
            var longitude = centre.longitude + random.uniform(-1.5, 1.5)
            if longitude > 180 { longitude -= 360 }
            if longitude < -180 { longitude += 360 }
            let venue = VenueListing(
                sourceID: "v\(index)", name: "Venue \(index)",
                coordinate: Coordinate(latitude: min(89.9, centre.latitude + random.uniform(-1, 1)), longitude: longitude))
            let date = LocalDate(iso: "2027-01-01")!.adding(days: Int(random.uniform(0, 60)))
            let time = random.next() % 4 == 0 ? nil : LocalTime(iso: ["19:00:00", "20:30:00", "21:00:00"][Int(random.next() % 3)])
            let endDate = random.next() % 8 == 0 ? date.adding(days: 1 + Int(random.next() % 12)) : nil
            page.events.append(EventListing(
                sourceID: "e\(index)", title: "Event \(index)", start: EventStart(localDate: date, localTime: time),
                endDate: endDate, venue: venue))
        }
        _ = try catalog.apply(page)
        return catalog
    }

    @Test(arguments: [1, 2, 3])
    func returnsExactlyTheBruteForceSet(seed: UInt64) throws {
        let catalog = try makeCatalog(seed: seed, venues: 400)
        var random = SeededRandom(seed: seed * 7919)
        for _ in 0..<40 {
            let centre = Coordinate(latitude: random.uniform(-40, 85), longitude: random.uniform(-180, 180))
            let anchors = [
                centre, Coordinate(latitude: 43.26, longitude: -2.93), Coordinate(latitude: -16.85, longitude: -179.9),
                Coordinate(latitude: 78.5, longitude: 15),
            ]
            let point = anchors[Int(random.next() % UInt64(anchors.count))]
            let radius = random.uniform(1, 250)
            let indexed = try catalog.venueDistances(near: point, radiusKilometres: radius)
            let scanned = try catalog.venueDistancesByScan(near: point, radiusKilometres: radius)
            #expect(Set(indexed.keys) == Set(scanned.keys), "\(point) within \(radius) km")

            let window = DateWindow(from: LocalDate(iso: "2027-01-10")!, to: LocalDate(iso: "2027-02-10")!)!
            let events = try catalog.events(near: point, radiusKilometres: radius, window: window)
            let baseline = try catalog.eventsByScan(near: point, radiusKilometres: radius, window: window)
            #expect(events.map(\.event.id) == baseline.map(\.event.id))
            #expect(events.allSatisfy { $0.distanceKilometres <= radius })
            #expect(try catalog.eventCount(near: point, radiusKilometres: radius, window: window) == events.count)

            let order = random.next() % 2 == 0 ? NearbyOrder.date : .distance
            let limit = 1 + Int(random.next() % 7)
            let offset = Int(random.next() % 5)
            let page = try catalog.events(
                near: point, radiusKilometres: radius, window: window, order: order, limit: limit, offset: offset)
            let scannedPage = try catalog.eventsByScan(
                near: point, radiusKilometres: radius, window: window, order: order, limit: limit, offset: offset)
            let whole = try catalog.events(near: point, radiusKilometres: radius, window: window, order: order)
            #expect(page.map(\.event.id) == Array(whole.dropFirst(offset).prefix(limit)).map(\.event.id))
            #expect(scannedPage.map(\.event.id) == page.map(\.event.id))
        }
    }

    /// `near --bbox`: the R*Tree's box holds exactly the events a scan of every venue puts
    /// in it, across the antimeridian too.
    @Test(arguments: [4, 5])
    func aMapAreaHoldsExactlyWhatAScanFindsInIt(seed: UInt64) throws {
        let catalog = try makeCatalog(seed: seed, venues: 400)
        let window = DateWindow(from: LocalDate(iso: "2027-01-10")!, to: LocalDate(iso: "2027-02-10")!)!
        let everything = try catalog.eventsByScan(
            near: Coordinate(latitude: 0, longitude: 0), radiusKilometres: 20_100, window: window)
        var random = SeededRandom(seed: seed * 104_729)
        var crossed = 0
        for _ in 0..<40 {
            let anchor = [(43.26, -2.93), (-16.85, 179.97), (78.2, 15.6)][Int(random.next() % 3)]
            let south = anchor.0 - random.uniform(0, 1.2)
            let north = anchor.0 + random.uniform(0, 1.2)
            var west = anchor.1 - random.uniform(0, 1.5)
            var east = anchor.1 + random.uniform(0, 1.5)
            if west < -180 { west += 360 }
            if east > 180 { east -= 360 }
            let box = BoundingBox(minLatitude: south, maxLatitude: min(north, 90), minLongitude: west, maxLongitude: east)
            if box.crossesAntimeridian { crossed += 1 }
            let expected = everything.filter { box.contains($0.event.venue!.coordinate!) }.map(\.event.id)
            #expect(try catalog.events(in: box, window: window).map(\.id) == expected, "\(box)")
            #expect(try catalog.eventCount(in: box, window: window) == expected.count)
        }
        #expect(crossed > 0)
    }

    @Test func pagesConcatenateToTheWholeAnswer() throws {
        let catalog = try makeCatalog(seed: 11, venues: 300)
        let window = DateWindow(from: LocalDate(iso: "2027-01-05")!, to: LocalDate(iso: "2027-02-20")!)!
        let london = Coordinate(latitude: 51.5, longitude: -0.12)
        for order in NearbyOrder.allCases {
            let whole = try catalog.events(near: london, radiusKilometres: 120, window: window, order: order)
            #expect(whole.count > 20)
            var pages: [NearbyEvent] = []
            var offset = 0
            while true {
                let page = try catalog.events(
                    near: london, radiusKilometres: 120, window: window, order: order, limit: 7, offset: offset)
                if page.isEmpty { break }
                pages += page
                offset += page.count
            }
            #expect(pages.map(\.event.id) == whole.map(\.event.id))
        }
    }

    @Test func multiDayEventsOverlappingTheWindowAreFoundEvenWhenLengthenedLater() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        let bilbao = Coordinate(latitude: 43.26, longitude: -2.93)
        func festival(endingOn end: String) -> ListingPage {
            var page = ListingPage(source: .registered("test"), locator: "festival")
            page.events = [EventListing(
                sourceID: "f", title: "Long Festival", kind: .festival,
                start: EventStart(localDate: LocalDate(iso: "2027-03-01")!), endDate: LocalDate(iso: end),
                venue: VenueListing(
                    sourceID: "park", name: "Park", coordinate: bilbao,
                    metroArea: MetroAreaListing(sourceID: "28716", name: "Bilbao", coordinate: bilbao)))]
            return page
        }
        let lateMarch = DateWindow(from: LocalDate(iso: "2027-03-25")!, to: LocalDate(iso: "2027-03-31")!)!
        _ = try catalog.apply(festival(endingOn: "2027-03-03"))
        #expect(try catalog.events(near: bilbao, radiusKilometres: 5, window: lateMarch).isEmpty)
        // Re-listed as a month-long residency: the window's seek bound must widen with it.
        _ = try catalog.apply(festival(endingOn: "2027-03-28"))
        #expect(try catalog.events(near: bilbao, radiusKilometres: 5, window: lateMarch).map(\.event.title) == ["Long Festival"])
        #expect(try catalog.eventCount(near: bilbao, radiusKilometres: 5, window: lateMarch) == 1)
        let metros = try catalog.metroAreaIDs(geonameID: nil, center: bilbao, radiusKilometres: 50)
        #expect(metros.count == 1)
        #expect(try catalog.events(inMetroAreas: metros, window: lateMarch).map(\.title) == ["Long Festival"])
        #expect(try catalog.eventCount(inMetroAreas: metros, window: lateMarch) == 1)
    }

    /// Pages are read from the window's first days when those hold enough events; every
    /// page must still be the matching slice of the whole answer, dense or sparse.
    @Test func pagesFromADenseOpeningAndASparseTailMatchTheWholeAnswer() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        let bilbao = Coordinate(latitude: 43.26, longitude: -2.93)
        let metro = MetroAreaListing(sourceID: "28716", name: "Bilbao", coordinate: bilbao)
        var page = ListingPage(source: .registered("test"), locator: "dense")
        let opening = LocalDate(iso: "2027-05-01")!
        // 60 shows on the opening day, a festival that began two days before the window,
        // then one show every fifth day.
        for index in 0..<60 {
            page.events.append(EventListing(
                sourceID: "d\(index)", title: "Opening \(index)",
                start: EventStart(localDate: opening, localTime: LocalTime(iso: String(format: "%02d:00", 12 + index % 10))),
                venue: VenueListing(sourceID: "v\(index % 7)", name: "Hall \(index % 7)", coordinate: bilbao, metroArea: metro)))
        }
        page.events.append(EventListing(
            sourceID: "fest", title: "Festival", kind: .festival, start: EventStart(localDate: opening.adding(days: -2)),
            endDate: opening.adding(days: 1),
            venue: VenueListing(sourceID: "park", name: "Park", coordinate: bilbao, metroArea: metro)))
        for index in 0..<6 {
            page.events.append(EventListing(
                sourceID: "s\(index)", title: "Later \(index)", start: EventStart(localDate: opening.adding(days: 5 * (index + 1))),
                venue: VenueListing(sourceID: "v0", name: "Hall 0", coordinate: bilbao, metroArea: metro)))
        }
        _ = try catalog.apply(page)
        let window = DateWindow(from: opening, to: opening.adding(days: 40))!
        let whole = try catalog.events(near: bilbao, radiusKilometres: 10, window: window).map(\.event.id)
        #expect(whole.count == 67)
        #expect(try catalog.events(near: bilbao, radiusKilometres: 10, window: window, limit: 1).first?.event.title == "Festival")
        let metros = try catalog.metroAreaIDs(geonameID: nil, center: bilbao, radiusKilometres: 50)
        for (limit, offset) in [(50, 0), (10, 55), (5, 62), (50, 60), (3, 66), (10, 67)] {
            let expected = Array(whole.dropFirst(offset).prefix(limit))
            let nearPage = try catalog.events(near: bilbao, radiusKilometres: 10, window: window, limit: limit, offset: offset)
            #expect(nearPage.map(\.event.id) == expected, "near, \(limit) from \(offset)")
            let cityPage = try catalog.events(inMetroAreas: metros, window: window, limit: limit, offset: offset)
            #expect(cityPage.map(\.id) == expected, "city, \(limit) from \(offset)")
        }
    }

    @Test func sortsByDateOrByDistance() throws {
        let catalog = try makeCatalog(seed: 9, venues: 200)
        let window = DateWindow(from: LocalDate(iso: "2027-01-01")!, to: LocalDate(iso: "2027-03-31")!)!
        let bilbao = Coordinate(latitude: 43.26, longitude: -2.93)
        let byDate = try catalog.events(near: bilbao, radiusKilometres: 100, window: window)
        #expect(!byDate.isEmpty)
        #expect(byDate.map(\.event.start.localDate) == byDate.map(\.event.start.localDate).sorted())
        let byDistance = try catalog.events(near: bilbao, radiusKilometres: 100, window: window, order: .distance)
        #expect(byDistance.map(\.distanceKilometres) == byDistance.map(\.distanceKilometres).sorted())
        #expect(Set(byDistance.map(\.event.id)) == Set(byDate.map(\.event.id)))
    }

    @Test func venuesWithoutCoordinatesAreNotFoundByRadius() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        var page = ListingPage(source: .registered("test"), locator: "inline")
        page.events = [EventListing(
            sourceID: "1", title: "Somewhere", start: EventStart(localDate: LocalDate(iso: "2027-01-05")!),
            venue: VenueListing(sourceID: "v", name: "Nowhere Hall"))]
        _ = try catalog.apply(page)
        let window = DateWindow(from: LocalDate(iso: "2027-01-01")!, to: LocalDate(iso: "2027-01-31")!)!
        #expect(try catalog.events(near: Coordinate(latitude: 0, longitude: 0), radiusKilometres: 20_000, window: window).isEmpty)
    }

    @Test func aVenueIsFoundWhereItsLatestListingPutsItAndNowhereElse() throws {
        let (catalog, _) = try TestSupport.makeCatalog()
        let bilbao = Coordinate(latitude: 43.26, longitude: -2.93)
        let porto = Coordinate(latitude: 41.15, longitude: -8.61)
        func page(_ coordinate: Coordinate?) -> ListingPage {
            var page = ListingPage(source: .registered("test"), locator: "inline")
            page.events = [EventListing(
                sourceID: "1", title: "Touring Tent", start: EventStart(localDate: LocalDate(iso: "2027-01-05")!),
                venue: VenueListing(sourceID: "tent", name: "Big Tent", coordinate: coordinate))]
            return page
        }
        let window = DateWindow(from: LocalDate(iso: "2027-01-01")!, to: LocalDate(iso: "2027-01-31")!)!
        func found(near point: Coordinate) throws -> [String] {
            try catalog.events(near: point, radiusKilometres: 10, window: window).map(\.event.title)
        }
        _ = try catalog.apply(page(bilbao))
        #expect(try found(near: bilbao) == ["Touring Tent"])
        _ = try catalog.apply(page(porto))
        #expect(try found(near: porto) == ["Touring Tent"])
        #expect(try found(near: bilbao).isEmpty)
    }
}
