/// Reading ``SongkickJSON`` from a page's bytes: Songkick JSON's only decoder, a hand
/// reader because `JSONDecoder` made a first bulk load of Songkick pages markedly slower
/// (BENCHMARKS.md). Each type reads the members it declares, in any order, and skips
/// the rest; null reads as nil.
extension SongkickJSON.Envelope {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self {
        var resultsPage: SongkickJSON.ResultsPage?
        let isObject = try reader.members { reader, key throws(JSONReader.Failure) in
            switch key {
            case "resultsPage": resultsPage = try SongkickJSON.ResultsPage.read(&reader)
            default: try reader.skipValue()
            }
        }
        guard isObject else { throw .init(.unexpectedShape("expected an object, found null"), at: 0) }
        guard let resultsPage else { throw .missingKey("resultsPage") }
        return Self(resultsPage: resultsPage)
    }
}

extension SongkickJSON.ResultsPage {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self? {
        var status: String?
        var results: SongkickJSON.Results?
        var page: Int?
        var perPage: Int?
        var totalEntries: Int?
        var error: SongkickJSON.APIError?
        guard
            try reader.members({ reader, key throws(JSONReader.Failure) in
                switch key {
                case "status": status = try reader.requiredString()
                case "results": results = try SongkickJSON.Results.read(&reader)
                case "page": page = try reader.int()
                case "perPage": perPage = try reader.int()
                case "totalEntries": totalEntries = try reader.int()
                case "error":
                    var message: String?
                    if try reader.members({ reader, key throws(JSONReader.Failure) in
                        switch key {
                        case "message": message = try reader.string()
                        default: try reader.skipValue()
                        }
                    }) {
                        error = SongkickJSON.APIError(message: message)
                    }
                default: try reader.skipValue()
                }
            })
        else { return nil }
        guard let status else { throw .missingKey("status") }
        return Self(status: status, results: results, page: page, perPage: perPage, totalEntries: totalEntries, error: error)
    }
}

extension SongkickJSON.Results {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self? {
        var event: OneOrMany<SongkickJSON.Event>?
        var artist: OneOrMany<SongkickJSON.Artist>?
        var location: [SongkickJSON.Location]?
        var venue: OneOrMany<SongkickJSON.Venue>?
        guard
            try reader.members({ reader, key throws(JSONReader.Failure) in
                switch key {
                case "event": event = try reader.oneOrMany(SongkickJSON.Event.read)
                case "artist": artist = try reader.oneOrMany(SongkickJSON.Artist.read)
                case "location": location = try reader.list(SongkickJSON.Location.read)
                case "venue": venue = try reader.oneOrMany(SongkickJSON.Venue.read)
                default: try reader.skipValue()
                }
            })
        else { return nil }
        return Self(event: event, artist: artist, location: location, venue: venue)
    }
}

extension SongkickJSON.Event {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self? {
        var id: FlexibleID?
        var type: String?
        var displayName: String?
        var uri: String?
        var status: String?
        var popularity: FlexibleDouble?
        var start: SongkickJSON.Moment?
        var end: SongkickJSON.Moment?
        var performance: [SongkickJSON.Performance]?
        var ageRestriction: String?
        var venue: SongkickJSON.Venue?
        var location: SongkickJSON.EventLocation?
        guard
            try reader.members({ reader, key throws(JSONReader.Failure) in
                switch key {
                case "id": id = try reader.flexibleID()
                case "type": type = try reader.string()
                case "displayName": displayName = try reader.string()
                case "uri": uri = try reader.string()
                case "status": status = try reader.string()
                case "popularity": popularity = try reader.flexibleDouble()
                case "start": start = try SongkickJSON.Moment.read(&reader)
                case "end": end = try SongkickJSON.Moment.read(&reader)
                case "performance": performance = try reader.list(SongkickJSON.Performance.read)
                case "ageRestriction": ageRestriction = try reader.string()
                case "venue": venue = try SongkickJSON.Venue.read(&reader)
                case "location": location = try SongkickJSON.EventLocation.read(&reader)
                default: try reader.skipValue()
                }
            })
        else { return nil }
        return Self(
            id: id, type: type, displayName: displayName, uri: uri, status: status, popularity: popularity, start: start,
            end: end, performance: performance, ageRestriction: ageRestriction, venue: venue, location: location)
    }
}

extension SongkickJSON.Moment {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self? {
        var date: String?
        var time: String?
        var datetime: String?
        guard
            try reader.members({ reader, key throws(JSONReader.Failure) in
                switch key {
                case "date": date = try reader.string()
                case "time": time = try reader.string()
                case "datetime": datetime = try reader.string()
                default: try reader.skipValue()
                }
            })
        else { return nil }
        return Self(date: date, time: time, datetime: datetime)
    }
}

extension SongkickJSON.Performance {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self? {
        var billing: String?
        var billingIndex: Int?
        var artist: SongkickJSON.Artist?
        guard
            try reader.members({ reader, key throws(JSONReader.Failure) in
                switch key {
                case "billing": billing = try reader.string()
                case "billingIndex": billingIndex = try reader.int()
                case "artist": artist = try SongkickJSON.Artist.read(&reader)
                default: try reader.skipValue()
                }
            })
        else { return nil }
        return Self(billing: billing, billingIndex: billingIndex, artist: artist)
    }
}

extension SongkickJSON.Artist {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self? {
        var id: FlexibleID?
        var displayName: String?
        var uri: String?
        var identifier: [SongkickJSON.Identifier]?
        var onTourUntil: String?
        guard
            try reader.members({ reader, key throws(JSONReader.Failure) in
                switch key {
                case "id": id = try reader.flexibleID()
                case "displayName": displayName = try reader.string()
                case "uri": uri = try reader.string()
                case "identifier":
                    identifier = try reader.list { reader throws(JSONReader.Failure) in
                        var mbid: String?
                        let isObject = try reader.members { reader, key throws(JSONReader.Failure) in
                            switch key {
                            case "mbid": mbid = try reader.string()
                            default: try reader.skipValue()
                            }
                        }
                        return isObject ? SongkickJSON.Identifier(mbid: mbid) : nil
                    }
                case "onTourUntil": onTourUntil = try reader.string()
                default: try reader.skipValue()
                }
            })
        else { return nil }
        return Self(id: id, displayName: displayName, uri: uri, identifier: identifier, onTourUntil: onTourUntil)
    }
}

extension SongkickJSON.Venue {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self? {
        var id: FlexibleID?
        var displayName: String?
        var uri: String?
        var lat: FlexibleDouble?
        var lng: FlexibleDouble?
        var metroArea: SongkickJSON.MetroArea?
        var city: SongkickJSON.City?
        var street: String?
        var zip: String?
        var website: String?
        var capacity: Int?
        guard
            try reader.members({ reader, key throws(JSONReader.Failure) in
                switch key {
                case "id": id = try reader.flexibleID()
                case "displayName": displayName = try reader.string()
                case "uri": uri = try reader.string()
                case "lat": lat = try reader.flexibleDouble()
                case "lng": lng = try reader.flexibleDouble()
                case "metroArea": metroArea = try SongkickJSON.MetroArea.read(&reader)
                case "city": city = try SongkickJSON.City.read(&reader)
                case "street": street = try reader.string()
                case "zip": zip = try reader.string()
                case "website": website = try reader.string()
                case "capacity": capacity = try reader.int()
                default: try reader.skipValue()
                }
            })
        else { return nil }
        return Self(
            id: id, displayName: displayName, uri: uri, lat: lat, lng: lng, metroArea: metroArea, city: city,
            street: street, zip: zip, website: website, capacity: capacity)
    }
}

extension SongkickJSON.MetroArea {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self? {
        var place = SongkickJSON.Place()
        guard try place.read(&reader) else { return nil }
        return Self(
            id: place.id, displayName: place.displayName, uri: place.uri, country: place.country, state: place.state,
            lat: place.lat, lng: place.lng)
    }
}

extension SongkickJSON.City {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self? {
        var place = SongkickJSON.Place()
        guard try place.read(&reader) else { return nil }
        return Self(
            id: place.id, displayName: place.displayName, country: place.country, state: place.state, lat: place.lat,
            lng: place.lng)
    }
}

extension SongkickJSON {
    /// The members a metro area and a city share (a city has no `uri`).
    fileprivate struct Place {
        var id: FlexibleID?
        var displayName: String?
        var uri: String?
        var country: Named?
        var state: Named?
        var lat: FlexibleDouble?
        var lng: FlexibleDouble?

        mutating func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Bool {
            try reader.members { reader, key throws(JSONReader.Failure) in
                switch key {
                case "id": id = try reader.flexibleID()
                case "displayName": displayName = try reader.string()
                case "uri": uri = try reader.string()
                case "country": country = try Named.read(&reader)
                case "state": state = try Named.read(&reader)
                case "lat": lat = try reader.flexibleDouble()
                case "lng": lng = try reader.flexibleDouble()
                default: try reader.skipValue()
                }
            }
        }
    }
}

extension SongkickJSON.Named {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self? {
        var displayName: String?
        guard
            try reader.members({ reader, key throws(JSONReader.Failure) in
                switch key {
                case "displayName": displayName = try reader.string()
                default: try reader.skipValue()
                }
            })
        else { return nil }
        return Self(displayName: displayName)
    }
}

extension SongkickJSON.EventLocation {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self? {
        var city: String?
        var lat: FlexibleDouble?
        var lng: FlexibleDouble?
        guard
            try reader.members({ reader, key throws(JSONReader.Failure) in
                switch key {
                case "city": city = try reader.string()
                case "lat": lat = try reader.flexibleDouble()
                case "lng": lng = try reader.flexibleDouble()
                default: try reader.skipValue()
                }
            })
        else { return nil }
        return Self(city: city, lat: lat, lng: lng)
    }
}

extension SongkickJSON.Location {
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Self? {
        var city: SongkickJSON.City?
        var metroArea: SongkickJSON.MetroArea?
        guard
            try reader.members({ reader, key throws(JSONReader.Failure) in
                switch key {
                case "city": city = try SongkickJSON.City.read(&reader)
                case "metroArea": metroArea = try SongkickJSON.MetroArea.read(&reader)
                default: try reader.skipValue()
                }
            })
        else { return nil }
        return Self(city: city, metroArea: metroArea)
    }
}
