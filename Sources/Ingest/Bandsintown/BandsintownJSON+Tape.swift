import Listings

/// Reading ``BandsintownJSON`` from a ``JSONTape``: the same values `JSONDecoder` gives,
/// or ``JSONTapeMiss`` (see `JSONTapeTests`).
extension BandsintownJSON.Event {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            id: try value.flexibleID("id"), artist_id: try value.flexibleID("artist_id"), url: try value.text("url"),
            datetime: try value.text("datetime"), starts_at: try value.text("starts_at"), ends_at: try value.text("ends_at"),
            datetime_display_rule: try value.text("datetime_display_rule"),
            on_sale_datetime: try value.text("on_sale_datetime"), title: try value.text("title"),
            venue: try value.object("venue") { v throws(JSONTapeMiss) in try BandsintownJSON.Venue(tape: v) },
            lineup: try value.array("lineup") { v throws(JSONTapeMiss) in try v.string() },
            offers: try value.array("offers") { v throws(JSONTapeMiss) in
                BandsintownJSON.Offer(type: try v.text("type"), url: try v.text("url"), status: try v.text("status"))
            },
            festival_start_date: try value.text("festival_start_date"),
            festival_end_date: try value.text("festival_end_date"), sold_out: try value.bool("sold_out"),
            artist: try value.object("artist") { v throws(JSONTapeMiss) in
                BandsintownJSON.Artist(
                    id: try v.flexibleID("id"), name: try v.text("name"), url: try v.text("url"), mbid: try v.text("mbid"))
            },
            artists: try value.array("artists") { v throws(JSONTapeMiss) in
                BandsintownJSON.Artist(
                    id: try v.flexibleID("id"), name: try v.text("name"), url: try v.text("url"), mbid: try v.text("mbid"))
            },
            ticket_url: try value.text("ticket_url"), ticket_status: try value.text("ticket_status"))
    }
}

extension BandsintownJSON.Venue {
    init(tape value: JSONTapeValue) throws(JSONTapeMiss) {
        self.init(
            id: try value.flexibleID("id"), name: try value.text("name"), latitude: try value.flexibleDouble("latitude"),
            longitude: try value.flexibleDouble("longitude"), city: try value.text("city"), region: try value.text("region"),
            country: try value.text("country"), street_address: try value.text("street_address"),
            postal_code: try value.text("postal_code"))
    }
}
