import RxCore
import RxUV
import RxUVHTTP
import RxUVWebSocket

#if canImport(Glibc)
// @preconcurrency: Glibc declares `stdout` and `stderr` as mutable globals.
@preconcurrency import Glibc
#endif

// rxuv-ws-echo: RxUVWebSocket's echo route (every message back, the next
// read once the last went out, as the README of RxUVWebSocket writes it)
// on RxUVHTTP's server, one loop on the main thread and nothing else, so
// that it runs under valgrind and a message's instructions can be counted
// (Benchmarks/Scripts/thresholds.py's ws case).
//
//   rxuv-ws-echo [--port N]
//
// Listens on 127.0.0.1 (port 0, the default, lets the system choose) and
// prints "port N" once listening; WebSocket at /echo (and /deflate, the
// same with permessage-deflate), and at /room, where
// every text message goes to every open /room socket through one
// PublishSubject (Scripts/wsbroadcast.py); GET /plain answers "ok", for
// plain kept-alive connections to compare with.

var port = 0
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port":
        guard let value = arguments.next().flatMap(Int.init), (0...65_535).contains(value) else {
            fputs("rxuv-ws-echo: --port needs a number from 0 to 65535\n", stderr)
            exit(2)
        }
        port = value
    default:
        fputs("usage: rxuv-ws-echo [--port N]\n", stderr)
        exit(2)
    }
}

var router = HTTPRouter()
router.webSocket("/echo") { socket, _ in
    socket.messages.concatMap { socket.send($0).asObservable() }.asCompletable()
}

// The same echo with permessage-deflate accepted (the defaults: 4 KiB windows).
router.webSocket("/deflate", options: WebSocketOptions(compression: WebSocketCompression())) { socket, _ in
    socket.messages.concatMap { socket.send($0).asObservable() }.asCompletable()
}

let room = PublishSubject<String>()
router.webSocket("/room") { socket, _ in
    Observable.merge(
        room.concatMap { socket.send(.text($0)).asObservable() },
        socket.messages.do(onNext: { message in
            if case .text(let text) = message { room.onNext(text) }
        }).ignoreElements()
    ).asCompletable()
}
router.get("/plain") { _ in .just(.text("ok")) }

let loop = try Loop()
let serving = loop.rx.serveHTTP(host: "127.0.0.1", port: port, handler: router.handler).subscribe(
    onSuccess: { server in
        print("port \(server.address.port)")
        fflush(stdout)
    },
    onFailure: { error in
        fputs("rxuv-ws-echo: \(error)\n", stderr)
        exit(1)
    })
loop.run()
serving.dispose()
