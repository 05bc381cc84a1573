@_spi(Bridge) import RxCore

/// Reading: the one reader, the read gate (`uv_read_start`,
/// `uv_read_stop`), and each read handed on (`uv_read_cb`). Loop thread.
extension StreamConnection {
    /// Holds the current reader's reading back for `reason` (the read
    /// gate); nothing while no one reads, since the reasons belong to the
    /// reader and go with it. Loop thread.
    final func pauseReading(for reason: ReadGate.Reasons) {
        guard reader != nil, handle.isOpen else { return }
        if state.value.readGate.close(for: reason) {
            handle.stopReading()
        }
    }

    /// Lets go of `reason`; reading resumes when no reason is left. Loop
    /// thread.
    final func resumeReading(for reason: ReadGate.Reasons) {
        guard state.value.readGate.open(for: reason), reader != nil, handle.isOpen else { return }
        do throws(UVError) {
            try handle.startReading()
        } catch {
            failReader(error)
        }
    }

    /// Makes `reader` the stream's one reader (`uv_read_start`; the
    /// handle's target is this stream while it reads): it hears each read,
    /// the end of each read's handling, and the end of reading, on the loop
    /// thread. A second reader ends at once with `EBUSY`; one on a closed
    /// or closing stream with `ENOTCONN`. Loop thread.
    public final func beginReading(_ reader: any ByteStreamReader) {
        guard self.reader == nil else {
            reader.ended(error(.busy, "StreamConnection.data (another subscriber is reading)"))
            return
        }
        guard handle.isOpen, !state.value.writes.closesWhenDrained else {
            reader.ended(error(.notConnected, "StreamConnection.data"))
            return
        }
        self.reader = reader
        handle.target = self
        do throws(UVError) {
            try handle.startReading()
        } catch {
            failReader(error)
        }
    }

    /// Ends the reading of `reader`, if it is the stream's reader: stops
    /// reading (`uv_read_stop`) and, for a stream whose life is its
    /// reading, closes it once the queued writes are flushed. Loop thread.
    public final func endReading(_ reader: any ByteStreamReader) {
        guard self.reader === reader else { return }
        detachReader()
        if lifetime == .readSubscription {
            closeGracefully()
        } else if handle.isOpen {
            handle.stopReading()
        }
    }

    /// A read subscription ended before it read: a stream whose life is its
    /// read subscription closes once its queued writes are flushed, as
    /// `endReading` would close it; an owner's stream stays. Loop thread.
    final func readEndedUnread() {
        if lifetime == .readSubscription {
            closeGracefully()
        }
    }

    /// Forgets the reader, and the reasons it was held back for; the handle
    /// no longer calls this stream.
    func detachReader() {
        reader = nil
        state.value.readGate = ReadGate()
        handle.target = nil
    }

    /// The reader ends with `error`, and the stream closes now.
    func failReader(_ error: UVError) {
        let reader = self.reader
        detachReader()
        reader?.ended(error)
        closeNow()
    }

    /// A large read keeps the loop's buffer it landed in: no copy (a
    /// memmove was a twelfth of a throughput echo's CPU). Apart from
    /// `streamDidRead`, whose small reads would otherwise pay for its
    /// references.
    @inline(never)
    private func largeRead(_ bytes: UnsafeRawPointer, count: Int) -> ByteBuffer {
        loop.takeReadStorage(holding: bytes, count: count)
            ?? ByteBuffer.copying(bytes, count: count, reusing: &state.value.spareReadStorage)
    }

    /// A read completed (`uv_read_cb`, this stream being the handle's
    /// target while it reads): the bytes go to the reader, once.
    final func streamDidRead(_ count: Int, _ bytes: UnsafeRawPointer?) {
        if count > 0, let bytes {
            guard let reader else {
                lingered(count)
                return
            }
            state.value.lastActivity = loop.clockMilliseconds
            state.value.traffic?.read(count)
            // A small read is copied out, into storage its size. In place
            // (through LoopBound's `_modify`): a copy of the reference would
            // make the spare storage look shared, never reused.
            let received =
                Loop.isLargeRead(count)
                ? largeRead(bytes, count: count)
                : ByteBuffer.copying(bytes, count: count, reusing: &state.value.spareReadStorage)
            // What the reader writes while it handles the read goes out
            // together, in one write, once it is handled.
            state.value.writes.held.handling(true)
            reader.received(received)
            reader.readComplete()
            state.value.writes.held.handling(false)
            flushCoalesced()
        } else if state.value.lingering != nil {
            // The peer's end, or an error: nothing more to drop.
            closeNow()
        } else if count == Int(UVError.Code.endOfFile.rawValue) {
            handle.stopReading()
            let reader = self.reader
            detachReader()
            reader?.ended(nil)
            if lifetime == .readSubscription {
                closeGracefully()
            }
        } else if count < 0 {
            failReader(UVError(status: Int32(count), operation: "uv_read", address: peerDescription))
        }
    }
}
