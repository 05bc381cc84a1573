// An HTTP client on the loop: a GET as a Single and as an async call, a
// body streamed to a consumer with backpressure, an upload from a file,
// and the shutdown before the loop ends.

import HTTPTypes
import RxCore
import RxUV
import RxUVHTTPClient

// snippet.show
let loop = try Loop()
let client = HTTPClient(
    loop: loop,
    configuration: HTTPClientConfiguration(
        maxConnectionsPerHost: 4, requestTimeout: .seconds(30), decompression: .enabled(maxDecodedLength: 16 << 20)))

// A Single: the response as soon as its head arrives, then its body.
let status = try client.rx.send(HTTPRequest(url: "http://127.0.0.1:8080/hello"))
    .flatMap { response in response.body.collect(upTo: 1 << 20).map { body in "\(response.status.code) \(body.string)" } }

let work: @Sendable () async throws -> Void = {
    // async: a large body read as it arrives; the connection stops reading
    // while this loop body holds more than 256 KiB.
    let response = try await client.execute(HTTPRequest(url: "https://example.com/large.iso"))
    var count = 0
    for try await piece in response.body.values { count += piece.count }

    // An upload from a file, with Content-Length, a chunk at a time.
    let file = try await loop.rx.openFile(path: "upload.bin").value
    let upload = HTTPRequest(method: .put, scheme: "http", authority: "127.0.0.1:8080", path: "/files/upload.bin")
    _ = try await client.execute(upload, body: .file(file, range: 0..<Int64(file.status.size))).body.collect(upTo: 4096).value

    try await client.shutdown().value
}
// snippet.end
_ = (status, work)
