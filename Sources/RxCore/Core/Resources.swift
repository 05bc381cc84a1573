import Synchronization

#if TRACE_RESOURCES
private let resourceCount = Atomic<Int32>(0)

/// The live-object counter of debug builds.
///
/// Every observable, sink, subject and disposable increments `total` when it is
/// created and decrements it when it is freed, so a test can check that a
/// chain released everything: compare `total` before and after.
public enum Resources {
    /// The number of RxCore objects alive now.
    public static var total: Int32 {
        resourceCount.load(ordering: .relaxed)
    }

    /// Counts one more live object; returns the new total.
    @discardableResult
    public static func incrementTotal() -> Int32 {
        resourceCount.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Counts one fewer live object; returns the new total.
    @discardableResult
    public static func decrementTotal() -> Int32 {
        resourceCount.wrappingSubtract(1, ordering: .relaxed).newValue
    }
}
#endif
