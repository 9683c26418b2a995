/// Content hashes of listings: equal hashes mean a re-listed record changed nothing.
///
/// Every stored field takes part, so that any change the catalog would record is seen.
extension MetroAreaListing {
    public func fingerprint(into hasher: inout ContentHasher) {
        hasher.combine(sourceID)
        hasher.combine(name)
        hasher.combine(country)
        hasher.combine(region)
        // A guessed centre changes with the page, not with the metro area.
        hasher.combine(placeIsGuessed ? nil : coordinate?.latitude)
        hasher.combine(placeIsGuessed ? nil : coordinate?.longitude)
        hasher.combine(url)
        hasher.combine(placeIsGuessed ? nil : place?.geonameID)
    }

    public var contentHash: String {
        var hasher = ContentHasher()
        fingerprint(into: &hasher)
        return hasher.hexDigest
    }
}

extension VenueListing {
    public func fingerprint(into hasher: inout ContentHasher) {
        for field in [sourceID, name, street, postalCode, city, region, country, timeZone, website, url] {
            hasher.combine(field)
        }
        hasher.combine(coordinate?.latitude)
        hasher.combine(coordinate?.longitude)
        hasher.combine(coordinateIsApproximate)
        hasher.combine(capacity)
        hasher.combine(metroArea?.sourceID)
        hasher.combine(place?.geonameID)
    }

    public var contentHash: String {
        var hasher = ContentHasher()
        fingerprint(into: &hasher)
        return hasher.hexDigest
    }
}

extension ArtistListing {
    public func fingerprint(into hasher: inout ContentHasher) {
        hasher.combine(sourceID)
        hasher.combine(name)
        hasher.combine(musicBrainzIDs.count)
        for id in musicBrainzIDs { hasher.combine(id) }
        hasher.combine(url)
        hasher.combine(onTourUntil?.description)
    }

    public var contentHash: String {
        var hasher = ContentHasher()
        fingerprint(into: &hasher)
        return hasher.hexDigest
    }
}

extension EventListing {
    /// Covers the event's own fields, its venue's identity and its bill (who, in what
    /// order, with what billing), not the venue's or artists' details, which are
    /// hashed as records of their own.
    public func fingerprint(into hasher: inout ContentHasher) {
        hasher.combine(sourceID)
        hasher.combine(title)
        hasher.combine(kind.rawValue)
        hasher.combine(status.rawValue)
        hasher.combine(start.localDate.description)
        hasher.combine(start.localTime?.description)
        hasher.combine(start.timeZone)
        hasher.combine(start.utc?.description)
        if start.awaitsVenueZone { hasher.combine("awaits venue zone") }
        hasher.combine(endDate?.description)
        hasher.combine(venue?.sourceID)
        hasher.combine(lineup.count)
        for performance in lineup {
            hasher.combine(performance.artist.sourceID)
            hasher.combine(performance.billing.rawValue)
            hasher.combine(performance.order)
        }
        hasher.combine(url)
        hasher.combine(popularity)
        hasher.combine(ageRestriction)
        // Only when there is one: the fingerprints of events without a note stay what
        // they were before notes were read.
        if let note {
            hasher.combine("note")
            hasher.combine(note)
        }
        hasher.combine(offers.count)
        for offer in offers {
            for field in [offer.url, offer.currency, offer.status, offer.onSale] { hasher.combine(field) }
            hasher.combine(offer.priceMin)
            hasher.combine(offer.priceMax)
        }
    }

    public var contentHash: String {
        var hasher = ContentHasher()
        fingerprint(into: &hasher)
        return hasher.hexDigest
    }
}
