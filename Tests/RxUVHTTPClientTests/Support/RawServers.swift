import RxCore
import RxUV
import RxUVTestSupport

/// A connection handler for a raw TCP server that plays a misbehaving (or
/// simply scripted) HTTP server: for the `n`th request head the server
/// receives (counted over all its connections, from 0), it writes
/// `answers(n)` (and closes after it when the answer says so); for `nil` it
/// closes the connection at once, without an answer.
func answering(_ answers: @escaping @Sendable (Int) -> RawAnswer?) -> @Sendable (TCPConnection) -> Completable {
    let requests = Counter()
    return { connection in
        connection.rx.data
            .filter { $0.string.contains("\r\n\r\n") }
            .flatMap { _ -> Observable<Never> in
                guard let answer = answers(requests.increment() - 1) else { return .error(ConnectionDone()) }
                let written = connection.write(ByteBuffer(string: answer.bytes)).asObservable()
                return answer.thenClose ? written.concat(Observable.error(ConnectionDone())) : written
            }
            .catch { error in error is ConnectionDone ? .empty() : .error(error) }
            .asCompletable()
    }
}

/// What a scripted server writes for a request, and whether it then
/// closes the connection (after the write).
struct RawAnswer: ExpressibleByStringLiteral, Sendable {
    var bytes: String
    var thenClose = false

    init(_ bytes: String, thenClose: Bool = false) {
        self.bytes = bytes
        self.thenClose = thenClose
    }

    init(stringLiteral bytes: String) {
        self.init(bytes)
    }
}

/// Ends a scripted connection.
struct ConnectionDone: Error {}

/// An HTTP/1.1 response with `body` and its `Content-Length`.
func ok(_ body: String, fields: String = "") -> RawAnswer {
    RawAnswer("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\(fields)\r\n\(body)")
}
