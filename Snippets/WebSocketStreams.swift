// WebSocket with permessage-deflate and streamed messages: a route that
// accepts compression, counts a large upload as it arrives (the reading
// held while the count lags), and echoes a stream as one; a client that
// offers compression and sends a message from an Observable, frame by frame.

import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVWebSocket

// snippet.show
let loop = try Loop()
// Compression as a server of many sockets wants it (4 KiB windows), and
// messages past 64 KiB as streams, up to 1 GiB each.
let options = WebSocketOptions(
    maxMessageLength: 1 << 30, compression: WebSocketCompression(), streamingThreshold: 64 << 10)

var router = HTTPRouter()
router.webSocket("/upload", options: options) { socket, _ in
    socket.messages.concatMap { message -> Observable<Never> in
        guard case .stream(let upload) = message else {
            return socket.send(.text("\(message.byteCount) bytes")).asObservable()
        }
        return upload.bytes.reduce(0) { $0 + $1.count }
            .flatMap { socket.send(.text("\($0) bytes, streamed")).asObservable() }
    }.asCompletable()
}
let server = loop.rx.serveHTTP(host: "127.0.0.1", port: 8080, handler: router.handler)

let upload: @Sendable () async throws -> Void = {
    let client = HTTPClient(loop: loop)
    let socket = try await client.rx.webSocket("ws://127.0.0.1:8080/upload", options: options).value
    print(socket.compression?.description ?? "uncompressed")
    let chunks = Observable.from((0..<16).map { _ in ByteBuffer([UInt8](repeating: 0x2A, count: 1 << 20)) })
    _ = try await socket.send(.stream(WebSocketMessageStream(opcode: .binary, bytes: chunks))).value
    socket.close()
    try await client.shutdown().value
}
// snippet.end
_ = (server, upload)
