import RxCore
import RxUV
import RxUVHTTP

/// What an HTTP/2 connection holds, on its loop thread, in its one
/// `LoopBound`.
struct HTTP2ServerConnectionState {
    /// Where the connection's life stands, and what each stage holds.
    enum Phase {
        /// Not started yet.
        case waiting
        /// Serving streams.
        case serving(HTTP2Session)
        /// A GOAWAY went out: the streams in hand are answered, no new
        /// one is taken; the connection ends when none is left.
        case draining(HTTP2Session)
        /// Over.
        case closed
    }

    var phase = Phase.waiting
    /// The life's observer, told when the connection should close.
    var observer: ((CompletableEvent) -> Void)?
    /// The open streams, by identifier.
    var streams: [Int32: HTTP2ServerStream] = [:]
    /// Streams begun on this connection.
    var streamCount = 0
    /// The session refused the peer's input; its GOAWAY goes out, then
    /// the connection ends.
    var sessionFailed = false
    /// The peer's input ended.
    var inputEnded = false
    /// Since when no stream is open (`Loop.monotonicNanoseconds`).
    var idleSince: Int64?
    /// Since when a header block is being received (HTTP/2 allows one at
    /// a time on a connection), and on which stream.
    var headerBlockSince: Int64?
    var headerBlockStream: Int32 = 0
    /// The one timer that checks the timeouts, and when it fires.
    var timer: Disposable?
    var timerDue: Int64 = 0
    /// PING and SETTINGS frames the peer may still send.
    var controlBudget: HTTP2FrameBudget
    /// RST_STREAM frames the peer may still send.
    var resetBudget: HTTP2FrameBudget
    var dates = HTTPDateCache()
    var peer: String?

    init(controlBudget: HTTP2FrameBudget, resetBudget: HTTP2FrameBudget) {
        self.controlBudget = controlBudget
        self.resetBudget = resetBudget
    }
}
