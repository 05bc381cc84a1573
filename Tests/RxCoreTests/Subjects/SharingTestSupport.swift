import Synchronization

/// A lock-protected value shared between test threads (subject, relay and
/// sharing tests).
final class SharingTestBox<Value>: @unchecked Sendable {
    private let lock = Mutex<Void>(())
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    @discardableResult
    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { _ in body(&value) }
    }

    var current: Value {
        lock.withLock { _ in value }
    }
}
