import Synchronization

/// The work other threads hand to a loop (`Loop.enter`, `Loop.execute`):
/// one queue of typed items (`LoopWork`), and the `uv_async_t` that wakes
/// the loop to run them.
///
/// The queue is the wake-up handle's target: libuv coalesces sends, so each
/// wake-up drains everything queued so far. While nothing waits, the handle
/// is unreferenced, so an idle loop's `run()` can return.
///
/// Work the loop thread queues for itself (an actor's job, a task's, a
/// closure given to `execute` there) takes no lock and no system call while
/// nothing from another thread waits: it goes to a list of the loop
/// thread's own, which a `uv_idle_t` runs on the loop's next turn, before
/// it polls (so the poll does not block meanwhile), and before what other
/// threads queued after it. With work from other threads waiting, it queues
/// behind that work under the lock, so every item runs in the order it was
/// queued.
// @unchecked Sendable: the shared fields are in `pending`, under its lock,
// and `othersWaiting` is atomic; `local` and `localWakeup` are touched on
// the loop thread only.
final class LoopWorkQueue: UVAsyncTarget, UVIdleTarget, @unchecked Sendable {
    private struct Pending: ~Copyable {
        var work: [LoopWork] = []
        var isClosed = false
        /// The `uv_async_t` that wakes the loop, which the queue owns: read
        /// by `enqueue` on any thread and replaced by `close()` / `open`,
        /// both under this lock.
        var wakeup: Owned<UVAsync>?
        /// The wake-up handle stays referenced, so the loop runs while idle
        /// (a `LoopGroup`'s loop, until its group shuts down).
        var keepsLoopAlive = false
    }

    private let pending = Mutex(Pending())
    /// The loop's vitals, where each item notes what the loop runs.
    private let vitals: LoopVitals
    /// `true` while `pending` holds work from other threads: the loop
    /// thread's own work then queues behind it.
    private let othersWaiting = Atomic<Bool>(false)
    /// Work the loop thread queued for itself, without the lock. Loop-thread
    /// state.
    @exclusivity(unchecked) private var local: [LoopWork] = []
    /// An empty array that keeps its capacity between batches, so that
    /// taking a batch out of `local` or `pending` allocates nothing.
    /// Loop-thread state.
    @exclusivity(unchecked) private var spare: [LoopWork] = []
    /// The same for the work of other threads: it changes places with
    /// `pending`'s array under the lock. Loop-thread state.
    @exclusivity(unchecked) private var othersSpare: [LoopWork] = []
    /// The wake-up handle as the loop thread sees it: set by `open`, cleared
    /// by `close` (so `nil` means closed). Loop-thread state.
    @exclusivity(unchecked) private var localWakeup: UVAsync?
    /// The `uv_idle_t` that runs `local` on the loop's next turn, which the
    /// queue owns. Loop-thread state.
    @exclusivity(unchecked) private var localRunner: Owned<UVIdle>?

    init(vitals: LoopVitals) {
        self.vitals = vitals
    }

    /// The work other threads queued and the loop has not run yet: the
    /// depth of the loop's door. Any thread.
    var waitingCount: Int {
        pending.withLock { $0.work.count }
    }

    /// Queues `work` and wakes the loop. `onLoopThread` says whether the
    /// caller is the loop thread (which then keeps the loop alive for it).
    /// Returns `false` if the queue is closed; `work` is then not run.
    func enqueue(_ work: LoopWork, onLoopThread: Bool) -> Bool {
        if onLoopThread, !othersWaiting.load(ordering: .acquiring) {
            guard localWakeup != nil else { return false }
            local.append(work)
            runLocalSoon()
            return true
        }
        let wakeup = pending.withLock { pending -> UVAsync? in
            if pending.isClosed { return nil }
            pending.work.append(work)
            othersWaiting.store(true, ordering: .releasing)
            // Sending under the lock keeps close() from freeing the handle
            // between the check and the send.
            pending.wakeup?.resource.send()
            return pending.wakeup?.resource
        }
        guard let wakeup else { return false }
        if onLoopThread {
            wakeup.ref()
        }
        return true
    }

    /// Installs `wakeup` and `runner` and takes work again (after a failed
    /// close, or at the start). Loop thread.
    func open(with wakeup: UVAsync, runner: consuming Owned<UVIdle>) {
        let keepsLoopAlive = pending.withLock { pending in
            pending.isClosed = false
            pending.wakeup = Owned(wakeup)
            return pending.keepsLoopAlive
        }
        localWakeup = wakeup
        localRunner = consume runner
        if !keepsLoopAlive {
            wakeup.unref()
        }
    }

    /// Keeps the loop running while idle, or lets an idle `run()` return
    /// again. Loop thread.
    func keepLoopAlive(_ enabled: Bool) {
        let wakeup = pending.withLock { pending in
            pending.keepsLoopAlive = enabled
            return pending.wakeup?.resource
        }
        if enabled {
            wakeup?.ref()
        } else {
            wakeup?.unref()
        }
    }

    /// Keeps the loop alive while queued work waits. Loop thread.
    func keepAliveForPendingWork() {
        let wakeup = pending.withLock { $0.work.isEmpty ? nil : $0.wakeup?.resource }
        wakeup?.ref()
        wakeup?.send()
        if !local.isEmpty {
            runLocalSoon()
        }
    }

    /// Has the loop thread's own work run on the loop's next turn: the idle
    /// handle runs (and keeps the loop alive) until it is done. Should the
    /// idle handle fail to start, the wake-up handle runs it instead. Loop
    /// thread.
    private func runLocalSoon() {
        do throws(UVError) {
            try localRunner?.resource.start()
        } catch {
            localWakeup?.send()
            localWakeup?.ref()
        }
    }

    /// Whether the loop thread's own work waits for the wake-up handle (the
    /// idle handle does not run it). Loop thread.
    private var localNeedsWakeup: Bool {
        !local.isEmpty && localRunner?.resource.isRunning != true
    }

    /// The loop's turn, before it polls: runs the loop thread's own work
    /// queued so far, once. Work it queues runs on the next turn, so I/O and
    /// timers are served between batches; the idle handle stops once
    /// nothing is left. Loop thread.
    func idleFired() {
        var batch = takeLocal()
        for work in batch {
            vitals.running(work.activity)
            work.run()
        }
        Self.recycle(&batch, into: &spare)
        if local.isEmpty {
            localRunner?.resource.stop()
        }
    }

    /// The loop thread's own work queued so far; `local` starts again with
    /// the spare's capacity. Loop thread.
    private func takeLocal() -> [LoopWork] {
        var batch: [LoopWork] = []
        swap(&batch, &spare)
        swap(&batch, &local)
        return batch
    }

    /// Empties a batch that has run and keeps its capacity in `spare`,
    /// up to `LoopWorkQueue.keptCapacity` items: a burst's array is let go.
    /// Loop thread.
    private static func recycle(_ batch: inout [LoopWork], into spare: inout [LoopWork]) {
        if batch.capacity > keptCapacity {
            batch = []
        } else {
            batch.removeAll(keepingCapacity: true)
        }
        if batch.capacity >= spare.capacity {
            swap(&batch, &spare)
        }
    }

    /// The most items whose room a spare array keeps.
    private static let keptCapacity = 4096

    /// Runs what was queued when the loop woke up. Work queued while it
    /// runs (an async job that yields, two actors calling each other) waits
    /// for the next iteration, so I/O and timers are served between
    /// batches; the wake-up handle stays referenced until the queue is
    /// empty.
    func asyncWokeUp() {
        // The loop thread's own work first: what other threads queued
        // before it went to `pending` ahead of anything queued after.
        var batch = takeLocal()
        // Other threads' work changes places with their spare array.
        var others: [LoopWork] = []
        swap(&others, &othersSpare)
        pending.withLock { pending in
            othersWaiting.store(false, ordering: .releasing)
            swap(&others, &pending.work)
        }
        for work in batch {
            vitals.running(work.activity)
            work.run()
        }
        for work in others {
            vitals.running(work.activity)
            work.run()
        }
        Self.recycle(&batch, into: &spare)
        Self.recycle(&others, into: &othersSpare)
        if local.isEmpty {
            localRunner?.resource.stop()
        }
        let (wakeup, isEmpty, keepsLoopAlive) = pending.withLock { pending in
            // The loop thread's own work keeps the loop alive through the
            // idle handle, which runs it.
            (pending.wakeup?.resource, pending.work.isEmpty && !localNeedsWakeup, pending.keepsLoopAlive)
        }
        if !isEmpty {
            // Sent already by whoever queued it; referenced so that an
            // otherwise idle loop runs it before `run()` returns.
            wakeup?.ref()
        } else if !keepsLoopAlive {
            wakeup?.unref()
        }
    }

    /// Refuses further work and closes the wake-up handle. Loop thread.
    ///
    /// - Returns: work queued after the last drain and accepted before the
    ///   queue closed; the caller runs it, since `enqueue` promised it would.
    func close() -> [LoopWork] {
        var leftover: [LoopWork] = []
        swap(&leftover, &local)
        localWakeup = nil
        localRunner.take()?.release()
        leftover += pending.withLock { pending -> [LoopWork] in
            pending.isClosed = true
            othersWaiting.store(false, ordering: .releasing)
            defer { pending.work.removeAll() }
            return pending.work
        }
        let wakeup = pending.withLock { pending in pending.wakeup.take() }
        wakeup?.release()
        return leftover
    }
}
