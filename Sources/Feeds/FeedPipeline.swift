import Foundation

/// Renders and writes a build's files on a background queue while the builder reads
/// the next documents from the catalog: reading is one thread's work, rendering and
/// writing another's, and a build that alternated them left a core idle half the time.
///
/// Work runs in submission order. At most two batches wait, so memory stays flat. The
/// sink is touched only by the queue until ``finish()`` hands it back, hence
/// `@unchecked Sendable`.
final class FeedPipeline<Sink: FeedSink>: @unchecked Sendable {
    private var sink: Sink
    private let queue = DispatchQueue(label: "encore.feeds.writing")
    private let slots = DispatchSemaphore(value: 2)
    private let lock = NSLock()
    private var failure: (any Error)?

    init(sink: Sink) {
        self.sink = sink
    }

    /// Files added so far (waits for the work already submitted).
    var count: Int { queue.sync { sink.count } }

    /// Queues work on the sink.
    /// - Throws: the error of earlier work, if any failed: the build stops there.
    func submit(_ work: @escaping @Sendable (inout Sink) throws -> Void) throws {
        try rethrowFailure()
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard lock.withLock({ failure == nil }) else { return }
            do {
                try work(&sink)
            } catch {
                lock.withLock { failure = error }
            }
        }
    }

    /// Waits for all submitted work.
    func drain() throws {
        queue.sync {}
        try rethrowFailure()
    }

    /// Waits for all submitted work and returns the sink.
    func finish() throws -> Sink {
        try drain()
        return sink
    }

    private func rethrowFailure() throws {
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}
