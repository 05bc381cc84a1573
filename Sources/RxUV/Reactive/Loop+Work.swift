@_spi(Bridge) import RxCore
import Synchronization

extension Reactive where Base == Loop {
    /// Runs `body` on libuv's thread pool (`uv_queue_work`) and succeeds
    /// with what it returns, or fails with what it throws; the result
    /// arrives on the loop thread. For blocking calls (a compression, a
    /// hash, a synchronous library) that would otherwise stall every
    /// connection on the loop.
    ///
    /// Disposing before a pool thread has started `body` cancels it
    /// (`uv_cancel`): it never runs. After that it cannot be stopped; it runs
    /// to its end and its result is dropped.
    ///
    /// The pool is shared by the whole process: name lookups (`resolve`,
    /// `listen` and `connect` on host names), file reads and writes on
    /// regular files, and this. Its size is `UV_THREADPOOL_SIZE` (default 4,
    /// at most 1024), read once, when the pool first starts. Work that
    /// blocks for long holds a thread each: with as many long items as
    /// threads, every lookup and file operation waits behind them.
    public func work<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) -> Single<Value> {
        Single(
            raw: RequestSingle(loop: base, operation: "uv_queue_work") { loop, finish throws(UVError) in
                // Written by the pool thread, read on the loop thread after
                // libuv has reported the work done (which orders the two).
                let outcome = WorkOutcome<Value>()
                return try UVWork(loop: loop, work: { outcome.result = Result { try body() } }) { status in
                    if status < 0 {
                        finish(.failure(UVError(status: status, operation: "uv_queue_work")))
                    } else if let result = outcome.result {
                        finish(result)
                    }
                }
            })
    }
}

/// The result of one piece of work, handed from the pool thread to the loop
/// thread.
// @unchecked Sendable: written once on the pool thread before libuv's
// after-work callback, read on the loop thread in it; libuv's own queue
// lock orders the write before the read.
private final class WorkOutcome<Value>: @unchecked Sendable {
    var result: Result<Value, any Error>?
}
