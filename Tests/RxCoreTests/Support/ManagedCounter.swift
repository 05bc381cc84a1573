import Synchronization

/// A thread-safe counter for concurrency tests.
final class ManagedCounter: Sendable {
    private let value = Atomic<Int>(0)

    @discardableResult
    func increment() -> Int {
        value.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
    }

    @discardableResult
    func decrement() -> Int {
        value.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue
    }

    var current: Int {
        value.load(ordering: .sequentiallyConsistent)
    }
}
