import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

/// One stream of an HTTP/2 connection: its request's head as its fields
/// arrive, its body, the handler's answer and the response body on its
/// way out. What its request body asks of the connection (hold, let go,
/// drop the rest) it turns into flow control: the stream's window opens
/// only once the handler reads the body, and as it reads. It is also the
/// observer of the handler's `Single`, whose outcome it passes to the
/// connection from whatever thread it comes on. Loop thread otherwise; the
/// connection holds it from the request's HEADERS until the stream closes.
// @unchecked Sendable: its mutable fields are touched on the connection's
// loop thread only (a paced body's pace asks it from its Task, which runs
// on that loop); `on(_:)`, from any thread, reads only constants.
final class HTTP2ServerStream: HTTP2WindowedStream, HTTP2BodySender, ObserverType, @unchecked Sendable {
    let id: Int32
    /// Held strongly: a handler's `Single` may answer after the stream
    /// closed (and the connection finished); the cycle through the
    /// connection's streams ends when the stream closes.
    let connection: HTTP2ServerConnection

    // The request's head, while its fields arrive.
    var method: String?
    var scheme: String?
    var authority: String?
    var path: String?
    var fields = HTTPFields()
    /// The head's size as RFC 9113 §6.5.2 counts it (name, value, 32).
    var fieldListSize = 0
    /// The head cannot be taken: the answer, once it is whole.
    var refusal: HTTPError?
    /// The head is whole and was handed on.
    var isDispatched = false

    // The request's body.
    var body: HTTPBodySource?
    /// What the body's window holds back until the handler reads.
    var window = HTTP2StreamWindow()
    /// The request's `content-length`, if it said one.
    var declaredLength: Int?
    /// DATA bytes received in all (for the body's reader).
    var received = 0
    /// DATA bytes dropped, nobody reading them.
    var discarded = 0
    /// The request was asked to stop (RST_STREAM `NO_ERROR`).
    var isResetSent = false
    /// The request has no more (END_STREAM received).
    var requestEnded = false

    // The answer.
    var requestMethod = HTTPRequest.Method.get
    var work: Disposable?
    var trace: HTTPServerTrace?
    var began: Int64?
    /// The response's head is submitted.
    var isAnswered = false
    /// The frame that ends the response went out.
    var responseEnded = false
    var outbound = HTTP2BodyQueue()
    /// The stream closed: nothing more is done for it.
    var isClosed = false
    /// A streamed body's pace, made when a paced body asks for it.
    var pace: BehaviorSubject<Bool>?
    /// What makes the response's trailers, when it has some.
    var trailers: (@Sendable () -> HTTPFields)?
    /// The request's trailer fields, as they arrive.
    var requestTrailers: HTTPFields?

    init(id: Int32, connection: HTTP2ServerConnection) {
        self.id = id
        self.connection = connection
    }

    // MARK: The handler's answer

    /// The handler's answer. A Single's grammar: one element or one error;
    /// the completion after an element is nothing more.
    func onNext(_ response: HTTPServerResponse) {
        connection.answered(.success(response), for: self)
    }

    func on(_ event: Event<HTTPServerResponse>) {
        switch event {
        case .next(let response): connection.answered(.success(response), for: self)
        case .error(let error): connection.answered(.failure(error), for: self)
        case .completed: break
        }
    }

    // MARK: HTTP2BodySender

    var loop: Loop {
        connection.loop
    }

    var isSendingBody: Bool {
        connection.isAnswering(self)
    }

    func bodyAppended() {
        connection.resume(self)
    }

    var hasTrailers: Bool {
        trailers != nil
    }

    func bodyFailed(_ error: any Error) {
        connection.bodyFailed(self, error)
    }

    // MARK: HTTPBodyConnection

    func windowMayOpen() {
        connection.giveBack(self)
    }

    func bodyAbandoned(_ body: HTTPBodySource) {
        connection.bodyAbandoned(self)
    }
}
