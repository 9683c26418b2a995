/// What a writer produced, for the driver's report and for benchmarks.
public struct WriteSummary: Sendable, Hashable {
    public var files: Int
    public var events: Int
    public var bytes: Int

    public init(files: Int = 0, events: Int = 0, bytes: Int = 0) {
        self.files = files
        self.events = events
        self.bytes = bytes
    }
}
