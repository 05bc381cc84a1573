/// The one reader of a stream's bytes, as the stream tells it (the events
/// of SwiftNIO's `channelRead`, `channelReadComplete` and
/// `channelInactive`): what `rx.data`'s subscription is, what a stream
/// layered on another (TLS) reads its transport with, and what a
/// protocol's connection may implement to hear where each read's handling
/// ends. A stream takes one with `ByteStream.beginReading(_:)`.
///
/// Every call comes on the stream's loop thread, in this order:
/// `received` once per read, then `readComplete` once that read's
/// handling is over, any number of times; then `ended` once, and nothing
/// after it.
public protocol ByteStreamReader: AnyObject {
    /// One read's bytes. What the reader writes to the stream while it
    /// handles them (here, and in `readComplete`), after the first write,
    /// is held and goes out with the others as one write once the read's
    /// handling ends.
    func received(_ bytes: ByteBuffer)

    /// The handling of the read just received is over: the last moment to
    /// add to the read's batch of writes, which the stream hands on as one
    /// write right after this returns. A layered stream (TLS) passes it on
    /// to its own reader.
    func readComplete()

    /// The end of reading: `nil` at end of input or when the stream closed,
    /// else the error (the read's `UVError`, a TLS stream's `TLSError`).
    /// Nothing follows.
    func ended(_ error: (any Error)?)
}

extension ByteStreamReader {
    /// Nothing: a reader that does not ask where a read's handling ends.
    public func readComplete() {}
}
