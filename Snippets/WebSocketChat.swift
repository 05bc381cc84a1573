// WebSocket on the loop: a server route that echoes and one that pushes a
// live counter to every open socket from one subject, and a client that
// talks to the echo and closes with 1000.

import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVWebSocket

// snippet.show
let loop = try Loop()
let ticks = PublishSubject<Int>()

var router = HTTPRouter()
// Every message back, one at a time: the next is read once the last went out.
router.webSocket("/echo") { socket, _ in
    socket.messages.concatMap { socket.send($0).asObservable() }.asCompletable()
}
// The same counter to every socket; the socket's life is its messages'
// (read, to see the peer's Close), and disposing stops the pushes.
router.webSocket("/counter", subprotocols: ["counter.v1"]) { socket, _ in
    Observable.merge(
        ticks.concatMap { socket.send(.text("\($0)")).asObservable() },
        socket.messages.ignoreElements()
    ).asCompletable()
}
let server = loop.rx.serveHTTP(host: "127.0.0.1", port: 8080, handler: router.handler)

let talk: @Sendable () async throws -> Void = {
    let client = HTTPClient(loop: loop)
    let socket = try await client.rx.webSocket("ws://127.0.0.1:8080/echo").value
    var messages = socket.messages.values.makeAsyncIterator()
    _ = try await socket.send(.text("hello")).value
    print(try await messages.next() ?? .text("(ended)"))
    socket.close(code: .normalClosure, reason: "bye")
    print(try await socket.closed.value) // 1000 normalClosure "bye"
    try await client.shutdown().value
}
// snippet.end
_ = (server, talk)
