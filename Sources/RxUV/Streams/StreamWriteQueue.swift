/// The write queue of a libuv stream (`StreamConnection`), apart from the
/// stream's reads and its handle: the writes held while a read is handled
/// (`CoalescedWrites`), the `uv_write` requests in flight, and whether the
/// stream closes once they are done (a graceful close that waits for them).
/// What can be decided without libuv is decided here; the stream makes the
/// calls (`uv_try_write`, `uv_write`, `uv_close`). Loop-thread state.
struct StreamWriteQueue {
    /// The writes held while a read is handled.
    var held = CoalescedWrites()
    /// `uv_write` requests not yet completed.
    private(set) var inFlight = 0
    /// The stream closes when the last request in flight completes.
    private(set) var closesWhenDrained = false

    /// No request in flight: a new write may try the kernel at once, and a
    /// graceful close may close now.
    var isDrained: Bool {
        inFlight == 0
    }

    /// A `uv_write` was queued.
    mutating func requestQueued() {
        inFlight += 1
    }

    /// A `uv_write` completed.
    mutating func requestCompleted() {
        inFlight -= 1
    }

    /// A graceful close waited for the requests in flight, and none is left:
    /// the stream closes now. Asked after the completion's effects (a write
    /// made when the stream turned writable again still counts).
    var closesNow: Bool {
        closesWhenDrained && inFlight == 0
    }

    /// A graceful close waits for the requests in flight.
    mutating func closeWhenDrained() {
        closesWhenDrained = true
    }

    /// Takes the held writes out as one payload (their buffers in order),
    /// with the writes whose subscribers hear the outcome; `nil` when none
    /// is held. Unless `holdingOn`, holds nothing more until the next
    /// read's handling, so a write chained on one of these goes out at
    /// once; with it (a batch sent early, past the high watermark), the
    /// read's later writes are held for the handling's end as before.
    mutating func takeHeld(holdingOn: Bool = false) -> (payload: StreamWritePayload, writes: [CoalescedWrites.Write])? {
        guard !held.writes.isEmpty else { return nil }
        if !holdingOn {
            held.stopHolding()
        }
        let writes = held.take()
        if writes.count == 1 {
            return (writes[0].payload, writes)
        }
        var buffers: [ByteBuffer] = []
        for write in writes {
            switch write.payload {
            case .one(let buffer): buffers.append(buffer)
            case .many(let many): buffers.append(contentsOf: many)
            }
        }
        return (.many(buffers), writes)
    }

    /// Tells each write's subscriber, in order, unless its subscription was
    /// disposed: completed, or `error`.
    static func tell(_ writes: [CoalescedWrites.Write], _ error: UVError?) {
        for write in writes where !write.cancellation.isCancelled {
            if let error {
                write.observer.on(.error(error))
            } else {
                write.observer.onCompleted()
            }
        }
    }
}
