import Dispatch
import Synchronization

/// The work `MainScheduler` sends to Dispatch's main queue, in one FIFO
/// that two parties drain on the main thread: a block on the main queue
/// (when the queue is serviced: `dispatchMain()` or a run loop), and
/// RxBlocking while it waits on the main thread (its equivalent of
/// RxSwift's spinning the run loop).
package enum MainQueue {
    private struct Pending: @unchecked Sendable {
        // @unchecked Sendable: only under the lock; the work items are
        // @Sendable closures.
        var work = RingQueue<@Sendable () -> Void>()
        var waiters: [DispatchSemaphore] = []
    }

    private static let pending = Mutex(Pending())

    /// Set on the main queue only: Dispatch reports it on the main thread
    /// and in the main queue's blocks, wherever `dispatchMain()` runs them.
    private static let mainKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// `true` on the main thread and in blocks of the main queue.
    package static var isMain: Bool {
        DispatchQueue.getSpecific(key: mainKey) != nil
    }

    /// `true` when `queue` is the main queue (Dispatch hands out a new
    /// `DispatchQueue` object for it on each `DispatchQueue.main`, so
    /// identity cannot tell).
    static func isMainQueue(_ queue: DispatchQueue) -> Bool {
        queue.getSpecific(key: mainKey) != nil
    }

    /// Queues `work` for the main thread and wakes whoever may run it.
    static func enqueue(_ work: @escaping @Sendable () -> Void) {
        let waiters = pending.withLock { pending in
            pending.work.enqueue(work)
            return pending.waiters
        }
        DispatchQueue.main.async { MainQueue.runPending() }
        for waiter in waiters {
            waiter.signal()
        }
    }

    /// Runs the queued work, in order, on the calling (main) thread.
    package static func runPending() {
        while let work = pending.withLock({ $0.work.dequeue() }) {
            work()
        }
    }

    /// Runs `body` with `waiter` signalled whenever work is queued.
    package static func withWaiter<Result>(_ waiter: DispatchSemaphore, _ body: () throws -> Result) rethrows -> Result {
        pending.withLock { $0.waiters.append(waiter) }
        defer {
            pending.withLock { pending in
                if let index = pending.waiters.firstIndex(where: { $0 === waiter }) {
                    pending.waiters.remove(at: index)
                }
            }
        }
        return try body()
    }
}
