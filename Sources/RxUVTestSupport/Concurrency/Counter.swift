import Synchronization

/// A thread-safe counter, for callbacks that run on several threads (or on
/// the loop's while the test reads it from its own).
public final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    /// A counter at 0.
    public init() {}

    /// Adds one, from any thread; returns the new count.
    @discardableResult
    public func increment() -> Int {
        value.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
    }

    /// The count now.
    public var current: Int {
        value.load(ordering: .sequentiallyConsistent)
    }
}
