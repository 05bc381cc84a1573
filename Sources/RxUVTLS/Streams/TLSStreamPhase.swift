import RxUV

/// Where a `TLSStream` is in its life, with what each stage holds. Kept in
/// the stream's `LoopBound` state: loop thread only.
enum TLSStreamPhase {
    /// The handshake runs; `TLSHandshakeWait` holds what waits for its end.
    case handshaking(TLSHandshakeWait)
    /// The handshake is done: plaintext flows both ways.
    case open
    /// `shutdown()` sent `close_notify`: writes fail with `EPIPE`; reading
    /// goes on until the peer's `close_notify` or the transport's end.
    case closing
    /// Closed. `failure` is why, for a reader, a write or a handshake
    /// subscriber that comes later (`nil`: closed by its owner or cleanly).
    case closed(failure: (any Error)?)

    /// Open or closing: the handshake is done and the stream reads.
    var isEstablished: Bool {
        switch self {
        case .open, .closing: true
        case .handshaking, .closed: false
        }
    }

    var isHandshaking: Bool {
        if case .handshaking = self { return true }
        return false
    }

    var isClosed: Bool {
        if case .closed = self { return true }
        return false
    }

    /// Runs `body` on the handshake's waits in place (the arrays are not
    /// copied); `nil`, and `body` not run, past the handshake.
    @discardableResult
    mutating func withHandshake<Result>(_ body: (inout TLSHandshakeWait) -> Result) -> Result? {
        guard case .handshaking(var wait) = self else { return nil }
        self = .open
        defer { self = .handshaking(wait) }
        return body(&wait)
    }
}

/// What waits for a TLS handshake's end: the writes and half-close made
/// before it (sent, in order, when it ends; failed when the stream closes
/// first), the `handshake` subscribers, and a graceful close asked for
/// while writes were held.
struct TLSHandshakeWait {
    /// A write (or a half-close) made before the handshake ended.
    enum HeldWrite {
        case write(StreamWritePayload, PendingTLSWrite)
        case shutdown(TLSStream.Completion)
    }

    var held: [HeldWrite] = []
    var waiters: [HandshakeWaiter] = []
    /// `close(.afterWrites)` came while writes were held: the stream closes
    /// once they have gone out.
    var closeAfterHandshake = false

    /// Someone hears how the handshake ends.
    var isHeard: Bool {
        !held.isEmpty || !waiters.isEmpty
    }
}

/// One subscriber of `handshake`, waiting for it to end.
final class HandshakeWaiter: Sendable {
    let completion: TLSStream.Completion

    init(_ completion: @escaping TLSStream.Completion) {
        self.completion = completion
    }
}
