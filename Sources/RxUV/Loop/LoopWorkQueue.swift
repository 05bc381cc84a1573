import Synchronization

/// The work other threads hand to a loop (`Loop.enter`, `Loop.execute`):
/// one queue of typed items (`LoopWork`), and the `uv_async_t` that wakes
/// the loop to run them.
///
/// The queue is the wake-up handle's target: libuv coalesces sends, so each
/// wake-up drains everything queued so far. While nothing waits, the handle
/// is unreferenced, so an idle loop's `run()` can return.
// @unchecked Sendable: every field is in `pending`, under its lock.
final class LoopWorkQueue: UVAsyncTarget, @unchecked Sendable {
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

    /// Queues `work` and wakes the loop. `onLoopThread` says whether the
    /// caller is the loop thread (which then keeps the loop alive for it).
    /// Returns `false` if the queue is closed; `work` is then not run.
    func enqueue(_ work: LoopWork, onLoopThread: Bool) -> Bool {
        let wakeup = pending.withLock { pending -> UVAsync? in
            if pending.isClosed { return nil }
            pending.work.append(work)
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

    /// Installs `wakeup` and takes work again (after a failed close, or at
    /// the start). Loop thread.
    func open(with wakeup: UVAsync) {
        let keepsLoopAlive = pending.withLock { pending in
            pending.isClosed = false
            pending.wakeup = Owned(wakeup)
            return pending.keepsLoopAlive
        }
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
    }

    /// Runs everything queued, including work queued while running it.
    func asyncWokeUp() {
        while true {
            let batch = pending.withLock { pending -> [LoopWork] in
                defer { pending.work.removeAll(keepingCapacity: true) }
                return pending.work
            }
            if batch.isEmpty { break }
            for work in batch {
                work.run()
            }
        }
        let idleWakeup = pending.withLock { $0.keepsLoopAlive ? nil : $0.wakeup?.resource }
        idleWakeup?.unref()
    }

    /// Refuses further work and closes the wake-up handle. Loop thread.
    ///
    /// - Returns: work queued after the last drain and accepted before the
    ///   queue closed; the caller runs it, since `enqueue` promised it would.
    func close() -> [LoopWork] {
        let leftover = pending.withLock { pending -> [LoopWork] in
            pending.isClosed = true
            defer { pending.work.removeAll() }
            return pending.work
        }
        let wakeup = pending.withLock { pending in pending.wakeup.take() }
        wakeup?.release()
        return leftover
    }
}
