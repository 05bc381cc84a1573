import RxCore
import Synchronization

extension Loop {
    /// Runs `body` as a task on this loop (its task executor: the body
    /// runs on the loop thread, and so does every async call it makes that
    /// has no executor of its own), and runs the loop (`run()`) until the
    /// body has returned and the loop's work is done: a command-line tool's
    /// `main` is one call.
    ///
    /// The loop keeps running while the body waits, also for work on other
    /// executors. Returns the body's result or rethrows its error. Call it
    /// on the loop's thread, as `run()`. If `stop()` ends the run before the
    /// body has returned, throws `ECANCELED`; the body's task then goes on
    /// when the loop runs again (which no longer waits for it). On a closed
    /// loop, throws `EINVAL` and runs nothing.
    public func run<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) throws -> Result {
        guard !isClosed else {
            throw UVError(code: UVError.Code.invalidArgument, operation: "Loop.run (the loop is closed)")
        }
        let outcome = Mutex<Swift.Result<Result, any Error>?>(nil)
        keepRunning(true)
        Task(executorPreference: self) {
            let result: Swift.Result<Result, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            // On the loop thread: the loop may return once its work is done.
            self.keepRunning(false)
        }
        run()
        guard let result = outcome.withLock({ $0 }) else {
            // Stopped: a later `run()` returns when idle again.
            keepRunning(false)
            throw UVError(code: UVError.Code.cancelled, operation: "Loop.run (stopped before the body returned)")
        }
        return try result.get()
    }
}
