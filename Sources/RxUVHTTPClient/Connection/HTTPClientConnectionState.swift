import RxCore
import RxUV
import RxUVHTTP

/// Everything of an `HTTPClientConnection` that changes, in one
/// `LoopBound`.
///
/// Where the connection stands is `exchange`, `isUpgraded` and `isClosed`
/// together: idle in its pool (no exchange; the idle deadline runs), carrying an
/// exchange (sending its request, `requestSent` once the body is handed
/// on; then reading its response, `responseEnded` at the end), switched
/// to another protocol and out of its pool (`isUpgraded`), or closed.
struct HTTPClientConnectionState {
    /// The exchange in hand.
    var exchange: HTTPClientExchange?
    /// The request's whole body is handed on.
    var requestSent = false
    /// The request's head went out with `Expect: 100-continue` and its body
    /// waits for `100 Continue` (or `continueTimer`).
    var awaitsContinue = false
    /// A write of the request failed: what the exchange fails with if no
    /// response comes before the input ends.
    var writeFailure: (any Error)?
    /// The response's head arrived.
    var headArrived = false
    /// Bytes of the response arrived (a retry is safe only before).
    var bytesArrived = false
    /// The response ended.
    var responseEnded = false
    /// The connection may carry another request after this response.
    var keepAlive = true
    /// The response's body, while it arrives.
    var responseBody: HTTPBodySource?
    /// The inflater of a compressed response body, when one is read.
    var contentDecoder: HTTPContentDecoder?
    /// The request body's work (a stream's subscription, a file's write);
    /// a no-op when there is none (`Disposables.take`).
    var bodyWork: Disposable = Disposables.create()
    /// The exchanges this connection carried to their end.
    var served = 0
    /// The deadline of the head (`headTimeout`), of `100 Continue`, or of
    /// the idle time in the pool: one at a time, on one timer.
    var deadline = HTTPDeadline()
    /// The peer's input ended (what the decoder then refuses is a message
    /// cut short by the close).
    var inputEnded = false
    /// Reading is held for the response body's reader.
    var isHoldingReading = false
    /// The server switched protocols for an upgrade: the connection has
    /// left its pool, and `responseBody` carries what the server sends.
    var isUpgraded = false
    var isClosed = false
}
