import RxCore

extension Reactive where Base: ByteStream {
    /// The bytes the peer sends, one `ByteBuffer` per read (for a libuv
    /// stream, `uv_read_start`).
    ///
    /// Completes at EOF (the peer half-closed or closed); errors with the
    /// `UVError` of a failed read (`ECONNRESET` for a reset). One reader at a
    /// time: a second concurrent subscriber gets `EBUSY`. Events arrive on
    /// the loop thread. When the subscription ends (EOF, error or dispose,
    /// from any thread) reading stops, and a stream on its own closes once
    /// the writes already queued are flushed (a `Server`'s connection
    /// closes when its handler ends instead).
    public var data: Observable<ByteBuffer> {
        base.receivedData
    }

    /// The stream's writability: its current value on subscribe (delivered on
    /// the subscribing thread), then `false` when more than `highWatermark`
    /// bytes wait to be written and `true` once they drain to
    /// `lowWatermark`, on the loop thread, as SwiftNIO's writability changes
    /// and Node's `'drain'`. Completes when the stream closes. Disposing only
    /// stops the notifications. Any number of subscribers.
    public var writable: Observable<Bool> {
        base.writability
    }
}
