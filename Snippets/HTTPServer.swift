// An HTTP/1.1 server on every core: a router of Single and async handlers,
// a streamed body, a file, and the same handler over TLS.

import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVTLS

// snippet.show
var router = HTTPRouter()
router.get("/hello/{name}") { request in
    .just(.text("hello, \(request.parameters["name"] ?? "you")\n"))
}
router.post("/echo") { request in
    // The whole body, refused with 413 past 1 MiB.
    request.body.collect(upTo: 1 << 20).map { body in HTTPServerResponse(body: .bytes(body)) }
}
router.post("/count") { request async throws -> HTTPServerResponse in
    // On the loop's thread; the connection reads as fast as this loop takes it.
    var bytes = 0
    for try await piece in request.body.values { bytes += piece.count }
    return .text("\(bytes)\n")
}
router.get("/ticks") { request in
    // Chunked: each buffer written as it comes.
    let ticks = request.loop.rx.timer(after: .milliseconds(100), repeating: .milliseconds(100)).take(5)
    return .just(HTTPServerResponse(body: .stream(ticks.map { ByteBuffer(string: "tick \($0)\n") })))
}
router.get("/README") { _ in
    .just(HTTPServerResponse(headerFields: [.contentType: "text/markdown"], body: .file(path: "README.md", range: 0..<1024)))
}

let handler = router.handler
let group = try LoopGroup(threads: LoopGroup.coreCount)
let http = group.rx.serveHTTP(host: "127.0.0.1", port: 8080, handler: handler)

// HTTPS: the same handler, through the server's per-connection factory.
let tls = try TLSContext(configuration: .server(identity: TLSIdentity(certificateChain: .file("cert.pem"), privateKey: .file("key.pem"))))
let https = group.rx.serve(host: "127.0.0.1", port: 8443, tls: tls) { $0.serveHTTP(handler: handler) }
// snippet.end
_ = (http, https)
