import Listings

/// Reading ``TicketmasterJSON`` from a ``JSONTape``: the same values `JSONDecoder`
/// gives, or ``JSONTapeMiss`` (see `JSONTapeTests`).
extension TicketmasterJSON.Response {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        // Event details: the response is the event (see `init(from:)`).
        let isEvent = try value.optionalMember("dates") != nil
        self.init(
            _embedded: isEvent ? nil : try value.object("_embedded") { v throws(JSONTapeMiss) in
                TicketmasterJSON.Embedded(
                    events: try v.array("events") { e throws(JSONTapeMiss) in try TicketmasterJSON.Event(tape: e) },
                    attractions: try v.array("attractions") { a throws(JSONTapeMiss) in try TicketmasterJSON.Attraction(tape: a) },
                    venues: try v.array("venues") { a throws(JSONTapeMiss) in try TicketmasterJSON.Venue(tape: a) })
            },
            page: isEvent ? nil : try value.object("page") { v throws(JSONTapeMiss) in
                TicketmasterJSON.Page(
                    size: try v.int("size"), totalElements: try v.int("totalElements"), totalPages: try v.int("totalPages"),
                    number: try v.int("number"))
            },
            fault: try value.object("fault") { v throws(JSONTapeMiss) in
                TicketmasterJSON.Fault(
                    faultstring: try v.text("faultstring"),
                    detail: try v.object("detail") { d throws(JSONTapeMiss) in
                        TicketmasterJSON.FaultDetail(errorcode: try d.text("errorcode"))
                    })
            },
            errors: try value.array("errors") { v throws(JSONTapeMiss) in
                TicketmasterJSON.APIError(code: try v.text("code"), detail: try v.text("detail"))
            },
            event: isEvent ? try TicketmasterJSON.Event(tape: value) : nil)
    }
}

extension TicketmasterJSON.Event {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            id: try value.flexibleID("id"), name: try value.text("name"), url: try value.text("url"),
            test: try value.bool("test"),
            dates: try value.object("dates") { v throws(JSONTapeMiss) in try TicketmasterJSON.Dates(tape: v) },
            classifications: try value.array("classifications") { v throws(JSONTapeMiss) in
                TicketmasterJSON.Classification(
                    primary: try v.bool("primary"), segment: try v.named("segment"), genre: try v.named("genre"),
                    subGenre: try v.named("subGenre"), type: try v.named("type"), subType: try v.named("subType"))
            },
            priceRanges: try value.array("priceRanges") { v throws(JSONTapeMiss) in
                TicketmasterJSON.PriceRange(
                    currency: try v.text("currency"), min: try v.flexibleDouble("min"), max: try v.flexibleDouble("max"))
            },
            sales: try value.object("sales") { v throws(JSONTapeMiss) in
                TicketmasterJSON.Sales(public: try v.object("public") { w throws(JSONTapeMiss) in
                    TicketmasterJSON.SalesWindow(startDateTime: try w.text("startDateTime"))
                })
            },
            _embedded: try value.object("_embedded") { v throws(JSONTapeMiss) in
                TicketmasterJSON.EventEmbedded(
                    venues: try v.array("venues") { a throws(JSONTapeMiss) in try TicketmasterJSON.Venue(tape: a) },
                    attractions: try v.array("attractions") { a throws(JSONTapeMiss) in try TicketmasterJSON.Attraction(tape: a) })
            })
    }
}

extension TicketmasterJSON.Dates {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            start: try value.object("start") { v throws(JSONTapeMiss) in try TicketmasterJSON.Moment(tape: v) },
            end: try value.object("end") { v throws(JSONTapeMiss) in try TicketmasterJSON.Moment(tape: v) },
            timezone: try value.text("timezone"),
            status: try value.object("status") { v throws(JSONTapeMiss) in TicketmasterJSON.Status(code: try v.text("code")) })
    }
}

extension TicketmasterJSON.Moment {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            localDate: try value.text("localDate"), localTime: try value.text("localTime"),
            dateTime: try value.text("dateTime"), dateTBD: try value.bool("dateTBD"), dateTBA: try value.bool("dateTBA"),
            timeTBA: try value.bool("timeTBA"), noSpecificTime: try value.bool("noSpecificTime"))
    }
}

extension TicketmasterJSON.Venue {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            id: try value.flexibleID("id"), name: try value.text("name"), url: try value.text("url"),
            timezone: try value.text("timezone"), city: try value.named("city"),
            state: try value.object("state") { v throws(JSONTapeMiss) in
                TicketmasterJSON.State(name: try v.text("name"), stateCode: try v.text("stateCode"))
            },
            country: try value.object("country") { v throws(JSONTapeMiss) in
                TicketmasterJSON.Country(name: try v.text("name"), countryCode: try v.text("countryCode"))
            },
            address: try value.object("address") { v throws(JSONTapeMiss) in TicketmasterJSON.Address(line1: try v.text("line1")) },
            postalCode: try value.text("postalCode"),
            location: try value.object("location") { v throws(JSONTapeMiss) in
                TicketmasterJSON.Location(latitude: try v.flexibleDouble("latitude"), longitude: try v.flexibleDouble("longitude"))
            })
    }
}

extension TicketmasterJSON.Attraction {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            id: try value.flexibleID("id"), name: try value.text("name"), url: try value.text("url"),
            externalLinks: try value.object("externalLinks") { v throws(JSONTapeMiss) in
                TicketmasterJSON.ExternalLinks(musicbrainz: try v.array("musicbrainz") { m throws(JSONTapeMiss) in
                    TicketmasterJSON.ExternalID(id: try m.text("id"))
                })
            })
    }
}

extension JSONTapeValue {
    fileprivate func named(_ key: StaticString) throws(JSONTapeMiss) -> TicketmasterJSON.Named? {
        try object(key) { v throws(JSONTapeMiss) in TicketmasterJSON.Named(name: try v.text("name")) }
    }
}
