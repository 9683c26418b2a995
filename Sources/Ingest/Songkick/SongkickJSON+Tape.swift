import Listings

/// Reading ``SongkickJSON`` from a ``JSONTape``: the same values `JSONDecoder` gives,
/// field for field, or ``JSONTapeMiss`` for anything else (a test holds the two to each
/// other on every sample and recorded response).
extension SongkickJSON.Envelope {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        guard let page = try value.member("resultsPage") else { throw JSONTapeMiss() }
        resultsPage = try SongkickJSON.ResultsPage(tape: page)
    }
}

extension SongkickJSON.ResultsPage {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        guard let status = try value.text("status") else { throw JSONTapeMiss() }
        self.init(
            status: status,
            results: try value.object("results") { v throws(JSONTapeMiss) in try SongkickJSON.Results(tape: v) },
            page: try value.int("page"), perPage: try value.int("perPage"), totalEntries: try value.int("totalEntries"),
            error: try value.object("error") { v throws(JSONTapeMiss) in SongkickJSON.APIError(message: try v.text("message")) })
    }
}

extension SongkickJSON.Results {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            event: try value.oneOrMany("event") { v throws(JSONTapeMiss) in try SongkickJSON.Event(tape: v) },
            artist: try value.oneOrMany("artist") { v throws(JSONTapeMiss) in try SongkickJSON.Artist(tape: v) },
            location: try value.array("location") { v throws(JSONTapeMiss) in try SongkickJSON.Location(tape: v) },
            venue: try value.oneOrMany("venue") { v throws(JSONTapeMiss) in try SongkickJSON.Venue(tape: v) })
    }
}

extension SongkickJSON.Event {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            id: try value.flexibleID("id"), type: try value.text("type"), displayName: try value.text("displayName"),
            uri: try value.text("uri"), status: try value.text("status"), popularity: try value.flexibleDouble("popularity"),
            start: try value.object("start") { v throws(JSONTapeMiss) in try SongkickJSON.Moment(tape: v) },
            end: try value.object("end") { v throws(JSONTapeMiss) in try SongkickJSON.Moment(tape: v) },
            performance: try value.array("performance") { v throws(JSONTapeMiss) in try SongkickJSON.Performance(tape: v) },
            ageRestriction: try value.text("ageRestriction"),
            venue: try value.object("venue") { v throws(JSONTapeMiss) in try SongkickJSON.Venue(tape: v) },
            location: try value.object("location") { v throws(JSONTapeMiss) in
                SongkickJSON.EventLocation(
                    city: try v.text("city"), lat: try v.flexibleDouble("lat"), lng: try v.flexibleDouble("lng"))
            })
    }
}

extension SongkickJSON.Moment {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(date: try value.text("date"), time: try value.text("time"), datetime: try value.text("datetime"))
    }
}

extension SongkickJSON.Performance {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            id: try value.flexibleID("id"), billing: try value.text("billing"), billingIndex: try value.int("billingIndex"),
            displayName: try value.text("displayName"),
            artist: try value.object("artist") { v throws(JSONTapeMiss) in try SongkickJSON.Artist(tape: v) })
    }
}

extension SongkickJSON.Artist {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            id: try value.flexibleID("id"), displayName: try value.text("displayName"), uri: try value.text("uri"),
            identifier: try value.array("identifier") { v throws(JSONTapeMiss) in
                SongkickJSON.Identifier(mbid: try v.text("mbid"))
            },
            onTourUntil: try value.text("onTourUntil"))
    }
}

extension SongkickJSON.Venue {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            id: try value.flexibleID("id"), displayName: try value.text("displayName"), uri: try value.text("uri"),
            lat: try value.flexibleDouble("lat"), lng: try value.flexibleDouble("lng"),
            metroArea: try value.object("metroArea") { v throws(JSONTapeMiss) in try SongkickJSON.MetroArea(tape: v) },
            city: try value.object("city") { v throws(JSONTapeMiss) in try SongkickJSON.City(tape: v) },
            street: try value.text("street"), zip: try value.text("zip"), website: try value.text("website"),
            capacity: try value.int("capacity"))
    }
}

extension SongkickJSON.MetroArea {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            id: try value.flexibleID("id"), displayName: try value.text("displayName"), uri: try value.text("uri"),
            country: try value.named("country"), state: try value.named("state"),
            lat: try value.flexibleDouble("lat"), lng: try value.flexibleDouble("lng"))
    }
}

extension SongkickJSON.City {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            id: try value.flexibleID("id"), displayName: try value.text("displayName"),
            country: try value.named("country"), state: try value.named("state"),
            lat: try value.flexibleDouble("lat"), lng: try value.flexibleDouble("lng"))
    }
}

extension SongkickJSON.Location {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            city: try value.object("city") { v throws(JSONTapeMiss) in try SongkickJSON.City(tape: v) },
            metroArea: try value.object("metroArea") { v throws(JSONTapeMiss) in try SongkickJSON.MetroArea(tape: v) })
    }
}

extension JSONTapeValue {
    fileprivate func named(_ key: StaticString) throws(JSONTapeMiss) -> SongkickJSON.Named? {
        try object(key) { v throws(JSONTapeMiss) in SongkickJSON.Named(displayName: try v.text("displayName")) }
    }
}
