@_spi(Bridge) import RxCore
import RxUV

/// Writing: plaintext held until the handshake ends, then encrypted and
/// handed to the transport; the half-close; what OpenSSL writes on its own.
extension TLSStream {
    /// The stream's write primitive (`ByteStream.startWrite`), on the loop
    /// thread: before the handshake ends the plaintext is held, and goes
    /// out, in order, when it ends; after it, the bytes are encrypted at
    /// once and their records handed to the transport as one write, whose
    /// end is this write's end. Inside the transport's read handling, the
    /// transport holds the records after its first write and sends them
    /// with the rest of that read's writes. Fails with `ENOTCONN` on a
    /// closed stream, `ECANCELED` when it closes first, `EPIPE` after
    /// `shutdown()`, the `TLSError` of a failed connection, or the
    /// transport's write error. Disposing only stops the notification.
    public func startWrite<Observer: ObserverType>(_ payload: StreamWritePayload, notifying observer: Observer) -> Disposable where Observer.Element == Never {
        switch state.value.phase {
        case .open:
            guard let engine = state.value.engine else { return Disposables.create() }
            if let error = encrypt(payload, with: engine) {
                observer.on(.error(error))
                fail(error)
                return Disposables.create()
            }
            guard let ciphertext = engine.takeOutput() else {
                observer.on(.completed)
                return Disposables.create()
            }
            return transport.startWrite(.one(ciphertext), notifying: observer)
        case .handshaking:
            let pending = PendingTLSWrite(observer)
            heldBytes.add(payload.count, ordering: .relaxed)
            updateHeldWritability()
            state.value.phase.withHandshake { $0.held.append(.write(payload, pending)) }
            return pending
        case .closing:
            observer.on(.error(UVError(code: .brokenPipe, operation: "TLS write", address: peerDescription)))
            return Disposables.create()
        case .closed:
            observer.on(.error(closedError("TLS write")))
            return Disposables.create()
        }
    }

    /// Encrypts every buffer of `payload`; the error of the first that fails.
    private func encrypt(_ payload: StreamWritePayload, with engine: TLSEngine) -> TLSError? {
        switch payload {
        case .one(let buffer):
            return engine.write(buffer)?.at(peerDescription)
        case .many(let buffers):
            for buffer in buffers {
                if let error = engine.write(buffer) { return error.at(peerDescription) }
            }
            return nil
        }
    }

    /// Sends `close_notify` after what is queued, then half-closes the
    /// transport (held until the handshake ends). Loop thread.
    func halfClose(_ completion: @escaping Completion) {
        switch state.value.phase {
        case .closed:
            completion(closedError("TLS shutdown"))
            return
        case .handshaking:
            state.value.phase.withHandshake { $0.held.append(.shutdown(completion)) }
            return
        case .open:
            state.value.phase = .closing
            state.value.engine?.shutdown()
        case .closing:
            break
        }
        flush()
        _ = transport.shutdown().subscribe(
            onCompleted: { completion(nil) },
            onError: { completion($0) })
    }

    /// Hands the transport what OpenSSL wrote for the peer on its own (a
    /// handshake flight, an alert, `close_notify`), as one write nobody
    /// waits for: its failure ends the stream through its read side.
    func flush() {
        guard let ciphertext = state.value.engine?.takeOutput() else { return }
        _ = transport.startWrite(.one(ciphertext), notifying: UnwatchedTransportWrite())
    }

    /// `writability`'s held half: `false` above the high watermark, `true`
    /// again at the low one.
    func updateHeldWritability() {
        let bytes = heldBytes.load(ordering: .relaxed)
        if bytes > highWatermark {
            heldWritability.send(false)
        } else if bytes <= lowWatermark {
            heldWritability.send(true)
        }
    }
}
