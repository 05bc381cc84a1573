import HTTPTypes
import RxCore
import RxUV

/// One request's answer: the observer of the handler's `Single`, which
/// passes its outcome to the connection, from whatever thread it comes on.
/// It holds nothing that changes: what the request and its answer have
/// reached is the connection's state (`HTTPExchangeState`), which names this
/// object as the answer it waits for, so an answer for a request no longer
/// in hand is recognised and dropped.
///
/// The connection holds the last one and takes it again for its next
/// request once nothing else holds it (the handler's `Single` is done with
/// it), so a request allocates none.
final class HTTPExchange: ObserverType, Sendable {
    /// The connection the answer goes to (none for a refusal, which
    /// answers in place of a handler). Held strongly: the cycle it makes
    /// with the connection's state ends when the exchange is over or the
    /// connection finishes, which also disposes the handler's `Single`, the
    /// exchange's other owner.
    private let connection: (any HTTPServerEvents)?

    init(connection: (any HTTPServerEvents)?) {
        self.connection = connection
    }

    /// The handler's answer. A Single's grammar: one element or one error;
    /// the completion after an element is nothing more.
    func on(_ event: Event<HTTPServerResponse>) {
        switch event {
        case .next(let response): connection?.answered(.success(response), for: self)
        case .error(let error): connection?.answered(.failure(error), for: self)
        case .completed: break
        }
    }
}

/// Where the request in hand and its answer stand: what the response
/// depends on of the request's head, and how far the answer has gone. Part
/// of a connection's loop-thread state, always there: no request is in hand
/// while `answer` is `nil` (kept as plain fields, read and written in place,
/// so that a request copies none of it).
struct HTTPExchangeState {
    /// The answer's observer this state waits for; `nil`: no request in hand.
    var answer: HTTPExchange?
    var method = HTTPRequest.Method.get
    var minorVersion = 1
    var expectsContinue = false
    /// The request's body, while it has one.
    var body: HTTPBodySource?
    var keepAlive = false
    /// When the head was decoded (`Loop.monotonicNanoseconds`), for
    /// `HTTPServerOptions.onResponse`; `nil` when nothing is measured.
    var began: Int64?
    var continueSent = false
    /// The head of the response is written.
    var started = false
    /// The whole response is written (handed to the stream).
    var answered = false
    /// The handler's `Single`, then the streamed body's subscription.
    var work: Disposable?
    /// The request asked to switch protocols.
    var asksToUpgrade = false
    /// Bytes came after that request before its answer.
    var bytesAfterUpgradeRequest = false
    /// The request's server span, when the server traces: ended with the
    /// exchange.
    var trace: HTTPServerTrace?

    /// Takes `answer`'s request in hand, as new.
    mutating func begin(
        answer: HTTPExchange, method: HTTPRequest.Method, minorVersion: Int, expectsContinue: Bool, body: HTTPBodySource?, keepAlive: Bool,
        began: Int64?, asksToUpgrade: Bool = false, bytesFollowed: Bool = false, trace: HTTPServerTrace? = nil
    ) {
        self.answer = answer
        self.method = method
        self.minorVersion = minorVersion
        self.expectsContinue = expectsContinue
        self.body = body
        self.keepAlive = keepAlive
        self.began = began
        self.asksToUpgrade = asksToUpgrade
        bytesAfterUpgradeRequest = bytesFollowed
        self.trace = trace
        continueSent = false
        started = false
        answered = false
        work = nil
    }

    /// The response's head, of `status`, goes out (noted on the trace).
    @inline(__always)
    mutating func start(status: HTTPResponse.Status) {
        started = true
        trace?.answered(status)
    }

    /// No request in hand any more. (Its work, done, is let go by the next
    /// `begin`.)
    mutating func end() {
        answer = nil
        body = nil
        if let trace {
            self.trace = nil
            trace.end()
        }
    }
}

/// What the observers of a connection's parts and answers call: the
/// connection, behind a protocol so that they are not generic (a generic
/// observer looks its metadata up on every event).
protocol HTTPServerEvents: HTTPWriteFailureListener {
    /// What the decoder cut, in order. Loop thread.
    func input(_ input: HTTPServerInput)
    /// The handler's answer for `exchange`, from any thread.
    func answered(_ result: Result<HTTPServerResponse, any Error>, for exchange: HTTPExchange)
}

/// Passes the decoder's events to the connection. Holds it strongly (a
/// weak load per part would cost more than the part's delivery): the
/// cycle through the connection's `reading` ends when the connection
/// finishes, which disposes it.
final class HTTPPartObserver: ObserverType {
    private let connection: any HTTPServerEvents

    init(_ connection: any HTTPServerEvents) {
        self.connection = connection
    }

    /// A part, passed on as it is (`on(.next(_:))` would copy it into an
    /// `Event` and destroy it there, every part).
    func onNext(_ part: HTTPRequestPart) {
        connection.input(.part(part))
    }

    func on(_ event: Event<HTTPRequestPart>) {
        switch event {
        case .next(let part): connection.input(.part(part))
        case .error(let error): connection.input(.failed(error))
        case .completed: connection.input(.ended)
        }
    }
}
