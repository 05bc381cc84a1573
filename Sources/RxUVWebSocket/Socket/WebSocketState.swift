import RxCore
import RxUVHTTP

/// Everything of a `WebSocket` that changes, on its loop's thread.
///
/// Where the socket stands is `phase`: open (both sides may send); closing
/// (this side sent its Close and waits for the peer's, `closeTimer`
/// running); or ended (`outcome` says how, the stream closes after its
/// writes).
struct WebSocketState {
    enum Phase {
        case open
        case closing
        case ended
    }

    var phase = Phase.open
    /// This side's Close went out.
    var sentClose = false
    /// The one subscriber of `messages`, while it is subscribed.
    var observer: ((Event<WebSocketMessage>) -> Void)?
    /// Messages that came before `messages` was subscribed, and their size.
    var unread: [WebSocketMessage] = []
    var unreadBytes = 0
    /// How `messages` ends, kept for a subscriber that comes after.
    var ending: Event<WebSocketMessage>?
    /// The wait for the peer's Close.
    var closeTimer: Disposable?
    /// The keep-alive pings' ticks, and the wait for the last ping's pong.
    var keepAlive: Disposable?
    var pongTimer: Disposable?
    var pingsSent: UInt32 = 0
    /// The streamed message being received, while it is.
    var inboundStream: HTTPBodySource?
    /// The number of the stream being sent, while one is (counted by
    /// `streamsSent`, so that a stream's end is told from a later one's);
    /// other data frames wait meanwhile, in order, in `waitingSends`.
    var streamBeingSent: Int?
    var streamsSent = 0
    var waitingSends: [() -> Void] = []
    /// permessage-deflate's sending half, when it was agreed.
    var deflater: WebSocketDeflater?
    /// How the socket ended.
    var outcome: WebSocketClose?
    /// Who waits to hear it (`closed`, the server's connection), by key.
    var endWatchers: [(key: Int, watcher: (WebSocketClose) -> Void)] = []
    var endWatchersMade = 0
}
