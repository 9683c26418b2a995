import Synchronization

/// A small thread-safe memo table for pure functions of names (folding, match keys,
/// place lookups): ingestion sees the same names over and over. It forgets everything
/// when it reaches `limit` entries, so a long crawl's memory stays bounded.
public final class MemoCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let storage = Mutex<[Key: Value]>([:])
    private let limit: Int

    public init(limit: Int = 100_000) {
        self.limit = limit
    }

    public func value(for key: Key, compute: () -> Value) -> Value {
        if let cached = storage.withLock({ $0[key] }) { return cached }
        let value = compute()
        storage.withLock {
            if $0.count >= limit { $0.removeAll(keepingCapacity: true) }
            $0[key] = value
        }
        return value
    }
}
