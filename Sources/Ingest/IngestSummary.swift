import Listings

/// What an ingest run did, page by page, in totals.
public struct IngestSummary: Sendable, Hashable {
    public var pagesApplied = 0
    /// Pages whose identical content had already been applied, so were skipped.
    public var pagesUnchanged = 0
    public var pagesFailed = 0
    public var eventsNew = 0
    public var eventsMerged = 0
    public var eventsUpdated = 0
    public var eventsUnchanged = 0
    public var failures: [IngestError] = []
    /// Records left out on purpose, by reason ("non-music events (Sports)": 9).
    public var skipped: [String: Int] = [:]
    /// Values that were dropped from pages that landed.
    public var warnings: [ListingWarning] = []

    public init() {}

    public var pages: Int { pagesApplied + pagesUnchanged + pagesFailed }
    public var succeeded: Bool { pagesFailed == 0 }

    mutating func record(_ outcome: PageOutcome) {
        if outcome.skippedAsUnchanged {
            pagesUnchanged += 1
        } else {
            pagesApplied += 1
        }
        eventsNew += outcome.eventsNew
        eventsMerged += outcome.eventsMerged
        eventsUpdated += outcome.eventsUpdated
        eventsUnchanged += outcome.eventsUnchanged
        recordSkipped(outcome.recordsSkipped)
        warnings += outcome.warnings
    }

    mutating func recordSkipped(_ skipped: [String: Int]) {
        skipped.forEach { self.skipped[$0.key, default: 0] += $0.value }
    }

    mutating func record(_ failure: IngestError) {
        pagesFailed += 1
        failures.append(failure)
    }

    /// One line for logs: `12 pages (11 applied, 1 unchanged, 0 failed); events: 300 new, 4 merged, ...`.
    public var line: String {
        "\(pages) page\(pages == 1 ? "" : "s") (\(pagesApplied) applied, \(pagesUnchanged) unchanged, \(pagesFailed) failed); "
            + "events: \(eventsNew) new, \(eventsMerged) merged, \(eventsUpdated) updated, \(eventsUnchanged) unchanged"
            + skippedText
    }

    /// `; skipped: 9 non-music events (Sports), 1 event with no date yet`, or nothing.
    public var skippedText: String { Self.skippedText(skipped) }

    public static func skippedText(_ skipped: [String: Int]) -> String {
        guard !skipped.isEmpty else { return "" }
        return "; skipped: " + skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }
}
