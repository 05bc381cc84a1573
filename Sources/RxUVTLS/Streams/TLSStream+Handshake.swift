@_spi(Bridge) import RxCore
import RxUV

/// The handshake: its start with its deadline, its steps as the peer's
/// flights arrive, and what waits for its end. Loop thread.
extension TLSStream {
    /// Starts reading the transport and the handshake, with its deadline:
    /// a client's first flight goes out now; a server has nothing to say
    /// before the client's hello, and takes its first step when it comes
    /// (a step with no input would only set up, and with released buffers
    /// free again, the record buffers the hello needs).
    func start() {
        if case .closed(let failure) = state.value.phase {
            // No engine: nothing was sent; the transport goes.
            reportUnheard(failure)
            transport.close(.now)
            return
        }
        let timeout = context.configuration.handshakeTimeout
        if timeout > .zero {
            handshakeTimer.setDisposable(
                loop.scheduleRelative((), dueTime: RxTimeInterval(timeout)) { [weak self] _ in
                    self?.handshakeTimedOut()
                    return Disposables.create()
                })
        }
        let reader = TLSTransportReader(self, transport: transport)
        transport.beginReading(reader)
        transportReading.setDisposable(reader)
        guard state.value.phase.isHandshaking, state.value.engine?.role == .client else { return }
        advanceHandshake()
        flush()
    }

    /// One step of the handshake with what the peer sent so far. Done, the
    /// stream opens: the held writes go out in order, the `handshake`
    /// subscribers complete, and a close asked for meanwhile goes ahead.
    func advanceHandshake() {
        guard let engine = state.value.engine else { return }
        switch engine.handshake() {
        case .needsInput:
            return
        case .failed(let error):
            fail(error.at(peerDescription))
        case .done:
            guard case .handshaking(let wait) = state.value.phase else { return }
            state.value.phase = .open
            sessionCell.withLock { $0 = engine.session() }
            handshakeTimer.dispose()
            heldBytes.store(0, ordering: .relaxed)
            updateHeldWritability()
            for write in wait.held {
                switch write {
                case .write(let payload, let pending): _ = startWrite(payload, notifying: pending)
                case .shutdown(let completion): halfClose(completion)
                }
            }
            wait.waiters.forEach { $0.completion(nil) }
            if wait.closeAfterHandshake {
                closeGracefully()
            }
        }
    }

    /// `waiter` hears the handshake's end: later, at once if it is over.
    func awaitHandshake(_ waiter: HandshakeWaiter) {
        switch state.value.phase {
        case .handshaking:
            state.value.phase.withHandshake { $0.waiters.append(waiter) }
        case .open, .closing:
            waiter.completion(nil)
        case .closed:
            waiter.completion(sessionCell.withLock { $0 } != nil ? nil : closedError("TLS handshake"))
        }
    }

    /// A `handshake` subscriber disposed: it is no longer told.
    func dropWaiter(_ waiter: HandshakeWaiter) {
        state.value.phase.withHandshake { $0.waiters.removeAll { $0 === waiter } }
    }

    /// The deadline passed with the handshake still under way: it fails
    /// with `.handshakeTimeout` and the transport is reset.
    func handshakeTimedOut() {
        guard state.value.phase.isHandshaking else { return }
        let timeout = context.configuration.handshakeTimeout
        fail(TLSError(code: .handshakeTimeout, reason: "no handshake within \(timeout)", operation: "TLS handshake", address: peerDescription), transport: .reset)
    }
}
