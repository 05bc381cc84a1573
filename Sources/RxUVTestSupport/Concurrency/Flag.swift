import Synchronization

/// A thread-safe boolean that is set once: a watchdog's "timed out", a
/// callback's "was called".
public final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    /// A flag not set yet.
    public init() {}

    /// Sets the flag, from any thread.
    public func set() {
        value.store(true, ordering: .sequentiallyConsistent)
    }

    /// Whether `set()` was called.
    public var isSet: Bool {
        value.load(ordering: .sequentiallyConsistent)
    }
}
