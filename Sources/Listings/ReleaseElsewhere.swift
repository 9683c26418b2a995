import Dispatch

/// Frees `values` on another thread. A feed build's state is
/// hundreds of thousands of small allocations: freed one by one, they hold up the thread
/// that everything else waits for. (Whichever reference goes last
/// frees; the caller's usually go before the other thread starts.)
public func releaseElsewhere<T>(_ values: T) {
    let box = UncheckedSendableBox(values)
    DispatchQueue.global(qos: .utility).async { withExtendedLifetime(box) {} }
}

/// @unchecked: only ever released, never read, on the other thread.
private struct UncheckedSendableBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
