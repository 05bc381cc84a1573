@_spi(Bridge) import RxCore

/// The stream's end: a graceful close after the queued writes, and the
/// close now (`uv_close`, or a reset). Loop thread.
extension StreamConnection {
    /// Stops reading and closes the stream once the queued writes are
    /// flushed. Loop thread.
    final func closeGracefully() {
        guard handle.isOpen else { return }
        flushCoalesced()
        handle.stopReading()
        closedFlag.store(true, ordering: .releasing)
        if state.value.writes.isDrained {
            closeAfterWrites()
        } else {
            state.value.writes.closeWhenDrained()
        }
    }

    /// Closes the handle now (with a reset where the stream has one and
    /// `reset` is set) and ends the reader and `rx.writable`. Loop thread.
    final func closeNow(reset: Bool = false) {
        closedFlag.store(true, ordering: .releasing)
        guard handle.isOpen else { return }
        if reset {
            handle.closeWithReset()
        } else {
            handle.close()
        }
        queuedBytes.store(0, ordering: .relaxed)
        state.value.spareReadStorage.release()
        endLingering()
        failCoalesced(writeError(.cancelled))
        // The reader first: its chain ends before `rx.writable` says the
        // stream has closed.
        if let reader {
            detachReader()
            reader.ended(nil)
        }
        writabilitySignal.complete()
        let onClosed = state.value.onClosed
        state.value.onClosed = nil
        onClosed?()
    }
}
