import Listings

/// What one page may expand of its recurring events (``ICalendarIngester/maximumOccurrences``
/// per event, ``ICalendarIngester/maximumOccurrencesPerPage`` in all), and the events the
/// caps cut, for the page's warnings.
struct RecurrenceBudget {
    var left = ICalendarIngester.maximumOccurrencesPerPage
    /// Titles of events whose rule had more occurrences than one event may have.
    var cut: [String] = []
    /// Titles of recurring events met after the page's occurrences were spent.
    var notExpanded: [String] = []

    func warnings(locator: String) -> [ListingWarning] {
        func named(_ titles: [String]) -> String {
            titles.prefix(3).map { "\"\($0.prefix(80))\"" }.joined(separator: ", ") + (titles.count > 3 ? " and \(titles.count - 3) more" : "")
        }
        var warnings: [ListingWarning] = []
        if !cut.isEmpty {
            warnings.append(
                ListingWarning(
                    locator: locator,
                    message: "recurring events cut at \(ICalendarIngester.maximumOccurrences) dates each: \(named(cut))"))
        }
        if !notExpanded.isEmpty {
            warnings.append(
                ListingWarning(
                    locator: locator,
                    message: "the page's \(ICalendarIngester.maximumOccurrencesPerPage) recurring dates are spent; "
                        + "these keep their first date only: \(named(notExpanded))"))
        }
        return warnings
    }
}
