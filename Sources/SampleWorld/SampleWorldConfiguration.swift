extension SampleWorld {
    /// Everything the world depends on. Equal configurations give identical worlds, and
    /// nothing else (no clock, no locale, no system randomness) goes in.
    public struct Configuration: Sendable, Hashable {
        public var seed: UInt64
        public var eventCount: Int
        /// First local date events may start on.
        public var start: SampleDate
        /// Length of the window events start in.
        public var days: Int
        /// Page size of the calendar files (Songkick's default is 50).
        public var eventsPerPage: Int
        /// Bandsintown lists concerts the way real sources differ (see ``SourceWorld``'s
        /// realistic variations), with hard negatives; off, the bundled samples stay as they are.
        public var realisticVariations: Bool

        public init(
            seed: UInt64 = 2026, eventCount: Int = 1000,
            start: SampleDate = SampleDate(year: 2026, month: 11, day: 1)!, days: Int = 240,
            eventsPerPage: Int = 50, realisticVariations: Bool = false
        ) {
            precondition(eventCount >= 0 && days > 0 && eventsPerPage > 0, "invalid sample world configuration")
            self.seed = seed
            self.eventCount = eventCount
            self.start = start
            self.days = days
            self.eventsPerPage = eventsPerPage
            self.realisticVariations = realisticVariations
        }
    }
}
