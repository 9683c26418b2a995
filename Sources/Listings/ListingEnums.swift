/// Whether an event is going ahead, as the source last said.
public enum EventStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case scheduled, cancelled, postponed, rescheduled
}

/// What kind of event a listing describes.
public enum EventKind: String, Sendable, Hashable, Codable, CaseIterable {
    case concert, festival
}

/// An act's place on the bill.
public enum Billing: String, Sendable, Hashable, Codable, CaseIterable {
    case headline, support
}

/// The kinds of catalog rows a source record can stand behind.
public enum EntityKind: String, Sendable, Hashable, Codable, CaseIterable {
    case event, artist, venue
    case metroArea = "metro_area"
}
