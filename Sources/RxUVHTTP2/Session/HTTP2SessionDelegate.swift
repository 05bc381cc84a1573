/// What an `HTTP2Session` tells its owner, called back by nghttp2 while the
/// session receives or produces its output. Loop thread.
package protocol HTTP2SessionDelegate: AnyObject {
    /// A header block begins on `stream`: a request's head on a new
    /// stream (`isRequest`, a server's session), or a response's head, an
    /// interim response's or trailers.
    func sessionBeginsFields(stream: Int32, isRequest: Bool)
    /// One field of `stream`'s header block (or trailers), pseudo-fields
    /// first, names in lower case, both checked by nghttp2 (RFC 9113
    /// §8.2). `false` resets the stream.
    func sessionField(stream: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool
    /// `stream`'s header block is whole (its CONTINUATIONs included):
    /// the request's head, or its trailers; `endsStream` when the
    /// request has no more.
    func sessionFieldsEnded(stream: Int32, endsStream: Bool)
    /// DATA for `stream`: bytes of its body (valid during the call).
    func sessionData(stream: Int32, _ bytes: UnsafeRawBufferPointer)
    /// `stream`'s DATA ended its request.
    func sessionDataEnded(stream: Int32)
    /// A frame that costs the peer nothing to send and the server work
    /// came: the delegate may end the session for too many
    /// (`HTTP2Session.terminate`).
    func sessionFreeFrame(_ kind: HTTP2FreeFrame)
    /// The peer's SETTINGS arrived: its limits (the concurrent streams it
    /// takes) now apply.
    func sessionPeerSettings()
    /// The peer sent GOAWAY: it takes no stream above `lastStream` (those
    /// were not processed, and may be sent again elsewhere); `code` says
    /// why (0 for a graceful shutdown).
    func sessionGoAway(lastStream: Int32, code: UInt32)
    /// `stream` closed, with `code` (`noError` when it ended well).
    func sessionStreamClosed(stream: Int32, code: UInt32)
    /// The frame that ends `stream`'s response went out.
    func sessionSentEnd(stream: Int32)
    /// The next piece of `stream`'s response body, written into `buffer`.
    func sessionBody(stream: Int32, into buffer: UnsafeMutableRawBufferPointer) -> HTTP2BodyChunk
}

/// What a response body's reader gives nghttp2 for its next DATA frame.
package enum HTTP2BodyChunk {
    /// `count` bytes written; `last`: the body ends with them.
    case bytes(Int, last: Bool)
    /// `count` bytes written, the body's last; the stream does not end
    /// with them: the delegate submitted trailers
    /// (`HTTP2Session.submitTrailers`), whose HEADERS end it.
    case lastBeforeTrailers(Int)
    /// Nothing yet: asked again after `HTTP2Session.resumeBody`.
    case deferred
    /// The body cannot go on: the stream is reset.
    case failed
}

/// The frames a peer may send for nothing and make the server work.
package enum HTTP2FreeFrame {
    /// A PING or SETTINGS (not an acknowledgement): answered with one.
    case control
    /// A RST_STREAM: the stream's work was begun for nothing (rapid
    /// reset).
    case reset
}
