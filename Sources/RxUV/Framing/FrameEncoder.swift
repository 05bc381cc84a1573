import RxCore

/// Turns frames into bytes: the other half of `FrameDecoder`.
///
/// `encode(_:into:)` appends a frame's bytes to a list of buffers, as many as
/// it needs (a header and a body go as two, so the body is never copied to
/// sit behind its header); a stream writes the list as one vectored write.
/// A frame that cannot be encoded (a frame too long for its length header, a
/// line that holds a line feed) throws, and nothing is appended.
public protocol FrameEncoder {
    /// What the encoder takes.
    associatedtype Frame

    /// Appends `frame`'s bytes to `buffers`, or throws without appending.
    func encode(_ frame: Frame, into buffers: inout [ByteBuffer]) throws
}

extension ObservableType {
    /// Each element encoded by `encoder`, as one buffer (the encoder's
    /// buffers joined). Fails with the encoder's error. Events arrive on the
    /// source's thread.
    ///
    ///     frames (LineEncoder):  -a----b---|
    ///     bytes:                 -[a\n]-[b\n]-|
    public func encodeFrames<Encoder: FrameEncoder>(_ encoder: Encoder) -> Observable<ByteBuffer> where Encoder.Frame == Element {
        map { frame in
            var buffers: [ByteBuffer] = []
            try encoder.encode(frame, into: &buffers)
            return buffers.count == 1 ? buffers[0] : ByteBuffer(concatenating: buffers)
        }
    }
}

extension ByteStream {
    /// Writes `frame` encoded by `encoder`, as one vectored write of the
    /// encoder's buffers (`write(_:)` of an array). Fails at subscription
    /// with the encoder's error, writing nothing; otherwise as `write(_:)`.
    public func write<Encoder: FrameEncoder>(_ frame: Encoder.Frame, using encoder: Encoder) -> Completable {
        var buffers: [ByteBuffer] = []
        do {
            try encoder.encode(frame, into: &buffers)
        } catch {
            return .error(error)
        }
        return buffers.count == 1 ? write(buffers[0]) : write(buffers)
    }
}
