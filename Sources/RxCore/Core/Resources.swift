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

    /// The Observables that `observe(on:)` returned for a serial dispatch
    /// queue (a `SerialDispatchQueueScheduler`, `MainScheduler.instance` or
    /// `MainScheduler.asyncInstance`) alive now, as RxSwift counts them: one
    /// per Observable, from its creation to its release, however often it
    /// is subscribed. Debug builds.
    public static var numberOfSerialDispatchQueueObservables: Int32 {
        serialQueueObservables.load(ordering: .relaxed)
    }

    /// The deepest stack of sources a tail-recursive operator (`concat` and
    /// `catch` over a sequence) has held so far, as RxSwift reports it: it
    /// stays small however long the sequence, since an exhausted source is
    /// dropped before the next is taken. RxCore's read-only view of the
    /// global `maxTailRecursiveSinkStackSize`, which RxSwift's tests reset.
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

/// RxSwift's debug global: the deepest stack of nested source sequences a
/// tail-recursive operator (`concat`, `catch` over a sequence) has held, a
/// high-water mark raised when a source turns out to be a sequence of its
/// own (a concat of concats). Set it to 0 before a run and read it after,
/// as RxSwift's tests do; nothing reads it to limit recursion. Atomic, so
/// any thread may read or reset it. Debug builds only, as in RxSwift.
public var maxTailRecursiveSinkStackSize: Int {
    get { tailRecursionStackMaximum.load(ordering: .relaxed) }
    set { tailRecursionStackMaximum.store(newValue, ordering: .relaxed) }
}
#endif
