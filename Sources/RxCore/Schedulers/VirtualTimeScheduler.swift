import Synchronization

/// A scheduler whose clock moves only when it runs queued work: the base of
/// RxTest's `TestScheduler` and RxFoundation's `HistoricalScheduler`.
///
/// Work is ordered by due time, and work due at the same time in the order it
/// was scheduled. `start()` runs everything queued (advancing the clock to each
/// item's time); `advanceTo(_:)` runs what is due up to a time; `stop()` ends a
/// run after the current item.
// @unchecked Sendable: the clock and the queue are read and written only
// under `state`'s lock; `converter` is Sendable. (An open class cannot be
// checked Sendable.)
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: VirtualTimeSchedulerType, @unchecked Sendable {
    /// The scheduler's unit of time.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// The scheduler's unit of time intervals.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    private struct State {
        var clock: VirtualTime
        var running = false
        var nextId = 0
        var queue: PriorityQueue<VirtualSchedulerItem<VirtualTime>>
    }

    private let converter: Converter
    private let state: Mutex<State>

    /// Creates a scheduler whose clock starts at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.converter = converter
        self.state = Mutex(
            State(
                clock: initialClock,
                queue: PriorityQueue { lhs, rhs in
                    switch converter.compareVirtualTime(lhs.time, rhs.time) {
                    case .lessThan: return true
                    case .greaterThan: return false
                    case .equal: return lhs.id < rhs.id
                    }
                }))
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// The current virtual time.
    public var clock: VirtualTime {
        state.withLock { $0.clock }
    }

    /// The current virtual time as real time, an ``RxTime``: `now` as an
    /// operator sees it, through ``SchedulerType``.
    public var clockTime: RxTime {
        converter.convertFromVirtualTime(clock).rxTime
    }

    /// The current virtual time in the converter's real-time type, as
    /// RxSwift's `now`: a `Date` for a converter written for RxSwift
    /// (`HistoricalScheduler`'s), an ``RxTime`` for RxTest's. Through
    /// ``SchedulerType`` (an operator, a generic function) `now` is
    /// ``clockTime``, the same time.
    public var now: Converter.RealTime {
        converter.convertFromVirtualTime(clock)
    }

    /// `true` while `start()` or `advanceTo(_:)` is running queued work.
    public var isEnabled: Bool {
        state.withLock { $0.running }
    }

    /// Schedules `action` to run as soon as possible: at the current virtual
    /// time (subclasses such as `TestScheduler` may adjust it).
    public func schedule<StateType>(_ state: StateType, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` after `dueTime`, converted to virtual time.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        let time = converter.convertToVirtualTime(Converter.RealTime(rxTime: clockTime + dueTime))
        return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(time), action: action)
    }

    /// Schedules `action` after a virtual interval.
    public func scheduleRelativeVirtual<StateType>(_ state: StateType, dueTime: VirtualTimeInterval, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        let time = converter.offsetVirtualTime(clock, offset: dueTime)
        return scheduleAbsoluteVirtual(state, time: time, action: action)
    }

    /// Schedules `action` at the virtual time `time`.
    ///
    /// - Returns: a disposable that removes the action if it has not run yet.
    public func scheduleAbsoluteVirtual<StateType>(_ state: StateType, time: VirtualTime, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        let item = self.state.withLock { locked -> VirtualSchedulerItem<VirtualTime> in
            // The state goes to the action when the scheduler runs it.
            let state = UncheckedSendable(state)
            let item = VirtualSchedulerItem(time: time, id: locked.nextId) { action(state.value) }
            locked.nextId += 1
            locked.queue.enqueue(item)
            return item
        }
        return item
    }

    /// Adjusts the time of work scheduled through `schedule`/`scheduleRelative`;
    /// the base scheduler keeps it unchanged.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime {
        time
    }

    /// Runs queued work in time order until the queue is empty or `stop()` is called.
    public func start() {
        guard beginRun() else { return }
        while let item = nextItem(upTo: nil) {
            item.invoke()
        }
        endRun()
    }

    /// Stops a running `start()` or `advanceTo(_:)` after the current item.
    public func stop() {
        state.withLock { $0.running = false }
    }

    /// Runs queued work due at or before `virtualTime`, then sets the clock to it.
    public func advanceTo(_ virtualTime: VirtualTime) {
        guard beginRun() else { return }
        precondition(
            converter.compareVirtualTime(clock, virtualTime) != .greaterThan,
            "VirtualTimeScheduler.advanceTo: cannot move the clock back")
        while let item = nextItem(upTo: virtualTime) {
            item.invoke()
        }
        state.withLock {
            $0.running = false
            $0.clock = virtualTime
        }
    }

    /// Moves the clock forward by `virtualInterval` without running any work.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        state.withLock { locked in
            let target = converter.offsetVirtualTime(locked.clock, offset: virtualInterval)
            precondition(
                converter.compareVirtualTime(locked.clock, target) != .greaterThan,
                "VirtualTimeScheduler.sleep: cannot move the clock back")
            locked.clock = target
        }
    }

    private func beginRun() -> Bool {
        state.withLock { locked in
            if locked.running { return false }
            locked.running = true
            return true
        }
    }

    private func endRun() {
        state.withLock { $0.running = false }
    }

    /// Pops the next live item (due at or before `limit`, if given) and moves
    /// the clock to its time.
    private func nextItem(upTo limit: VirtualTime?) -> VirtualSchedulerItem<VirtualTime>? {
        state.withLock { locked in
            while locked.running, let next = locked.queue.peek() {
                if next.isDisposed {
                    _ = locked.queue.dequeue()
                    continue
                }
                if let limit, converter.compareVirtualTime(next.time, limit) == .greaterThan {
                    return nil
                }
                _ = locked.queue.dequeue()
                if converter.compareVirtualTime(next.time, locked.clock) == .greaterThan {
                    locked.clock = next.time
                }
                return next
            }
            return nil
        }
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

/// One queued action of a virtual-time scheduler.
final class VirtualSchedulerItem<Time: Sendable>: Cancelable {
    let time: Time
    let id: Int
    private let action: @Sendable () -> Disposable
    private let disposable = SingleAssignmentDisposable()

    init(time: Time, id: Int, action: @escaping @Sendable () -> Disposable) {
        self.time = time
        self.id = id
        self.action = action
    }

    func invoke() {
        disposable.setDisposable(action())
    }

    var isDisposed: Bool {
        disposable.isDisposed
    }

    func dispose() {
        disposable.dispose()
    }
}
