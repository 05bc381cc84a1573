import RxCore
import Synchronization

/// The writing half of a stream for `async` code: `try await write(…)`
/// hands bytes to the stream and suspends only while the stream's write
/// queue is above its high watermark, so a fast producer is held to the
/// stream's pace with bounded memory. Made by `ByteStream.outbound`.
///
/// A write goes out as `ByteStream.write(_:)` sends it (`uv_try_write`,
/// then `uv_write` for what the kernel did not take), in order behind the
/// writes before it. `write` returns as soon as the bytes are written or
/// queued while the stream is writable; when the queue is above
/// `highWatermark` it suspends until the queue drains to `lowWatermark`
/// (`rx.writable` turns `true`), the write completes, or the stream
/// closes. A write called off the loop thread hops there first, so its
/// check sees the queue as of the writes before it: the queue may pass
/// the high watermark by one write.
///
/// Errors: a write that fails while `write` waits for it throws its
/// `UVError` (`EPIPE`, `ECONNRESET`, `ENOTCONN` on a closed stream,
/// `ECANCELED` when it closes first). A write that was queued and fails
/// after `write` returned is thrown by the next `write` or `finish()`; if
/// the writer is released first, the failure is reported (the loop's
/// logger, standard error by default), never lost. Cancelling the Task
/// of a suspended `write` throws `CancellationError`; the bytes stay
/// queued (a write cannot be taken back).
///
/// Each call runs on the caller's executor and resumes there
/// (`nonisolated(nonsending)`): on the loop's thread for an actor on the
/// loop or a task that prefers it. One writer per producer: calls on one
/// writer are ordered by the caller (`await` each).
public final class ByteStreamOutbound: Sendable {
    /// The stream written to.
    public let stream: any ByteStream
    private let failures: ParkedWriteFailure

    /// A writer for `stream`.
    public init(_ stream: any ByteStream) {
        self.stream = stream
        self.failures = ParkedWriteFailure(loop: stream.loop, peer: { [weak stream] in stream?.peerDescription })
    }

    deinit {
        failures.writerReleased()
    }

    /// Writes `bytes`; suspends while the stream's write queue is above its
    /// high watermark. See the type's documentation for when it returns and
    /// what it throws.
    nonisolated(nonsending) public func write(_ bytes: ByteBuffer) async throws {
        try await send { [stream] pending in _ = stream.write(bytes, notifying: pending) }
    }

    /// Writes `buffers` in order, as one write (`ByteStream.write(_:)` of an
    /// array); suspends as `write(_:)` of one buffer does.
    nonisolated(nonsending) public func write(_ buffers: [ByteBuffer]) async throws {
        try await send { [stream] pending in pending.start(stream.write(buffers)) }
    }

    /// Ends the writing half: after the queued writes, the peer sees end of
    /// input (`shutdown()`: `uv_shutdown` on a libuv stream); returns when
    /// that is done. Throws a queued write's failure not yet thrown, or the
    /// shutdown's error.
    nonisolated(nonsending) public func finish() async throws {
        try failures.throwParked()
        try await stream.shutdown().value
        try failures.throwParked()
    }

    /// Starts a write with `start`, which hands the write its observer, and
    /// returns, throws or waits as the type's documentation says.
    nonisolated(nonsending) private func send(_ start: (PendingWrite) -> Void) async throws {
        try failures.throwParked()
        let pending = PendingWrite(failures: failures)
        start(pending)
        switch pending.afterStart(writable: stream.isWritable) {
        case .done(nil), .returned:
            return
        case .done(let error?):
            throw error
        case .mustWait:
            try await pending.waitForRoom(stream.writability)
        }
    }
}

extension ByteStream {
    /// A writer for `async` code with backpressure: `try await
    /// connection.outbound.write(bytes)` suspends while the write queue is
    /// above `highWatermark`. Keep one writer per producer, so a queued
    /// write's failure is thrown by the next write (see
    /// `ByteStreamOutbound`).
    public var outbound: ByteStreamOutbound {
        ByteStreamOutbound(self)
    }
}

/// A writer's failure that no `write` has thrown yet: a queued write that
/// failed after its `write` returned. The next `write` throws it; once the
/// writer is released it is reported instead.
final class ParkedWriteFailure: Sendable {
    private struct State {
        var failure: UVError?
        var writerAlive = true
    }

    private let state = Mutex(State())
    private let loop: Loop
    /// The peer a report names, written out only for a report.
    private let peer: @Sendable () -> String?

    /// Parks for a writer of a stream on `loop` whose peer `peer` tells,
    /// the context a report names.
    init(loop: Loop, peer: @escaping @Sendable () -> String?) {
        self.loop = loop
        self.peer = peer
    }

    private var context: ReportContext {
        ReportContext(loop: loop, peer: peer())
    }

    /// Throws the parked failure, once.
    func throwParked() throws(UVError) {
        if let failure = state.withLock({ state in state.failure.take() }) {
            throw failure
        }
    }

    /// A queued write failed after its `write` returned.
    func park(_ failure: UVError) {
        let unheard = state.withLock { state -> Bool in
            guard state.writerAlive else { return true }
            if state.failure == nil {
                state.failure = failure
            }
            return false
        }
        if unheard {
            report(failure, context)
        }
    }

    /// The writer went away: a parked failure can reach no one else.
    func writerReleased() {
        let parked = state.withLock { state -> UVError? in
            state.writerAlive = false
            return state.failure.take()
        }
        if let parked {
            report(parked, context)
        }
    }
}

/// One `ByteStreamOutbound.write`: the write's observer, and, when the
/// queue is above its high watermark, the wait for room. Its outcome is
/// decided once, under its lock, whichever thread reports first.
private final class PendingWrite: ObserverType, @unchecked Sendable {
    // @unchecked Sendable: the state is read and written under its lock;
    // the room subscription is a thread-safe disposable.
    typealias Element = Never

    enum Outcome {
        /// The write is done (`nil`) or failed.
        case done(UVError?)
        /// The write is queued and the stream writable: `write` returned.
        case returned
        /// The write is queued above the high watermark: `write` waits.
        case mustWait
    }

    private enum State {
        case running
        case finished(UVError?)
        /// `write` waits; the subscription watches for room.
        case waiting(UnsafeContinuation<Void, Error>, SingleAssignmentDisposable)
        case detached
    }

    private let state = Mutex(State.running)
    private let failures: ParkedWriteFailure

    init(failures: ParkedWriteFailure) {
        self.failures = failures
    }

    /// Subscribes to the write: on the loop thread with nothing queued it
    /// is done before this returns. The subscription is not kept: a write
    /// cannot be taken back, and its end releases this observer.
    func start(_ write: Completable) {
        _ = write.asObservable().subscribe(self)
    }

    /// What `write` does now: return, throw, or wait.
    func afterStart(writable: Bool) -> Outcome {
        state.withLock { state -> Outcome in
            switch state {
            case .finished(let error):
                return .done(error)
            case .running where writable:
                state = .detached
                return .returned
            default:
                return .mustWait
            }
        }
    }

    /// Waits until the queue drains to the low watermark, the write ends
    /// or the stream closes; throws the write's error, or
    /// `CancellationError`.
    nonisolated(nonsending) func waitForRoom(_ writability: Observable<Bool>) async throws {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, Error>) in
                let room = SingleAssignmentDisposable()
                let ready = state.withLock { state -> Result<Void, Error>? in
                    switch state {
                    case .finished(let error):
                        return error.map { .failure($0) } ?? .success(())
                    case .running:
                        state = .waiting(continuation, room)
                        return nil
                    case .waiting, .detached:
                        return .failure(CancellationError())
                    }
                }
                if let ready {
                    continuation.resume(with: ready)
                    return
                }
                // Disposed by whoever ends the wait, also before this sets it.
                room.setDisposable(
                    writability.subscribe { [self] event in
                        switch event {
                        case .next(false): break
                        case .next(true), .completed, .error: roomMade()
                        }
                    })
            }
        } onCancel: {
            resumeWaiter(with: .failure(CancellationError()))
        }
    }

    /// The write's outcome.
    func on(_ event: Event<Never>) {
        let error: UVError?
        switch event {
        case .completed: error = nil
        case .error(let failure): error = failure as? UVError ?? UVError(code: .ioError, operation: "write (\(failure))")
        }
        let (waiter, room, parks) = state.withLock { state -> (UnsafeContinuation<Void, Error>?, SingleAssignmentDisposable?, Bool) in
            switch state {
            case .running:
                state = .finished(error)
                return (nil, nil, false)
            case .waiting(let continuation, let room):
                state = .finished(error)
                return (continuation, room, false)
            case .detached:
                state = .finished(error)
                return (nil, nil, error != nil)
            case .finished:
                return (nil, nil, false)
            }
        }
        room?.dispose()
        if parks, let error {
            failures.park(error)
        }
        if let waiter {
            waiter.resume(with: error.map { .failure($0) } ?? .success(()))
        }
    }

    /// The stream turned writable or closed: the waiting `write` returns;
    /// the write, still queued, parks its failure if it fails.
    private func roomMade() {
        resumeWaiter(with: .success(()))
    }

    private func resumeWaiter(with result: Result<Void, Error>) {
        let taken = state.withLock { state -> (UnsafeContinuation<Void, Error>, SingleAssignmentDisposable)? in
            guard case .waiting(let continuation, let room) = state else {
                if case .running = state {
                    // Cancelled before it waited: `waitForRoom` throws.
                    state = .detached
                }
                return nil
            }
            state = .detached
            return (continuation, room)
        }
        guard let (waiter, room) = taken else { return }
        room.dispose()
        waiter.resume(with: result)
    }
}
