import ArgumentParser
import Listings

extension Encore {
    struct EventCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "event",
            abstract: "Show one event: date, time, venue, lineup, status and sources.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The event's catalog id (as shown by other commands, without the #).")
        var id: String

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func validate() throws {
            guard Int64(id.hasPrefix("#") ? String(id.dropFirst()) : id) != nil else {
                throw ValidationError("The event id is a number, like 42; got \"\(id)\".")
            }
        }

        func run() throws {
            let eventID = Int64(id.hasPrefix("#") ? String(id.dropFirst()) : id)!
            guard let event = try global.openCatalog().event(id: eventID) else {
                Output.error("No event #\(eventID) in the catalog. Find ids with `encore artist NAME` or `encore search TEXT`.")
                throw ReportedFailure()
            }
            if json { return try Output.json(event) }
            Output.line(event.title + (event.status == .scheduled ? "" : "  [\(event.status.rawValue.uppercased())]"))
            var when = event.start.localDate.description
            if let end = event.endDate, end != event.start.localDate { when += " to \(end)" }
            when += event.start.localTime.map { " at \(String($0.description.prefix(5)))" } ?? ", time not announced"
            if let zone = event.start.timeZone { when += " (\(zone))" }
            if let utc = event.start.utc { when += ", \(utc)" }
            var rows = [["When", when]]
            if let venue = event.venue {
                var place = venue.name
                let address = [venue.street, venue.city, venue.region, venue.country].compactMap { $0 }
                if !address.isEmpty { place += ", " + address.joined(separator: ", ") }
                rows.append(["Venue", place])
                if let lat = venue.latitude, let lng = venue.longitude {
                    rows.append(["Coordinates", "\(lat),\(lng)" + (venue.coordinatesApproximate ? " (approximate)" : "")])
                }
            }
            if let metro = event.metroArea { rows.append(["Metro area", metro.name]) }
            rows.append(["Status", event.status.rawValue])
            if let note = event.note { rows.append(["Note", note]) }
            Output.line(Output.table(rows))
            Output.line()
            Output.line("Lineup:")
            if event.lineup.isEmpty { Output.line("  not announced") }
            for act in event.lineup {
                Output.line(
                    "  \(act.order). \(act.name)" + (act.billing == .headline ? "  (headline)" : "")
                        + (act.slot.map { "  " + $0.text } ?? ""))
            }
            if !event.offers.isEmpty {
                Output.line()
                Output.line("Tickets:")
                Output.line(Output.table(event.offers.map(Self.ticketRow)))
            }
            Output.line()
            Output.line("Sources:")
            for source in event.sources {
                Output.line("  \(source.source) \(source.id)" + (source.url.map { "  \($0)" } ?? ""))
            }
        }

        /// `ticketmaster  25.00-45.50 USD  onsale  sales open 2026-12-01T15:00:00Z  URL`.
        static func ticketRow(_ detail: OfferDetail) -> [String] {
            let offer = detail.offer
            let prices = [offer.priceMin, offer.priceMax].compactMap { $0 }.map { String(format: "%.2f", $0) }
            let price = Set(prices).count == 1 ? prices[0] : prices.joined(separator: "-")
            return [
                "  " + detail.source, [price, offer.currency ?? ""].filter { !$0.isEmpty }.joined(separator: " "),
                offer.status ?? "", offer.onSale.map { "sales open \($0)" } ?? "", offer.url ?? "",
            ]
        }
    }
}
