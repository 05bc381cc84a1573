import Synchronization

#if TRACE_RESOURCES
private let resourceCount = Atomic<Int32>(0)
private let serialQueueObservables = Atomic<Int32>(0)
private let tailRecursionStackMaximum = Atomic<Int>(0)

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

    /// Subscriptions of `observe(on:)` to a `SerialDispatchQueueScheduler`
    /// alive now, as RxSwift counts them.
    public static var numberOfSerialDispatchQueueObservables: Int32 {
        serialQueueObservables.load(ordering: .relaxed)
    }

    /// The deepest stack of sources a tail-recursive operator (`concat` and
    /// `catch` over a sequence) has held so far, as RxSwift reports it: it
    /// stays small however long the sequence, since an exhausted source is
    /// dropped before the next is taken.
    public static var maxTailRecursiveSinkStackSize: Int {
        tailRecursionStackMaximum.load(ordering: .relaxed)
    }

    static func serialQueueObservableCreated() {
        serialQueueObservables.wrappingAdd(1, ordering: .relaxed)
    }

    static func serialQueueObservableFreed() {
        serialQueueObservables.wrappingSubtract(1, ordering: .relaxed)
    }

    static func tailRecursionStack(reached depth: Int) {
        tailRecursionStackMaximum.max(depth, ordering: .relaxed)
    }
}
#endif
