/// How an event's place and zone read, said from what the catalog keeps: whether the
/// position is the source's or its city's centre, whose zone the start is on.
///
/// ```
/// city Atlanta, GA, US from the address (the city's centre); zone America/New_York, the venue's
/// no position: the address (Wacken, DE) names no city the gazetteer places; zone Europe/Berlin
/// ```
public enum PlaceExplanation {
    public static func of(_ event: EventDetail) -> String {
        let zone = event.start.timeZone
        guard let venue = event.venue else {
            return "no venue" + (zone.map { "; zone \($0), the listing's or its feed's" } ?? "; no zone: times as the source wrote them")
        }
        let place = [venue.city, venue.region, venue.country].compactMap { $0 }.joined(separator: ", ")
        var text: String
        if venue.latitude == nil {
            text = "no position: " + (place.isEmpty ? "the listing names no place" : "the address (\(place)) names no city the gazetteer places")
        } else if venue.coordinatesApproximate {
            text = (place.isEmpty ? "the city's centre" : "city \(place) from the address (the city's centre)")
        } else {
            text = "position from the source" + (place.isEmpty ? "" : " (\(place))")
        }
        switch (zone, venue.timeZone) {
        case (let zone?, let venueZone?) where zone == venueZone:
            text += "; zone \(zone), the venue's"
        case (let zone?, let venueZone?):
            text += "; zone \(zone) as the source states it (the venue's is \(venueZone))"
        case (let zone?, nil):
            text += "; zone \(zone) as the source or its feed states it"
        case (nil, _):
            text += "; no zone: times as the source wrote them"
        }
        return text
    }
}
