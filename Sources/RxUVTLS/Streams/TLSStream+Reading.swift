@_spi(Bridge) import RxCore
import RxUV

/// Reading: the transport's ciphertext in, the reader's plaintext out, and
/// the transport's reading held back while nobody takes plaintext.
extension TLSStream {
    /// Makes `reader` the stream's one reader: it hears the plaintext once
    /// the handshake is done, the end of each batch's handling, and the end
    /// of reading (`close_notify`, or the failure). A second reader ends at
    /// once with `EBUSY`; one on a closed stream with its failure or
    /// `ENOTCONN`. Loop thread.
    public func beginReading(_ reader: any ByteStreamReader) {
        guard state.value.reader == nil else {
            reader.ended(UVError(code: .busy, operation: "TLSStream.data (another subscriber is reading)", address: peerDescription))
            return
        }
        if case .closed(let failure) = state.value.phase {
            reader.ended(failure ?? UVError(code: .notConnected, operation: "TLSStream.data", address: peerDescription))
            return
        }
        state.value.reader = reader
        deliver()
        flush()
    }

    /// Stops telling `reader`, if it is the stream's reader: the transport
    /// stops reading, and a stream on its own closes after its writes
    /// (with `close_notify`). Loop thread.
    public func endReading(_ reader: any ByteStreamReader) {
        guard state.value.reader === reader else { return }
        state.value.reader = nil
        state.value.demandHeld = false
        if lifetime == .readSubscription {
            closeGracefully()
        } else {
            updateTransportHold()
        }
    }

    /// The transport read `bytes`, ended (`.completed`) or failed.
    func transportEvent(_ event: Event<ByteBuffer>) {
        switch event {
        case .next(let bytes):
            guard !state.value.phase.isClosed, let engine = state.value.engine else { return }
            engine.feed(bytes)
            if state.value.phase.isHandshaking {
                advanceHandshake()
            }
            if state.value.phase.isEstablished {
                deliver()
            }
            flush()
        case .completed:
            transportEnded()
        case .error(let error):
            fail(error)
        }
    }

    /// Hands the reader what plaintext the records fed so far hold, in
    /// batches as large as the loop's read buffer, then tells it the read's
    /// handling is over (`readComplete`): inside the transport's read, so
    /// what the reader writes meanwhile is held by the transport and goes
    /// out with the rest of that read's writes, as one transport write.
    func deliver() {
        var told: (any ByteStreamReader)?
        defer {
            if let told, told === state.value.reader {
                told.readComplete()
            }
        }
        while state.value.phase.isEstablished, let reader = state.value.reader, !state.value.demandHeld,
            let engine = state.value.engine
        {
            let scratch = loop.readBuffer
            var filled = 0
            var outcome = TLSEngine.ReadOutcome.needsInput
            while filled < scratch.count {
                outcome = engine.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[filled...]))
                guard case .bytes(let count) = outcome else { break }
                filled += count
            }
            if filled > 0 {
                // A large batch keeps the loop's buffer it was read into, as
                // a plain stream's large read does: no copy.
                let taken = Loop.isLargeRead(filled) ? loop.takeReadStorage(holding: scratch.baseAddress!, count: filled) : nil
                let plaintext =
                    taken
                    ?? ByteBuffer(unsafeUninitializedCapacity: filled) { memory in
                        memory.copyMemory(from: UnsafeRawBufferPointer(rebasing: scratch[..<filled]))
                        return filled
                    }
                told = reader
                reader.received(plaintext)
            }
            switch outcome {
            case .bytes:
                continue
            case .needsInput:
                updateTransportHold()
                return
            case .closed:
                peerClosed()
                return
            case .failed(let error):
                fail(error.at(peerDescription))
                return
            }
        }
        updateTransportHold()
    }

    /// While nobody takes plaintext, the transport stops reading, so what
    /// the peer sends stays in the kernel.
    func updateTransportHold() {
        let hold = state.value.phase.isEstablished && (state.value.reader == nil || state.value.demandHeld)
        guard hold != state.value.transportHeld else { return }
        state.value.transportHeld = hold
        transport.holdReading(hold)
    }

    /// The peer sent `close_notify`: the reader completes; a stream on its
    /// own closes (after its writes).
    private func peerClosed() {
        let reader = state.value.reader
        state.value.reader = nil
        reader?.ended(nil)
        if lifetime == .readSubscription {
            closeGracefully()
        }
    }

    /// The transport's reading ended: closed here (quietly), or the peer's
    /// end of input, which without `close_notify` is an unclean shutdown.
    private func transportEnded() {
        guard !state.value.phase.isClosed, let engine = state.value.engine else { return }
        if transport.isClosed {
            // Closed under us (a server's reset at a drain's deadline).
            finish(closeNotify: false, transport: .now)
            return
        }
        if state.value.phase.isHandshaking {
            fail(TLSError(code: .uncleanShutdown, reason: "the peer closed the connection during the handshake", operation: "TLS handshake", address: peerDescription))
            return
        }
        engine.endOfInput()
        // What is left is read out, then OpenSSL says how it ended. With no
        // reader, the end waits for one.
        state.value.demandHeld = false
        deliver()
    }
}
