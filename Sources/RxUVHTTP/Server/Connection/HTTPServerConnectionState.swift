import RxCore
import RxUV

/// Everything of an `HTTPServerConnection` that changes: its loop-thread
/// state, kept in one `LoopBound`.
///
/// Where the connection stands is `life` and `exchange` together:
/// - not started, serving, switched to another protocol, or closed (`life`);
/// - serving with no request in hand (`exchange.answer == nil`): reading the
///   next request's head, idle until its first byte (`deadline`);
/// - serving a request (`exchange.answer` set): reading its body until
///   its body has arrived whole (`HTTPServerConnection.isReceived`), answering from the handler's answer until
///   `exchange.answered`; requests behind it wait in `backlog`;
/// - draining (`acceptsNoMore`): the request in hand, if any, is the last.
struct HTTPServerConnectionState {
    /// The connection's life.
    enum Life {
        /// Made, not subscribed yet.
        case idle
        /// Serving: `observer` learns when the connection should close.
        case serving
        /// Switched to another protocol after a 101: HTTP reads and
        /// answers nothing more; `observer` learns when the upgrade's
        /// protocol ends (`HTTPServerConnection+Upgrade`).
        case upgraded
        /// Finished: nothing more is read, answered or told.
        case closed
    }

    var life = Life.idle
    /// Told once, when the connection should close; set while serving.
    var observer: ((CompletableEvent) -> Void)?
    /// The request in hand, if any.
    var exchange = HTTPExchangeState()
    /// The inputs behind the request in hand.
    var backlog = HTTPBacklog()
    /// The backlog is being handed on (`drainBacklog`): inputs it hands
    /// on that must wait go back behind it.
    var isDrainingBacklog = false
    /// The head or idle deadline.
    var deadline = HTTPDeadline()
    /// Why reading is held: inputs wait in the backlog, or a body's
    /// consumer has no room; and whether the stream is held now.
    var holdsForBacklog = false
    var holdsForBody = false
    var isHoldingReading = false
    var requestCount = 0
    /// No request after the one in hand (a drain, `Connection: close`, the
    /// request cap, a malformed request).
    var acceptsNoMore = false
    /// The peer's input ended.
    var inputEnded = false
    /// The last exchange made for a request, taken again for the next one
    /// once nothing else holds it. Let go by `finish`.
    var spareExchange: HTTPExchange?
    /// The storage of the last response head, for the next one once the
    /// kernel has taken it (`ByteBuffer.SpareStorage`).
    var spareHead = ByteBuffer.SpareStorage(keepLimit: 4096)
    var dates = HTTPDateCache()
    /// The peer's description, once asked for.
    var peer: String??

    /// The connection finished.
    @inline(__always) var isClosed: Bool { life == .closed }
}
