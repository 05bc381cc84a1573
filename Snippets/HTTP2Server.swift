// The same router over HTTP/2: cleartext with prior knowledge (h2c), and
// HTTPS that speaks HTTP/2 or HTTP/1.1 as ALPN agrees.

import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2
import RxUVTLS

// snippet.show
var router = HTTPRouter()
router.get("/hello") { request in
    // 2 over HTTP/2, 1 over HTTP/1.1: the handler is the same.
    .just(.text("hello over HTTP/\(request.majorVersion)\n"))
}
router.post("/count") { request async throws -> HTTPServerResponse in
    // The stream's window opens only as this loop takes the pieces.
    var bytes = 0
    for try await piece in request.body.values { bytes += piece.count }
    return .text("\(bytes)\n")
}
let handler = router.handler
let group = try LoopGroup(threads: LoopGroup.coreCount)

// h2c: `curl --http2-prior-knowledge`, h2load, a gRPC client.
let h2c = group.rx.serveHTTP2(host: "127.0.0.1", port: 8080, http2: HTTP2Options(maxConcurrentStreams: 128), handler: handler)

// HTTPS: h2 first, http/1.1 for clients that do not speak it.
var configuration = TLSConfiguration.server(identity: TLSIdentity(certificateChain: .file("cert.pem"), privateKey: .file("key.pem")))
configuration.applicationProtocols = ["h2", "http/1.1"]
let https = group.rx.serveHTTPS(host: "127.0.0.1", port: 8443, tls: try TLSContext(configuration: configuration), handler: handler)
// snippet.end
_ = (h2c, https)
