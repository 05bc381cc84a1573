import RxCore
import RxUV
import RxUVHTTP

/// Writes a streamed request body (`HTTPClientRequestBody.stream`) as it
/// comes, as chunks or as the bytes of a `Content-Length` body counted
/// against its length. Its events may come on any thread and enter the
/// connection's loop; those that come after its exchange is over are
/// dropped.
struct HTTPClientBodyWriter: ObserverType, Sendable {
    let connection: HTTPClientConnection
    let exchange: HTTPClientExchange
    let length: Int?
    /// The bytes sent so far.
    private let sent: LoopBound<Int>

    init(connection: HTTPClientConnection, exchange: HTTPClientExchange, length: Int?) {
        self.connection = connection
        self.exchange = exchange
        self.length = length
        self.sent = LoopBound(0, loop: connection.loop)
    }

    func on(_ event: Event<ByteBuffer>) {
        connection.loop.enter { [self] in
            guard connection.state.value.exchange === exchange, !connection.state.value.isClosed else { return }
            switch event {
            case .next(let bytes):
                sent.value += bytes.count
                if let length, sent.value > length {
                    connection.requestBodyFailed(mismatch("more than its \(length)"), for: exchange)
                    return
                }
                if length == nil {
                    var buffers: [ByteBuffer] = []
                    try? HTTPRequestEncoder().encode(.chunk(bytes), into: &buffers)
                    if !buffers.isEmpty { connection.write(.many(buffers)) }
                } else if !bytes.isEmpty {
                    connection.write(.one(bytes))
                }
            case .error(let error):
                connection.requestBodyFailed(error, for: exchange)
            case .completed:
                if let length, sent.value != length {
                    connection.requestBodyFailed(mismatch("\(sent.value) of its \(length)"), for: exchange)
                    return
                }
                if length == nil {
                    var buffers: [ByteBuffer] = []
                    try? HTTPRequestEncoder().encode(.lastChunk(trailers: nil), into: &buffers)
                    connection.write(.many(buffers))
                }
                connection.requestBodySent(for: exchange)
            }
        }
    }

    private func mismatch(_ what: String) -> HTTPClientError {
        HTTPClientError(.bodyLengthMismatch, "a streamed request body sent \(what) bytes")
    }
}
