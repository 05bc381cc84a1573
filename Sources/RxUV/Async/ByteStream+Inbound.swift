@_spi(Bridge) import RxCore

extension ByteStream {
    /// The bytes the peer sends as an `AsyncSequence`, one `ByteBuffer` per
    /// read, with backpressure: iterate with `for try await`.
    ///
    /// The iteration subscribes to `rx.data` when it asks for its first
    /// element and ends as `rx.data` does: `nil` at end of input, the read's
    /// `UVError` thrown (`ECONNRESET`). Reads that arrive while the consumer
    /// is busy are buffered; when more than `highWatermark` bytes are held
    /// (the buffer, and the read the consumer handles until it asks for the
    /// next), the stream stops reading (`holdReading(true)`: `uv_read_stop`, the
    /// demand reason of the read gate), and when the consumer asks for the
    /// next read with `lowWatermark` bytes or fewer held, it reads again. The kernel's socket
    /// buffer then fills and TCP's own flow control slows the peer, so a
    /// slow consumer holds at most `highWatermark` plus one read in memory.
    ///
    /// The watermarks count bytes, not reads: a read is anything from one
    /// byte to 64 KiB, so a bound in reads (SwiftNIO's `NIOAsyncChannel`
    /// counts messages, 2 and 10 by default) bounds no memory for a byte
    /// stream; a bound in bytes does.
    ///
    /// Cancellation follows `values`: what has arrived is handed out even in
    /// a cancelled Task; a `next()` that would wait in a cancelled Task
    /// throws `CancellationError`. Leaving the loop early (`break`, a thrown
    /// error, cancellation) ends the read subscription: a stream on its own
    /// closes once its queued writes are flushed, a `Server`'s connection
    /// stays until its handler ends.
    ///
    /// `next()` runs on the iterating code's executor and resumes there:
    /// on the loop's thread for an actor whose executor is the loop or a
    /// task that prefers it (no hop per read); elsewhere the read crosses
    /// to that executor. One iteration at a time, as `rx.data` allows one
    /// reader: a second concurrent one throws `EBUSY`.
    ///
    /// - Parameters:
    ///   - highWatermark: above this many buffered bytes reading pauses.
    ///     Default 256 KiB.
    ///   - lowWatermark: at or below this many buffered bytes paused reading
    ///     resumes (kept at or below `highWatermark`). Default 64 KiB.
    public func inbound(highWatermark: Int = 256 * 1024, lowWatermark: Int = 64 * 1024) -> ObservableValues<ByteBuffer> {
        let demand = AsyncValuesDemand<ByteBuffer>(
            highWatermark: highWatermark, lowWatermark: lowWatermark,
            weight: { $0.count },
            pause: { [self] in holdReading(true) },
            resume: { [self] in holdReading(false) },
            subscribe: ByteBufferValuesObserver.subscribe
        )
        return ObservableValues(source: receivedData, demand: demand)
    }

    /// The bytes the peer sends as an `AsyncSequence` with backpressure at
    /// the default watermarks (256 KiB, 64 KiB): see
    /// `inbound(highWatermark:lowWatermark:)`.
    public var inbound: ObservableValues<ByteBuffer> {
        inbound()
    }
}
