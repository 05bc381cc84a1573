import Dispatch
import RxCore
import Synchronization

/// How a blocking operator waits: RxBlocking's counterpart of RxSwift's
/// `RunLoopLock`.
///
/// RxSwift subscribes from the current run loop and spins it while it
/// waits, so that work the chain owes the waiting thread still runs. Here
/// the waiting thread owes two kinds of work, and does both:
/// - work on `CurrentThreadScheduler`: the subscription is made inside a
///   trampoline of its own (`CurrentThreadScheduler.withOwnTrampoline`), so
///   whatever it schedules there runs before the wait begins, even when
///   `toBlocking()` is called from inside a trampoline action, whose queue
///   would otherwise only drain after the wait;
/// - work on `MainScheduler` when it waits on the main thread: the main
///   queue's work is run while waiting, as a run loop would.
/// A chain that needs any other thread (a `Loop`, a dispatch queue) needs
/// that thread to run: do not block the loop thread on its own chain.
final class BlockingWait: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let finished = Atomic<Bool>(false)

    /// Ends the wait; later calls do nothing.
    func finish() {
        if !finished.exchange(true, ordering: .acquiringAndReleasing) {
            semaphore.signal()
        }
    }

    /// Runs `start` (the subscription), then waits until `finish()` or the
    /// timeout.
    ///
    /// - Parameter timeout: seconds to wait at most; `nil` waits forever.
    /// - Returns: `false` when the timeout came first.
    func wait(timeout: Double?, _ start: () -> Void) -> Bool {
        let deadline = timeout.map { DispatchTime.now() + Swift.max(0, $0) } ?? .distantFuture
        guard MainQueue.isMain else {
            CurrentThreadScheduler.withOwnTrampoline(start)
            return waitForFinish(until: deadline)
        }
        return MainQueue.withWaiter(semaphore) {
            CurrentThreadScheduler.withOwnTrampoline(start)
            while true {
                CurrentThreadScheduler.withOwnTrampoline(MainQueue.runPending)
                if finished.load(ordering: .acquiring) { return true }
                // Woken by `finish()` or by work queued for the main thread.
                if semaphore.wait(timeout: deadline) == .timedOut {
                    return finished.load(ordering: .acquiring)
                }
            }
        }
    }

    private func waitForFinish(until deadline: DispatchTime) -> Bool {
        while !finished.load(ordering: .acquiring) {
            if semaphore.wait(timeout: deadline) == .timedOut {
                return finished.load(ordering: .acquiring)
            }
        }
        return true
    }
}
