import Foundation
import RxCore
import RxUVHTTP
import RxUVTestSupport

@testable import RxUV

/// An HTTP server connection over the server end of an in-memory pair, run
/// as a `Server` runs its handler: `serveHTTP` is the connection's life,
/// and when it ends the stream is closed after its writes (at once with a
/// reset when `stop()` ends it). The test drives the client end.
final class InMemoryHTTPConnection: Sendable {
    let pair: InMemoryStreamPair
    /// What the client end read: the responses, then how reading ended.
    let client: StreamRecording
    private let quiesce = AsyncSubject<Void>()
    private let handling = SingleAssignmentDisposable()
    private let ending = Shared<String?>(nil)

    /// Serves HTTP with `handler` on a new pair on `loop` (the subscription
    /// is made on the loop thread, when the loop runs).
    init(on loop: Loop, pair options: InMemoryStreamOptions = InMemoryStreamOptions(), http: HTTPServerOptions = HTTPServerOptions(), handler: @escaping HTTPHandler) {
        pair = InMemoryStream.pair(on: loop, options: options)
        client = StreamRecording(of: pair.client)
        // The `ServedConnection` a `Server` would hand its handler.
        let served = ServedConnection(connection: pair.server, loop: loop, quiesce: quiesce.asObservable(), server: "in-memory")
        let (server, ending) = (pair.server, ending)
        handling.setDisposable(
            served.serveHTTP(options: http, handler: handler).subscribe(
                onCompleted: {
                    ending.value = "completed"
                    server.close(.afterWrites)
                },
                onError: { error in
                    ending.value = "failed \(error)"
                    server.close(.afterWrites)
                }))
    }

    /// How the connection's life ended (`completed`, `failed …`); `nil`
    /// while it goes on.
    var life: String? {
        ending.value
    }

    /// Writes `text` from the client end.
    func send(_ text: String) {
        _ = pair.client.write(text).subscribe()
    }

    /// The server's drain: `quiesce` fires.
    func drain() {
        quiesce.onNext(())
        quiesce.onCompleted()
    }

    /// Ends the connection as a drain's deadline does: the life is
    /// disposed and the stream reset.
    func stop() {
        handling.dispose()
        pair.server.close(.reset)
    }

    /// Closes both ends and stops serving: what a test does last.
    func close() {
        handling.dispose()
        pair.client.close(.now)
        pair.server.close(.now)
        client.dispose()
    }
}

extension String {
    /// The bodies of the `Content-Length` responses in this text, in order.
    var responseBodies: [String] {
        var bodies: [String] = []
        var rest = self[...]
        while let headEnd = rest.range(of: "\r\n\r\n") {
            let head = rest[..<headEnd.lowerBound]
            let length =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            let bodyStart = headEnd.upperBound
            let bodyEnd = rest.index(bodyStart, offsetBy: length, limitedBy: rest.endIndex) ?? rest.endIndex
            bodies.append(String(rest[bodyStart..<bodyEnd]))
            rest = rest[bodyEnd...]
        }
        return bodies
    }
}
