@_spi(Bridge) import RxCore
import RxUV

/// The stream's end: the close modes, a failure, and `finish`, the one way
/// every path closes. Loop thread.
extension TLSStream {
    /// Flushes the writes, sends `close_notify`, closes the transport after
    /// them. Before the handshake ends with writes held, waits for it.
    func closeGracefully() {
        switch state.value.phase {
        case .closed:
            return
        case .handshaking(let wait) where !wait.held.isEmpty:
            state.value.phase.withHandshake { $0.closeAfterHandshake = true }
        case .handshaking:
            finish(closeNotify: false, transport: .afterWrites)
        case .open, .closing:
            finish(closeNotify: true, transport: .afterWrites)
        }
    }

    /// Closes now: `close_notify` goes out when nothing waits ahead of it.
    func closeNow() {
        let idle = state.value.phase.isEstablished && transport.writeQueueSize == 0
        finish(closeNotify: idle, transport: idle ? .afterWrites : .now)
    }

    /// The connection failed: everyone waiting hears `error` (or, with no
    /// one, it is reported), the alert OpenSSL wrote goes out, and the
    /// transport closes.
    func fail(_ error: any Error, transport mode: StreamCloseMode = .afterWrites) {
        let heard: Bool
        switch state.value.phase {
        case .closed: return
        case .handshaking(let wait): heard = state.value.reader != nil || wait.isHeard
        case .open, .closing: heard = state.value.reader != nil
        }
        finish(closeNotify: false, transport: mode, error: error)
        if !heard {
            reportUnheard(error)
        }
    }

    /// The one way the stream ends: the engine's last output goes out, every
    /// waiter hears `error` (or `ECANCELED`), the reader ends, the transport
    /// closes as `mode` says and is no longer read.
    func finish(closeNotify: Bool, transport mode: StreamCloseMode, error: (any Error)? = nil) {
        let before = state.value.phase
        if before.isClosed { return }
        state.value.phase = .closed(failure: error)
        closedFlag.store(true, ordering: .releasing)
        if closeNotify, case .open = before {
            state.value.engine?.shutdown()
        }
        if mode != .reset {
            flush()
        }
        handshakeTimer.dispose()
        if case .handshaking(let wait) = before {
            heldBytes.store(0, ordering: .relaxed)
            let cancelled = error ?? UVError(code: .cancelled, operation: "TLS write", address: peerDescription)
            for write in wait.held {
                switch write {
                case .write(_, let pending): pending.on(.error(cancelled))
                case .shutdown(let completion): completion(cancelled)
                }
            }
            let ended = error ?? UVError(code: .cancelled, operation: "TLS handshake", address: peerDescription)
            wait.waiters.forEach { $0.completion(ended) }
        }
        let reader = state.value.reader
        state.value.reader = nil
        reader?.ended(error)
        heldWritability.complete()
        transport.close(mode)
        transportReading.dispose()
    }

    /// The error for what comes after the close: its failure, or `ENOTCONN`.
    func closedError(_ operation: String) -> any Error {
        if case .closed(let failure?) = state.value.phase { return failure }
        return UVError(code: .notConnected, operation: operation, address: peerDescription)
    }

    /// Reports an error nobody heard (`report`, with the peer).
    func reportUnheard(_ error: (any Error)?) {
        guard let error else { return }
        report(error, ReportContext(loop: loop, peer: peerDescription, handle: "tls"))
    }
}
