import Foundation
import Listings

/// Reads SeatGeek Platform API v2 responses: event search (`/events`), event details
/// (`/events/{id}`), venues (`/venues`, `/venues/{id}`) and performers (`/performers`,
/// `/performers/{id}`).
///
/// Decisions, from the recorded responses:
/// - **Concerts only.** A search mixes sports, theatre and family shows with concerts. An
///   event none of whose `taxonomies` is a concert (`concert`, `music_festival`, or an id
///   under the concert taxonomy 2000000) is skipped and counted by its top taxonomy
///   ("non-concert events (sports)"); an event with no taxonomy at all is judged by its
///   `type`, and kept when that is missing too.
/// - **Times.** `datetime_local` is the venue's wall clock, `datetime_utc` the instant
///   (written without a `Z`), `venue.timezone` the IANA zone. With `time_tbd` the time is
///   not known (SeatGeek still writes a placeholder such as 03:30): only the date is
///   kept. With `date_tbd` there is no usable date: the event is skipped and counted
///   ("events with no date yet"), as is an event with neither `datetime_local` nor
///   `datetime_utc`; one with `datetime_utc` alone is on the venue's clock.
/// - **Status.** `normal` is scheduled; `cancelled`, `postponed` and `rescheduled` are
///   kept when SeatGeek says them. It mostly drops a cancelled event instead of marking
///   it: the listing lifecycle unlists what a source stops listing.
/// - **Lineup.** `performers` in SeatGeek's order, except that the `primary` one
///   headlines and comes first (the first performer when none is primary).
/// - **Offer.** `stats.lowest_price`/`highest_price` with the event's `url`, one offer.
///   SeatGeek does not say the currency, and Encore does not guess it.
/// - **End date.** Only a festival's: `enddatetime_utc` in the venue's zone. A concert
///   ending after midnight is not a two-day event.
/// - **Unusable values** (a zone that is not IANA, a coordinate off the globe, a UTC time
///   that is not one) are dropped with a warning naming their position; the event stays. A malformed `datetime_local` or a
///   missing `id` fails the page: they are the record's date and identity.
/// - **Error bodies** (`{"errors": [...], "status": 403}`) fail the page with SeatGeek's
///   message: a saved error is not an empty listing.
/// - **Paging.** `meta.page` counts from 1, `meta.total` is the number of results.
public struct SeatGeekIngester: Ingester {
    public let format = "seatgeek"
    public let source = ListingSource.seatgeek
    public var crawlScheme: (any CrawlScheme)? { SeatGeekCrawlScheme() }

    public init() {}

    public func recognizes(_ sample: ContentSample) -> Bool {
        guard sample.firstSignificantByte == UInt8(ascii: "{") else { return false }
        return sample.contains("seatgeek.com") || sample.contains("\"datetime_utc\"")
            || (sample.contains("\"per_page\"") && sample.contains("\"took\""))
    }

    public func parse(_ data: Data, context: PageContext) throws(IngestError) -> ListingPage {
        let locator = context.locator
        let response = try JSONPageDecoding.decode(SeatGeekJSON.Response.self, from: data, locator: locator)
        let hasListings = response.events != nil || response.venues != nil || response.performers != nil
            || response.event != nil || response.venue != nil || response.performer != nil
        if let errors = response.errors, !errors.isEmpty {
            let text = errors.map { error in
                (ListingValues.clean(error.message) ?? "error") + (error.code.map { " (\($0.value))" } ?? "")
            }.joined(separator: "; ")
            throw IngestError(locator: locator, position: "errors", reason: .sourceError("SeatGeek: \(text)"))
        }
        if !hasListings, let message = ListingValues.clean(response.message) {
            throw IngestError(locator: locator, position: "message", reason: .sourceError("SeatGeek: \(message)"))
        }
        guard hasListings else {
            throw IngestError(
                locator: locator, position: "top level",
                reason: .unexpectedShape("no \"events\", \"venues\" or \"performers\": not a SeatGeek Platform response"))
        }
        let normalizer = SeatGeekNormalizer(values: ListingValues(locator: locator))
        var page = ListingPage(source: source, locator: locator)
        if let meta = response.meta, let number = meta.page {
            guard number >= 1 else { throw normalizer.values.invalid("meta.page", "page \(number); pages count from 1") }
            page.paging = ListingPage.Paging(page: number, perPage: meta.per_page, totalEntries: meta.total)
        }
        if let event = response.event { try normalizer.add(event, at: "", to: &page) }
        for (index, event) in (response.events ?? []).enumerated() {
            try normalizer.add(event, at: "events[\(index)]", to: &page)
        }
        if let venue = response.venue, let listing = normalizer.venue(venue, at: "top level", warnings: &page.warnings) {
            page.venues.append(listing)
        }
        for (index, venue) in (response.venues ?? []).enumerated() {
            if let listing = normalizer.venue(venue, at: "venues[\(index)]", warnings: &page.warnings) { page.venues.append(listing) }
        }
        if let performer = response.performer, let artist = normalizer.artist(performer) { page.artists.append(artist) }
        for performer in response.performers ?? [] {
            if let artist = normalizer.artist(performer) { page.artists.append(artist) }
        }
        return page
    }
}

extension ListingSource {
    /// SeatGeek sells tickets too, but mostly resold ones: it ranks after the box office
    /// and the concert database, ahead of the fan-facing sources. It drops a cancelled
    /// show rather than marking it (its last word on any show is "normal"), so it does
    /// not decide status.
    public static let seatgeek = ListingSource(name: "seatgeek", rank: 2)
}
