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
/// (`rx.writable` turns `true`) or the stream closes. A write called off
/// the loop thread goes there after the check, which sees the queue as of
/// the writes before it: the queue may pass the high watermark by one
/// write.
///
/// Errors: every write of a writer reports to one observer, which keeps
/// the first failure (`EPIPE`, `ECONNRESET`, `ENOTCONN` on a closed
/// stream, `ECANCELED` when it closes first) for the writer to throw. A
/// write that fails during its `write` (on the loop thread, the kernel's
/// refusal is known at once) or while `write` waits throws its `UVError`
/// there; one that was queued and fails after `write` returned is thrown
/// by the next `write` or `finish()`; if the writer is released first, the
/// failure is reported (the loop's logger, standard error by default),
/// never lost. Cancelling the Task of a suspended `write` throws
/// `CancellationError`; the bytes stay queued (a write cannot be taken
/// back).
///
/// Each call runs on the caller's executor and resumes there
/// (`nonisolated(nonsending)`): on the loop's thread for an actor on the
/// loop or a task that prefers it. One writer per producer: calls on one
/// writer are ordered by the caller (`await` each).
public final class ByteStreamOutbound: Sendable {
    /// The stream written to.
    public let stream: any ByteStream
    private let failures: ParkedWriteFailure
    /// The observer of every write: parks a failure in `failures`.
    private let outcomes: WriteOutcomes

    /// A writer for `stream`.
    public init(_ stream: any ByteStream) {
        self.stream = stream
        // The stream is held, as the writer holds it (a weak reference would
        // give the stream a side table, and every retain and release of it
        // the runtime's slow path, on each read and write).
        self.failures = ParkedWriteFailure(loop: stream.loop, peer: { [stream] in stream.peerDescription })
        self.outcomes = WriteOutcomes(failures)
    }

    deinit {
        failures.writerReleased()
    }

    /// Writes `bytes`; suspends while the stream's write queue is above its
    /// high watermark. See the type's documentation for when it returns and
    /// what it throws.
    nonisolated(nonsending) public func write(_ bytes: ByteBuffer) async throws {
        try await send { [stream, outcomes] in _ = stream.write(bytes, notifying: outcomes) }
    }

    /// Writes `buffers` in order, as one write (`ByteStream.write(_:)` of an
    /// array); suspends as `write(_:)` of one buffer does.
    nonisolated(nonsending) public func write(_ buffers: [ByteBuffer]) async throws {
        try await send { [stream, outcomes] in _ = stream.write(buffers).asObservable().subscribe(outcomes) }
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

    /// Starts a write with `start` (its outcome goes to `outcomes`), then
    /// returns, throws or waits as the type's documentation says. The
    /// write cannot be taken back, so nothing keeps its subscription.
    nonisolated(nonsending) private func send(_ start: () -> Void) async throws {
        try failures.throwParked()
        start()
        // A write refused at once (on the loop thread) is this one's error.
        try failures.throwParked()
        guard !stream.isWritable else { return }
        try await RoomWaiter().wait(for: stream.writability)
        try failures.throwParked()
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

/// A writer's failure that no `write` has thrown yet: the first of its
/// writes that failed. The `write` that made it throws it when it failed
/// at once, else the next `write`; once the writer is released it is
/// reported instead.
final class ParkedWriteFailure: Sendable {
    private struct State {
        var failure: UVError?
        var writerAlive = true
    }

    private let state = Mutex(State())
    /// Whether `state` holds a failure: read without the lock by
    /// `throwParked`, which a writer calls twice a write.
    private let parked = Atomic<Bool>(false)
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
        // A failure parked on another thread after this load is thrown by
        // the next call, as one parked just after the lock would be.
        guard parked.load(ordering: .acquiring) else { return }
        let failure = state.withLock { state -> UVError? in
            parked.store(false, ordering: .relaxed)
            return state.failure.take()
        }
        if let failure {
            throw failure
        }
    }

    /// A write failed (the first failure is kept until thrown).
    func park(_ failure: UVError) {
        let unheard = state.withLock { state -> Bool in
            guard state.writerAlive else { return true }
            if state.failure == nil {
                state.failure = failure
                parked.store(true, ordering: .releasing)
            }
            return false
        }
        if unheard {
            report(failure, context)
        }
    }

    /// The writer went away: a parked failure can reach no one else.
    func writerReleased() {
        let unthrown = state.withLock { state -> UVError? in
            state.writerAlive = false
            parked.store(false, ordering: .relaxed)
            return state.failure.take()
        }
        if let unthrown {
            report(unthrown, context)
        }
    }
}

/// What every write of one `ByteStreamOutbound` reports to: a failure is
/// parked for the writer to throw (or, with the writer gone, reported); a
/// completion needs nothing. One object for all the writer's writes.
private final class WriteOutcomes: ObserverType, Sendable {
    typealias Element = Never

    private let failures: ParkedWriteFailure

    init(_ failures: ParkedWriteFailure) {
        self.failures = failures
    }

    func on(_ event: Event<Never>) {
        guard case .error(let failure) = event else { return }
        failures.park(failure as? UVError ?? UVError(code: .ioError, operation: "write (\(failure))"))
    }
}

/// One `write` waiting for room: until the stream turns writable or
/// closes (`rx.writable` says `true` or ends), or its Task is cancelled.
/// Its outcome is decided once, under its lock, whichever thread comes
/// first.
private final class RoomWaiter: Sendable {
    private enum State {
        case idle
        case waiting(UnsafeContinuation<Void, Error>)
        case done
        /// Cancelled before it waited.
        case cancelled
    }

    private let state = Mutex(State.idle)
    /// The subscription to `rx.writable` while waiting.
    private let room = SingleAssignmentDisposable()

    /// Waits for room; throws `CancellationError` when the Task is
    /// cancelled.
    nonisolated(nonsending) func wait(for writability: Observable<Bool>) async throws {
        defer { room.dispose() }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, Error>) in
                let cancelled = state.withLock { state -> Bool in
                    guard case .idle = state else { return true }
                    state = .waiting(continuation)
                    return false
                }
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                room.setDisposable(
                    writability.subscribe { [self] event in
                        switch event {
                        case .next(false): break
                        case .next(true), .completed, .error: resume(with: .success(()))
                        }
                    })
            }
        } onCancel: {
            resume(with: .failure(CancellationError()))
        }
    }

    private func resume(with result: Result<Void, Error>) {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, Error>? in
            switch state {
            case .waiting(let continuation):
                state = .done
                return continuation
            case .idle:
                // Cancelled before it waited: `wait` throws.
                state = .cancelled
                return nil
            case .done, .cancelled:
                return nil
            }
        }
        waiter?.resume(with: result)
    }
}
