import Synchronization

/// A value that a test body and the `@Sendable` closures it hands to the
/// bridge (`onListening`, scheduler actions, `execute`) both read and write.
///
/// Those closures run on the loop thread, later or elsewhere, so Swift 6 does
/// not let them capture a local `var`; they capture a `Shared` instead. Every
/// access takes a lock (`Mutex`; in a ThreadSanitizer build, `-DRX_TSAN`,
/// RxCore's `SanitizerMutex`).
public final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    /// A shared `value`.
    public init(_ value: Value) {
        storage = Mutex(value)
    }

    /// The current value.
    public var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    /// Changes the value in place, under the lock.
    public func mutate(_ change: (inout Value) -> Void) {
        storage.withLock { change(&$0) }
    }
}
