import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

#if canImport(Glibc)
import Glibc
#endif

/// Answering a stream: the handler's response as a HEADERS frame (with
/// `:status`, `date`, `content-length` when known, the handler's fields but
/// those HTTP/2 forbids), its body as DATA frames nghttp2 pulls from the
/// stream's queue as the client's windows allow.
extension HTTP2ServerConnection {

    /// The handler's answer for `open`'s request, from any thread.
    func answered(_ result: Result<HTTPServerResponse, any Error>, for open: HTTP2ServerStream) {
        guard loop.isOnLoopThread else {
            // The result is touched on the loop thread only.
            let sent = UncheckedSendable(result)
            loop.enter { [self] in answered(sent.value, for: open) }
            return
        }
        guard !open.isClosed, !open.isAnswered else { return }
        if case .failure(let error) = result {
            open.trace?.failed(error)
        }
        switch result {
        case .success(let response):
            respond(open, response)
        case .failure(let error as HTTPParseError):
            respond(open, .text(error.reason + "\n", status: error.status))
        case .failure(let error as HTTPError):
            respond(open, .text((error.message ?? error.status.reasonPhrase) + "\n", status: error.status))
        case .failure(let error):
            report(error, reportContext)
            respond(open, .text("Internal Server Error\n", status: .internalServerError))
        }
        flush()
    }

    /// Submits `response` on `open`'s stream.
    func respond(_ open: HTTP2ServerStream, _ response: HTTPServerResponse) {
        guard let session, !open.isAnswered else { return }
        if response.upgrade != nil || response.status.kind == .informational {
            // HTTP/2 has no 101, and this server sends no other 1xx.
            report(HTTP2MisuseError(status: response.status.code), reportContext)
            respond(open, .text("Internal Server Error\n", status: .internalServerError))
            return
        }
        open.isAnswered = true
        open.trace?.answered(response.status)
        if let body = open.body, !body.isFinished, !body.isWanted {
            // Nobody reads it: what comes is dropped, its window given
            // back as it comes (up to `maxDiscardedBody`).
            body.discardRest()
            open.body = nil
            giveBack(open)
        }
        if let onResponse = options.onResponse {
            let nanoseconds = open.began.map { Loop.monotonicNanoseconds - $0 } ?? 0
            onResponse(HTTPResponseRecord(method: open.requestMethod, status: response.status, nanoseconds: nanoseconds))
        }
        let status = response.status.code
        let sendsBody = open.requestMethod != .head && status != 204 && status != 304
        let body = response.body
        let length = body.length
        let block = fields(of: response, length: status == 204 || status == 304 ? nil : length)
        guard sendsBody, length != 0 else {
            if !session.submitResponse(stream: open.id, fields: block, hasBody: false) {
                session.reset(stream: open.id, code: .internalError)
            }
            return
        }
        switch body.content {
        case .bytes(let bytes):
            open.outbound = HTTP2BodyQueue(bytes: bytes)
        case .openFile(let file, let range):
            open.outbound.send(file, range: range)
        case .file(let path, let range):
            open.work = loop.rx.openFile(path: path).subscribe(
                onSuccess: { [self] file in
                    open.outbound.send(file, range: range)
                    resume(open)
                },
                onFailure: { [self] error in bodyFailed(open, error) })
        case .stream(let source, let length):
            open.trailers = body.trailers
            open.work = source.subscribe(HTTP2BodyWriter(sender: open, length: length))
        case .paced(let pieces, let length):
            open.trailers = body.trailers
            let pace = BehaviorSubject(value: true)
            open.pace = pace
            let paced = HTTPBodyPace(
                loop: loop, isWritable: { [self] in isPaceWritable(open) }, writability: { pace.asObservable() })
            open.work = pieces.pieces(pacedBy: paced).subscribe(HTTP2BodyWriter(sender: open, length: length))
        }
        if !session.submitResponse(stream: open.id, fields: block, hasBody: true) {
            session.reset(stream: open.id, code: .internalError)
        }
    }

    /// The response's header block: `:status`, the handler's fields but
    /// the connection-specific ones (RFC 9113 §8.2.2) and its own
    /// `content-length`, then `content-length` when known, `date` and
    /// `server`.
    private func fields(of response: HTTPServerResponse, length: Int?) -> HTTP2FieldBlock {
        var block = HTTP2FieldBlock()
        block.append(":status", String(response.status.code))
        for field in response.head.headerFields {
            let name = field.name.canonicalName
            if Self.isLeftOut(name) { continue }
            block.append(name, field.value)
        }
        if let length { block.append("content-length", String(length)) }
        block.append("date", state.value.dates.value(secondsSince1970: Int64(time(nil))))
        if let name = options.serverName { block.append("server", name) }
        return block
    }

    /// Whether a handler's field named `name` is left out of an HTTP/2
    /// head: HTTP/1.1's connection fields, which HTTP/2 forbids
    /// (`connection`, `keep-alive`, `proxy-connection`,
    /// `transfer-encoding`, `upgrade`), and those the server writes itself
    /// (`content-length`, `date`).
    private static func isLeftOut(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: name == "date"
        case 14: name == "content-length"
        default: HTTP2FieldBlock.isConnectionSpecific(name)
        }
    }

    /// More of `open`'s body waits: nghttp2 asks for it again.
    func resume(_ open: HTTP2ServerStream) {
        guard let session, !open.isClosed else { return }
        if open.outbound.isDeferred {
            open.outbound.isDeferred = false
            session.resumeBody(stream: open.id)
        }
        flush()
    }

    /// A body failed after its head went out: the stream is reset, the
    /// response cut short, and the failure reported.
    func bodyFailed(_ open: HTTP2ServerStream, _ error: any Error) {
        guard let session, !open.isClosed else { return }
        report(error, reportContext)
        session.reset(stream: open.id, code: .internalError)
        flush()
    }

    /// Whether `open` is still open and its response under way.
    func isAnswering(_ open: HTTP2ServerStream) -> Bool {
        session != nil && !open.isClosed
    }

    /// Whether a paced body may produce another piece: its stream's queue
    /// is short enough.
    private func isPaceWritable(_ open: HTTP2ServerStream) -> Bool {
        open.outbound.queuedBytes <= HTTP2BodyWriter<HTTP2ServerStream>.paceLimit
    }

    func sessionBody(stream id: Int32, into buffer: UnsafeMutableRawBufferPointer) -> HTTP2BodyChunk {
        guard let open = openStream(id) else { return .failed }
        var chunk = open.outbound.read(into: buffer)
        if case .failed = chunk, let failure = open.outbound.failure {
            report(failure, reportContext)
        }
        if case .lastBeforeTrailers(let count) = chunk, let trailers = open.trailers {
            // The body's source has completed: its trailers are made now.
            if session?.submitTrailers(stream: id, fields: HTTP2FieldBlock(trailers: trailers())) != true { chunk = .bytes(count, last: true) }
        }
        if let pace = open.pace, open.outbound.queuedBytes <= HTTP2BodyWriter<HTTP2ServerStream>.paceLimit {
            pace.onNext(true)
        }
        return chunk
    }
}

/// A handler answered HTTP/2 with a 1xx or an upgrade: answered `500`.
struct HTTP2MisuseError: Error, CustomStringConvertible {
    let status: Int

    var description: String {
        "HTTP/2 has no \(status) response (no protocol switch, no other 1xx from a handler); answered 500"
    }
}
