import HTTPTypes
import RxCore
import RxUV

/// Writes a streamed response body as it comes (`HTTPResponseBody.stream`),
/// as chunks or as the bytes of a `Content-Length` body, counting it
/// against its declared length; the exchange ends with its completion. Its
/// events may come on any thread and enter the connection's loop.
struct HTTPBodyWriter<Connection: ByteStream>: ObserverType, Sendable {
    private let connection: HTTPServerConnection<Connection>
    private let loop: Loop
    private let answer: HTTPExchange
    private let chunked: Bool
    private let length: Int?
    /// What makes the trailers of a chunked body.
    private let trailers: (@Sendable () -> HTTPFields)?
    /// The bytes sent so far.
    private let sent: LoopBound<Int>

    init(
        connection: HTTPServerConnection<Connection>, loop: Loop, answer: HTTPExchange, chunked: Bool, length: Int?,
        trailers: (@Sendable () -> HTTPFields)?
    ) {
        self.connection = connection
        self.loop = loop
        self.answer = answer
        self.chunked = chunked
        self.length = length
        self.trailers = trailers
        self.sent = LoopBound(0, loop: loop)
    }

    func on(_ event: Event<ByteBuffer>) {
        loop.enter { [self] in
            guard connection.isAnswering(answer) else { return }
            switch event {
            case .next(let bytes):
                sent.value += bytes.count
                if let length, sent.value > length {
                    connection.responseFailed(HTTPError(.internalServerError, message: "a streamed body sent more than its \(length) bytes"))
                    return
                }
                var buffers: [ByteBuffer] = []
                connection.encode(chunked ? .chunk(bytes) : .body(bytes), into: &buffers)
                connection.write(buffers)
            case .error(let error):
                connection.responseFailed(error)
            case .completed:
                if let length, sent.value != length {
                    connection.responseFailed(HTTPError(.internalServerError, message: "a streamed body sent \(sent.value) of its \(length) bytes"))
                    return
                }
                if chunked {
                    var buffers: [ByteBuffer] = []
                    connection.encode(.lastChunk(trailers: trailers?()), into: &buffers)
                    connection.write(buffers)
                }
                connection.finished(answer)
            }
        }
    }
}
