import RxCore
import RxUVHTTP2

/// Everything of an `HTTP2ClientConnection` that changes, in one
/// `LoopBound`.
///
/// Where the connection stands is `session`, `isGoingAway` and `isClosed`
/// together: taking streams, going away (a GOAWAY came, or the client
/// shuts down, or the idle timeout passed: the streams open finish, no new
/// one begins), or closed.
struct HTTP2ClientConnectionState {
    /// The session, from the start until the connection closes.
    var session: HTTP2Session?
    /// The open streams, by identifier (each is attached to nghttp2's
    /// stream map too).
    var streams: [Int32: HTTP2ClientStream] = [:]
    /// The server's first SETTINGS arrived: until then no request is
    /// sent (its concurrent-stream limit is not known).
    var hasPeerSettings = false
    /// The connection takes no new stream.
    var isGoingAway = false
    /// The session refused the server's input: its GOAWAY goes out, then
    /// the connection closes.
    var sessionFailed: (any Error)?
    /// The exchanges this connection carried to their end.
    var served = 0
    /// Until the server's SETTINGS, the timer that bounds their wait
    /// (`connectTimeout`); then the idle timer, while no stream is open.
    var idleTimer: Disposable?
    /// The server's input ended.
    var inputEnded = false
    var isClosed = false
}
