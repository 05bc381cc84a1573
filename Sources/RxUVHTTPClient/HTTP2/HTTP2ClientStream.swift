import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2

/// One exchange on an HTTP/2 connection: its request's body on its way
/// into DATA frames, its response's head as its fields arrive, and its
/// body, whose stream window opens only as the caller reads. Cancelling
/// the exchange, letting the body go or its timeout resets this stream
/// alone; the connection goes on. Loop thread; the connection holds it
/// from the request's submission until the stream closes.
// @unchecked Sendable: its mutable fields are touched on the connection's
// loop thread only (a paced body's pace asks it from its Task, which runs
// on that loop).
final class HTTP2ClientStream: HTTP2WindowedStream, HTTPExchangeCarrier, HTTP2BodySender, @unchecked Sendable {
    let connection: HTTP2ClientConnection
    let exchange: HTTPClientExchange
    /// The stream's identifier, once submitted.
    var id: Int32 = 0

    // The request.
    var outbound = HTTP2BodyQueue()
    /// A streamed body's subscription; a no-op when there is none
    /// (`Disposables.take`).
    var bodyWork: Disposable = Disposables.create()
    /// A paced body's pace.
    var pace: BehaviorSubject<Bool>?
    /// The frame that ends the request went out.
    var requestSent = false

    // The response's head, while its fields arrive.
    var status: Int?
    var fields = HTTPFields()
    /// The head's size as RFC 9113 §6.5.2 counts it (name, value, 32).
    var fieldListSize = 0
    /// Why the head cannot be taken, once it is whole.
    var refusal: (any Error)?
    /// The final head arrived (interim ones are skipped).
    var headArrived = false
    /// Bytes of the response arrived (a retry is safe only before).
    var bytesArrived = false

    // The response's body.
    var body: HTTPBodySource?
    var contentDecoder: HTTPContentDecoder?
    /// What the body's window holds back until the caller reads.
    var window = HTTP2StreamWindow()
    /// The response's trailer fields, as they arrive.
    var trailers: HTTPFields?
    /// The response ended (END_STREAM).
    var responseEnded = false

    /// The head timeout, until the head arrives; a no-op otherwise
    /// (`Disposables.take`).
    var timer: Disposable = Disposables.create()
    /// The stream closed: nothing more is done for it.
    var isClosed = false

    init(connection: HTTP2ClientConnection, exchange: HTTPClientExchange) {
        self.connection = connection
        self.exchange = exchange
    }

    // MARK: HTTPExchangeCarrier

    func abort(_ exchange: HTTPClientExchange) {
        connection.cancel(self)
    }

    func responseFailed(_ error: any Error) {
        connection.fail(self, error)
    }

    // MARK: HTTP2BodySender

    var loop: Loop {
        connection.loop
    }

    var isSendingBody: Bool {
        !isClosed && !requestSent
    }

    func bodyAppended() {
        connection.resume(self)
    }

    /// A request sends no trailers (`HTTPClientRequestBody` has none).
    var hasTrailers: Bool {
        false
    }

    func bodyFailed(_ error: any Error) {
        connection.requestBodyFailed(self, error)
    }

    // MARK: HTTPBodyConnection

    func windowMayOpen() {
        connection.giveBack(self)
    }

    /// The reader left before the body's end: the stream is reset
    /// (`CANCEL`), the connection goes on.
    func bodyAbandoned(_ body: HTTPBodySource) {
        connection.cancel(self)
    }
}
