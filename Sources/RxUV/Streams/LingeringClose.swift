internal import CLibUV
import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// A graceful close that lingers (RFC 9112 §9.6; nginx's
/// `lingering_close`). Closing a socket whose peer's bytes are still
/// unread makes the kernel send a reset, and a reset can erase the last
/// answer (a 431 to a client still sending its head) before the peer reads
/// it. So when the queued writes are out and bytes wait unread, the stream
/// first half-closes (the peer sees the answer end), then reads and drops
/// what arrives, and closes at the peer's end, after `byteLimit` bytes, or
/// after `timeLimit`, whichever comes first. With nothing unread it closes
/// at once. Loop-thread state of a `StreamConnection`.
struct LingeringClose {
    /// The most a lingering close drops before it closes anyway.
    static let byteLimit = 1 << 20
    /// The longest a lingering close waits for the peer's end.
    static let timeLimit = RxTimeInterval.seconds(2)

    /// What may still be dropped.
    var bytesLeft = byteLimit
    /// The close at `timeLimit`.
    var timer: Disposable?
}

extension StreamConnection {
    /// The writes of a graceful close are out: closes now, or lingers
    /// first when the peer's bytes wait unread. Loop thread.
    final func closeAfterWrites() {
        guard handle.isOpen, state.value.lingering == nil else { return }
        guard let socket = handle.descriptor, Self.unreadBytes(socket) > 0 else {
            closeNow()
            return
        }
        do throws(UVError) {
            _ = try systemCall("shutdown", address: peerDescription) { Glibc.shutdown(socket, Int32(SHUT_WR)) }
            if let reader {
                detachReader()
                reader.ended(nil)
            }
            state.value.lingering = LingeringClose()
            handle.target = self
            try handle.startReading()
        } catch {
            // A peer already gone: nothing to linger for.
            closeNow()
            return
        }
        let timer = loop.scheduleRelative((), dueTime: LingeringClose.timeLimit) { [self] _ in
            closeNow()
            return Disposables.create()
        }
        state.value.lingering?.timer = timer
    }

    /// `count` bytes arrived with no reader: dropped while lingering (the
    /// stream closes once the limit is reached).
    final func lingered(_ count: Int) {
        guard state.value.lingering != nil else { return }
        state.value.lingering?.bytesLeft -= count
        if let left = state.value.lingering?.bytesLeft, left <= 0 {
            closeNow()
        }
    }

    /// The stream closes: a lingering close's timer stops.
    final func endLingering() {
        guard let timer = state.value.lingering?.timer else {
            state.value.lingering = nil
            return
        }
        state.value.lingering = nil
        timer.dispose()
    }

    /// The bytes `socket` has received and nobody has read; 0 when that
    /// cannot be told (not a socket).
    private static func unreadBytes(_ socket: Int32) -> Int {
        var count: Int32 = 0
        return rxuv_unread_bytes(socket, &count) == 0 ? Int(count) : 0
    }
}
