import Dispatch
import Synchronization

/// RxSwift's `MainScheduler`: work on Dispatch's main queue, run at once
/// when it is scheduled on the main thread and nothing is waiting before it.
///
/// `observe(on: MainScheduler.instance)` and `subscribe(on:)`, the time
/// operators with `scheduler: MainScheduler.instance`, and `Binder`'s
/// default scheduler compile and behave as in RxSwift.
///
/// On Linux the main queue runs only while it is serviced: a program that
/// calls `dispatchMain()`, or runs a Foundation run loop on the main thread,
/// or waits in RxBlocking on the main thread (which runs this scheduler's
/// work while it waits). Work scheduled from another thread waits until
/// then. A program built on RxUV has no such queue to service: prefer its
/// `Loop`, which is a scheduler too, and `observe(on: loop)`.
public final class MainScheduler: SchedulerType, Sendable {
    /// The shared instance. Work scheduled on the main thread, with nothing
    /// of this scheduler's queued before it, runs at once.
    public static let instance = MainScheduler()

    /// A scheduler that always queues on the main queue, even when called
    /// on the main thread.
    public static let asyncInstance = SerialDispatchQueueScheduler(serialQueue: DispatchQueue.main)

    /// Work scheduled and not yet finished: run at once only when none.
    private let numberEnqueued = Atomic<Int>(0)
    /// The main queue, for delayed work.
    private let configuration = DispatchQueueConfiguration(queue: DispatchQueue.main, leeway: .nanoseconds(0))

    /// Creates a scheduler on the main queue. `instance` is the usual one.
    public init() {}

    /// The time of Dispatch's monotonic clock.
    public var now: RxTime {
        configuration.now
    }

    /// Stops the program with `errorMessage` unless it runs on the main
    /// thread or the main queue: a programmer error, as in RxSwift.
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        precondition(
            MainQueue.isMain,
            errorMessage ?? "Executing on a background thread. Please use `MainScheduler.instance.schedule` to schedule work on the main thread."
        )
    }

    /// Stops the program with `errorMessage` unless it runs on the main
    /// thread or the main queue.
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        precondition(MainQueue.isMain, errorMessage ?? "Running on a background thread.")
    }

    /// Runs `action` at once on the main thread when nothing of this
    /// scheduler's is queued before it; otherwise queues it on the main
    /// queue.
    ///
    /// - Returns: a disposable that cancels a queued action, or disposes what
    ///   the action returned.
    public func schedule<StateType>(_ state: StateType, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        let previous = numberEnqueued.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        if previous == 0 && MainQueue.isMain {
            let disposable = action(state)
            numberEnqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            return disposable
        }
        let cancel = SingleAssignmentDisposable()
        // The state goes to the action on the main thread: the scheduler contract.
        let state = UncheckedSendable(state)
        MainQueue.enqueue {
            if !cancel.isDisposed {
                cancel.setDisposable(action(state.value))
            }
            self.numberEnqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
        return cancel
    }

    /// Runs `action` on the main queue after `dueTime`.
    ///
    /// - Returns: a disposable that cancels the action if it has not run yet.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }
}
