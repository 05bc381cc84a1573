@_spi(Bridge) import RxCore

/// Writing: the write primitive, the write queue (`uv_try_write`, then
/// `uv_write`), the writes held while a read is handled, and writability.
/// Loop thread.
extension StreamConnection {
    /// The stream's write primitive (`ByteStream.startWrite`), on the loop
    /// thread: with nothing queued, the bytes go to the kernel at once
    /// (`uv_try_write`) and `observer` is told before this returns; what
    /// the kernel does not take is queued with `uv_write`, in order behind
    /// earlier writes, and told when libuv reports it done. While the
    /// stream's reader handles a read, only the first write goes out at
    /// once: the ones after it are held and go out together, in one write
    /// call, when the handling ends (after the reader's `readComplete`),
    /// and are told then; a `shutdown()` or `close(.afterWrites)` made
    /// meanwhile goes after them. Errors: the `UVError` libuv reports
    /// (`EPIPE`, `ECONNRESET`), `ECANCELED` if the stream closes first,
    /// `ENOTCONN` if it was closed already, with the operation and the
    /// peer's address. Disposing the result only stops the notification.
    public final func startWrite<Observer: ObserverType>(_ payload: StreamWritePayload, notifying observer: Observer) -> Disposable where Observer.Element == Never {
        if holdsNextWrite() {
            return hold(payload, for: observer)
        }
        switch writeAtOnce(payload) {
        case .written:
            observer.onCompleted()
            return Disposables.create()
        case .failed(let error):
            observer.on(.error(error))
            return Disposables.create()
        case .mustQueue(let offset):
            let notification = WriteNotification()
            queueWrite(payload, from: offset) { error in
                guard !notification.isCancelled else { return }
                if let error {
                    observer.on(.error(error))
                } else {
                    observer.onCompleted()
                }
            }
            return notification
        }
    }

    /// The subject behind `rx.writable`: made on first use with the current
    /// writability, completed already when the stream is closed.
    final func writabilitySubject() -> BehaviorSubject<Bool> {
        writabilitySignal.subject(current: isWritable, closed: isClosed)
    }

    /// Records a writability change and tells `rx.writable`. Loop thread.
    func setWritable(_ writable: Bool) {
        writableFlag.store(writable, ordering: .releasing)
        writabilitySignal.send(writable)
    }

    /// Writes what the kernel takes of `payload` now (`uv_try_write`), when
    /// nothing is queued before it. Loop thread only.
    final func writeAtOnce(_ payload: StreamWritePayload) -> StreamWriteAttempt {
        guard handle.isOpen else {
            return .failed(writeError(.notConnected))
        }
        guard state.value.writes.isDrained else { return .mustQueue(from: 0) }
        let written = payload.withBuffers(from: 0) { buffers, count in handle.tryWrite(buffers, count: count) }
        if written > 0 {
            state.value.traffic?.wrote(written)
        }
        if written == payload.count {
            state.value.lastActivity = loop.clockMilliseconds
            return .written
        }
        if written >= 0 {
            return .mustQueue(from: written)
        }
        if written == Int(UVError.Code.wouldBlock.rawValue) {
            return .mustQueue(from: 0)
        }
        return .failed(writeError(UVError.Code(rawValue: Int32(written))))
    }

    /// Queues `payload` from byte `offset` on with `uv_write`, behind the
    /// writes already queued; `completion` gets `nil` or the write's error
    /// (with its operation and the peer's address). Loop thread only.
    final func queueWrite(_ payload: StreamWritePayload, from offset: Int, completion: @escaping (UVError?) -> Void) {
        guard handle.isOpen else {
            completion(writeError(.notConnected))
            return
        }
        do throws(UVError) {
            let queued = payload.count - offset
            _ = try WriteRequest(stream: handle, payload: payload, from: offset, peer: peerDescription) { [self] status in
                if status >= 0 {
                    state.value.traffic?.wrote(queued)
                }
                state.value.writes.requestCompleted()
                writeFinished()
                if state.value.writes.closesNow {
                    closeAfterWrites()
                }
                completion(status < 0 ? writeError(UVError.Code(rawValue: status)) : nil)
            }
            state.value.writes.requestQueued()
            updateQueue()
            if isWritable, queuedBytes.load(ordering: .relaxed) > highWatermark {
                pauseReading(for: .writeBackpressure)
                setWritable(false)
            }
        } catch {
            completion(error)
        }
    }

    // MARK: Writes made while a read is handled

    /// Whether a write made now on the loop thread is held, to go out with
    /// the others of the read being handled (`CoalescedWrites`): not the
    /// first write of a read's handling, nor one made outside one. Loop
    /// thread.
    @inline(__always)
    final func holdsNextWrite() -> Bool {
        handle.isOpen && state.value.writes.held.holdsNextWrite()
    }

    /// Holds a write (`holdsNextWrite()` said so) until the read's handling
    /// ends; the returned disposable (from any thread) stops its
    /// notification. Loop thread.
    ///
    /// Held bytes count against `highWatermark` like queued ones: past it,
    /// the batch goes out now, so that the write queue, and with it the
    /// backpressure (unwritable, reading paused), sees them. A read
    /// answered with many or large writes (pipelined commands whose
    /// replies outweigh them) holds at most a high watermark of them here.
    final func hold(_ payload: StreamWritePayload, for observer: any ObserverType<Never>) -> Disposable {
        let cancellation = state.value.writes.held.hold(payload, for: observer)
        if state.value.writes.held.heldBytes > highWatermark {
            flushCoalesced(holdingOn: true)
        }
        return cancellation
    }

    /// Writes the held writes as one: one `uv_try_write`, and one `uv_write`
    /// for what the kernel did not take; each subscriber is told the
    /// outcome, in order. With `holdingOn` (a batch past the high
    /// watermark), the read's later writes are held again. Loop thread.
    final func flushCoalesced(holdingOn: Bool = false) {
        // Most reads are answered with one write or none: nothing held.
        guard !state.value.writes.held.writes.isEmpty else { return }
        // A flush inside a handling (a graceful close, a shutdown) stops
        // holding: writes chained on these go out at once from here on.
        guard let (payload, batch) = state.value.writes.takeHeld(holdingOn: holdingOn) else { return }
        switch writeAtOnce(payload) {
        case .written:
            StreamWriteQueue.tell(batch, nil)
        case .failed(let error):
            StreamWriteQueue.tell(batch, error)
        case .mustQueue(let offset):
            queueWrite(payload, from: offset) { error in StreamWriteQueue.tell(batch, error) }
        }
    }

    /// Fails the held writes with `error` (the stream closed first), made
    /// only when there are some: it names the peer, which takes formatting.
    /// Loop thread.
    func failCoalesced(_ error: @autoclosure () -> UVError) {
        guard !state.value.writes.held.writes.isEmpty else { return }
        StreamWriteQueue.tell(state.value.writes.held.take(), error())
    }

    /// The error of a failed write.
    final func writeError(_ code: UVError.Code) -> UVError {
        error(code, "uv_write")
    }

    private func writeFinished() {
        state.value.lastActivity = loop.clockMilliseconds
        updateQueue()
        if !isWritable, queuedBytes.load(ordering: .relaxed) <= lowWatermark {
            resumeReading(for: .writeBackpressure)
            if handle.isOpen {
                setWritable(true)
            }
        }
    }

    private func updateQueue() {
        queuedBytes.store(handle.isOpen ? handle.writeQueueSize : 0, ordering: .relaxed)
    }
}
