import Foundation
import Geo
import Listings

/// Places every listing on the map before it reaches the catalog.
///
/// - A venue with coordinates is linked to its nearest gazetteer city, whose IANA zone
///   becomes the venue's when the source gives none. Coordinates within
///   ``cityCentreKilometres`` of the centre of the venue's own city are that city's, not
///   the venue's (some sources give a city's centre for venues they cannot place), so
///   they are flagged approximate as if geocoded here.
/// - A venue without coordinates is placed by its address and the page's evidence
///   (``VenuePlacement``): it gets its city's coordinate, flagged approximate, or, when
///   the evidence disagrees or is missing, a country and zone without a position and a
///   warning.
/// - A metro area is linked to the city of the same name in its country, else to the
///   city nearest its centre or its venue; a metro area without a centre gets its
///   linked city's.
/// - An event takes its venue's zone, and its UTC instant is computed from the local
///   date and time when the source gave no offset; an event known only by its instant
///   (``EventStart/awaitsVenueZone``) gets the venue's clock.
public struct GeoEnrichment: Sendable {
    public let gazetteer: Gazetteer
    /// Name lookups scan the gazetteer; the same few metro areas and cities recur on
    /// every page of a crawl, so their answers are kept for the life of the enrichment.
    private let cityByName = MemoCache<String, City?>()
    /// A venue's coordinate recurs on every page that lists one of its shows; the nearest
    /// city search scans grid cells of hundreds of cities in dense regions.
    private let placeNearest = MemoCache<Coordinate, PlaceLink?>()
    private let metroPlaces = MemoCache<Coordinate, PlaceLink?>()
    private let citiesByName = MemoCache<String, [City]>()
    /// Zones by country, read from the gazetteer on first need.
    private let zoneTables = MemoCache<Int, ZoneTable>(limit: 2)
    /// How far a metro area reaches from its centre (the catalog's assignment radius).
    static let metroReachKilometres = 50.0

    public init(gazetteer: Gazetteer) {
        self.gazetteer = gazetteer
    }

    public func enrich(_ page: ListingPage) -> ListingPage {
        var page = page
        var venues: [String: VenueListing] = [:]
        var metros: [String: MetroAreaListing] = [:]
        var evidence: VenuePlacement.PageEvidence?
        var placementWarnings: [ListingWarning] = []
        func enriched(_ venue: VenueListing, eventZone: String? = nil) -> VenueListing {
            if let done = venues[venue.sourceID], done.name == venue.name { return done }
            var result: VenueListing
            if venue.coordinate == nil {
                let placement = self.placement
                if evidence == nil {
                    let votes = (page.events.compactMap(\.venue) + page.venues).compactMap { venue in
                        VenuePlacement.addressCountry(venue) ?? venue.coordinate.flatMap { nearestPlace(to: $0)?.countryCode }
                    }
                    evidence = placement.evidence(for: page, votes: votes)
                }
                let outcome = placement.place(venue, eventZone: eventZone, evidence: evidence!)
                if let warning = outcome.warning { placementWarnings.append(ListingWarning(locator: page.locator, message: warning)) }
                result = enrich(outcome.venue, metros: &metros)
            } else {
                result = enrich(venue, metros: &metros)
            }
            if let metro = result.metroArea { result.metroArea = metros[metro.sourceID] ?? metro }
            venues[venue.sourceID] = result
            return result
        }
        page.metroAreas = page.metroAreas.map { enrich($0, near: nil, cache: &metros) }
        page.venues = page.venues.map { enriched($0) }
        page.events = page.events.map { event in
            var event = event
            let statedZone = event.start.awaitsVenueZone ? nil : event.start.timeZone
            guard let venue = event.venue.map({ enriched($0, eventZone: statedZone) }) else { return event }
            event.venue = venue
            // A calendar's own zone beats that of a city too far away to say (Lord Howe
            // Island's nearest gazetteer city keeps Sydney's clock).
            let far = venue.coordinate.flatMap { point in venue.place.map { haversineDistance(from: point, to: $0.coordinate) > Self.nearestCityReachKilometres } } ?? false
            Self.settle(&event.start, zone: far && event.start.timeZone != nil ? event.start.timeZone : venue.timeZone)
            return event
        }
        Self.placeLikeNamesakes(&page.events)
        if page.events.contains(where: { $0.start.timeZone == nil || $0.start.awaitsVenueZone }) {
            let placement = self.placement
            let zone = Self.pageZone(page, evidence: evidence ?? placement.evidence(for: page, votes: []), zones: placement.zones)
            var unplaced = 0
            page.events = page.events.map { event in
                var event = event
                Self.settle(&event.start, zone: event.start.timeZone ?? zone)
                if event.start.awaitsVenueZone { unplaced += 1 }
                return event
            }
            if unplaced > 0 {
                placementWarnings.append(ListingWarning(
                    locator: page.locator,
                    message: "\(unplaced) event(s) give only a UTC time and no place whose zone is known: their times are UTC, not the venue's clock"))
            }
        }
        page.warnings += placementWarnings
        return page
    }

    /// The start on the venue's clock once its zone is known: an instant the source gave
    /// in another zone is moved to it; a wall clock gets its instant.
    static func settle(_ start: inout EventStart, zone: String?) {
        if start.awaitsVenueZone, let zone, let utc = start.utc, let settled = EventStart(instant: utc, zone: zone) {
            start = settled
            return
        }
        if start.timeZone == nil { start.timeZone = zone }
        guard let time = start.localTime, let zone = start.timeZone else { return }
        if start.utc == nil {
            start = EventStart(localDate: start.localDate, localTime: time, zone: zone)
            return
        }
        guard EventStart.clockChanges(near: start.localDate, in: zone) else { return }
        let settled = EventStart(localDate: start.localDate, localTime: time, zone: zone)
        if settled.localTime != time || settled.localDate != start.localDate, let utc = start.utc,
            let clock = UTCInstant.wallClock(of: utc, in: zone)
        {
            // A wall clock the zone skips (02:30 on a spring-forward night), with its instant:
            // the clock the instant shows (RFC 5545).
            start.localDate = clock.date
            start.localTime = clock.time
        }
    }

    /// How far a venue may be from its nearest gazetteer city for that city's zone to
    /// outweigh the zone its calendar states.
    static let nearestCityReachKilometres = 100.0

    /// A venue a page names without an address ("Burg Wilhelmstein") is where the page's
    /// venue of that name with an address is ("Burg Wilhelmstein, 52146 Würselen").
    static func placeLikeNamesakes(_ events: inout [EventListing]) {
        guard events.contains(where: { $0.venue.map { $0.place == nil && $0.city == nil } ?? false }) else { return }
        var placed: [String: VenueListing] = [:]
        for event in events {
            if let venue = event.venue, venue.place != nil, placed[NameFolding.fold(venue.name)] == nil {
                placed[NameFolding.fold(venue.name)] = venue
            }
        }
        for index in events.indices {
            guard let venue = events[index].venue, venue.place == nil, venue.city == nil, venue.coordinate == nil,
                let namesake = placed[NameFolding.fold(venue.name)]
            else { continue }
            events[index].venue?.city = namesake.city
            events[index].venue?.country = namesake.country
            events[index].venue?.coordinate = namesake.coordinate
            events[index].venue?.coordinateIsApproximate = true
            events[index].venue?.place = namesake.place
            events[index].venue?.timeZone = namesake.timeZone
            settle(&events[index].start, zone: namesake.timeZone)
        }
    }

    /// The zone of a page's events that no venue places: the operator's or the calendar's,
    /// else the one zone its placed venues share (two at least, two thirds of them), else
    /// the one zone of the country the evidence names.
    static func pageZone(_ page: ListingPage, evidence: VenuePlacement.PageEvidence, zones: ZoneTable) -> String? {
        if let zone = evidence.zone { return zone.name }
        let placed = page.events.compactMap { $0.venue?.timeZone }
        let counts = Dictionary(placed.map { ($0, 1) }, uniquingKeysWith: +)
        if let (zone, count) = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), count >= 2, count * 3 >= placed.count * 2 {
            return zone
        }
        return evidence.countries.first.flatMap { zones.onlyZone(of: $0.code) }
    }

    private var placement: VenuePlacement {
        VenuePlacement(
            gazetteer: gazetteer, zones: zoneTables.value(for: 0) { gazetteer.zoneTable() }, citiesByName: citiesByName)
    }

    private func enrich(_ venue: VenueListing, metros: inout [String: MetroAreaListing]) -> VenueListing {
        var venue = venue
        if let coordinate = venue.coordinate {
            venue.place = nearestPlace(to: coordinate)
            if !venue.coordinateIsApproximate, let cityName = venue.city,
                let city = bestCity(named: cityName, country: venue.country ?? venue.metroArea?.country),
                haversineDistance(from: coordinate, to: city.coordinate) <= Self.cityCentreKilometres
            {
                venue.coordinateIsApproximate = true
            }
        }
        if venue.timeZone == nil { venue.timeZone = venue.place?.timeZone }
        if venue.metroArea == nil, let coordinate = venue.coordinate {
            venue.metroPlace = metroPlaces.value(for: coordinate) {
                gazetteer.largestCity(within: Self.metroReachKilometres, of: coordinate).map(Self.link)
            } ?? venue.place
        }
        if let metro = venue.metroArea {
            venue.metroArea = enrich(metro, near: venue.place, cache: &metros)
        }
        return venue
    }

    private func enrich(_ metro: MetroAreaListing, near fallback: PlaceLink?, cache: inout [String: MetroAreaListing])
        -> MetroAreaListing
    {
        if let done = cache[metro.sourceID], done.place != nil || fallback == nil { return done }
        var metro = metro
        if metro.place == nil {
            if let city = bestCity(named: Self.plainName(metro.name), country: metro.country) {
                metro.place = Self.link(city)
            } else if let coordinate = metro.coordinate {
                metro.place = nearestPlace(to: coordinate)
            } else {
                metro.place = fallback
                metro.placeIsGuessed = fallback != nil
            }
        }
        if metro.coordinate == nil { metro.coordinate = metro.place?.coordinate }
        cache[metro.sourceID] = metro
        return metro
    }

    private func nearestPlace(to coordinate: Coordinate) -> PlaceLink? {
        placeNearest.value(for: coordinate) {
            gazetteer.nearestCity(to: coordinate, withAlternateNames: false).map(Self.link)
        }
    }

    /// The gazetteer's city of that name, remembered (``Gazetteer/bestCity(named:country:region:)``).
    private func bestCity(named name: String, country: String?, region: String? = nil) -> City? {
        cityByName.value(for: name + "\u{1F}" + (country ?? "") + "\u{1F}" + (region ?? "")) {
            gazetteer.bestCity(named: name, country: country, region: region)
        }
    }

    /// How close to a city's gazetteer centre a venue's coordinate must be to count as
    /// that centre: geocoders and sources place a city's centre differently (Kraków's
    /// centre is the main square to one, the old town's middle to another), often by
    /// more than a few hundred metres.
    static let cityCentreKilometres = 1.0

    /// "Los Angeles (LA)" → "Los Angeles".
    private static func plainName(_ name: String) -> String {
        guard let open = name.firstIndex(of: "(") else { return name }
        return name[..<open].trimmingSpaces()
    }

    static func link(_ city: City) -> PlaceLink {
        PlaceLink(
            geonameID: city.geonameID, name: city.name, countryCode: city.countryCode, coordinate: city.coordinate,
            timeZone: city.timeZone)
    }
}
