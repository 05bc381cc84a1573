// A TCP echo server: every connection's bytes are written back to it.

import RxCore
import RxUV

let loop = try Loop()
let server = loop.rx.listen(host: "127.0.0.1", port: 7000, onListening: { print("listening on \($0)") })
    .flatMap { connection in
        connection.rx.data // each read, as a ByteBuffer; EOF completes
            .flatMap { connection.write($0) } // write it back; completes when libuv is done
            .catch { _ in .empty() } // a reset ends this connection, not the server
    }
    .subscribe(onError: { print("echo-server: \($0)") }) // EADDRINUSE and friends
loop.run() // returns only if the listener is gone (listen failed)
server.dispose()
try loop.close()
