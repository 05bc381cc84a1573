import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

#if canImport(Glibc)
import Glibc
#endif

/// What the session hears, stream by stream: a request's head as its
/// fields come, its body into its `HTTPBodySource` (the window given back
/// as the body is read), the stream's end.
extension HTTP2ServerConnection {

    /// The open stream `id`, through nghttp2's stream map (each is attached
    /// there while `streams` holds it).
    func openStream(_ id: Int32) -> HTTP2ServerStream? {
        session?.attached(to: id, as: HTTP2ServerStream.self)
    }

    func sessionBeginsFields(stream id: Int32, isRequest: Bool) {
        guard case .serving = state.value.phase else { return }
        if isRequest, let session {
            let open = HTTP2ServerStream(id: id, connection: self)
            state.value.streams[id] = open
            session.attach(open, to: id)
            state.value.streamCount += 1
        }
        headerBlockBegan(stream: id)
    }

    func sessionField(stream id: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let open = openStream(id) else { return true }
        open.fieldListSize += name.count + value.count + 32
        guard open.refusal == nil else { return true }
        if open.fieldListSize > options.limits.maxHeadLength || open.fields.count >= options.limits.maxHeaderFields {
            open.refusal = HTTPError(.requestHeaderFieldsTooLarge, message: "Request Header Fields Too Large")
            return true
        }
        // Trailers are counted against the limit, and kept for the body's
        // reader (`HTTPRequestBody.trailerFields`).
        if open.isDispatched {
            if name.first != UInt8(ascii: ":"), let fieldName = HTTPField.Name(String(decoding: name, as: UTF8.self)) {
                if open.requestTrailers == nil { open.requestTrailers = HTTPFields() }
                open.requestTrailers?.append(HTTPField(name: fieldName, lenientValue: value))
            }
            return true
        }
        if name.first == UInt8(ascii: ":") {
            let text = String(decoding: value, as: UTF8.self)
            if Self.is(name, ":path") {
                open.path = text
            } else if Self.is(name, ":method") {
                open.method = text
            } else if Self.is(name, ":scheme") {
                open.scheme = text
            } else if Self.is(name, ":authority") {
                open.authority = text
            } else {
                open.refusal = HTTPError(.badRequest, message: "Bad Request")
            }
            return true
        }
        guard let fieldName = HTTPField.Name(String(decoding: name, as: UTF8.self)) else {
            open.refusal = HTTPError(.badRequest, message: "Bad Request")
            return true
        }
        // nghttp2 checked the value (RFC 9113 §8.2.1): taken as it is.
        open.fields.append(HTTPField(name: fieldName, lenientValue: value))
        return true
    }

    /// Whether `name` is `literal`, byte for byte.
    private static func `is`(_ name: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        name.count == literal.utf8CodeUnitCount && memcmp(name.baseAddress!, literal.utf8Start, name.count) == 0
    }

    func sessionFieldsEnded(stream id: Int32, endsStream: Bool) {
        headerBlockEnded(stream: id)
        guard let open = openStream(id) else { return }
        if !open.isDispatched {
            dispatch(open, endsStream: endsStream)
        } else if endsStream {
            // Trailers end the body.
            open.requestEnded = true
            open.body?.end(last: ByteBuffer(), trailers: open.requestTrailers)
        }
    }

    /// The request's head is whole: the handler is called with it (or
    /// the refusal answers).
    private func dispatch(_ open: HTTP2ServerStream, endsStream: Bool) {
        open.isDispatched = true
        open.requestEnded = endsStream
        let method = open.method.flatMap { HTTPRequest.Method($0) }
        if open.refusal == nil, method == nil {
            open.refusal = HTTPError(.badRequest, message: "Bad Request")
        }
        guard let method, open.refusal == nil else {
            let refusal = open.refusal!
            open.requestMethod = .get
            respond(open, .text((refusal.message ?? refusal.status.reasonPhrase) + "\n", status: refusal.status))
            return
        }
        open.requestMethod = method
        let head = HTTPRequest(method: method, scheme: open.scheme, authority: open.authority, path: open.path, headerFields: open.fields)
        open.fields = HTTPFields()
        var body: HTTPBodySource?
        if !endsStream {
            let declared = head.headerFields[.contentLength].flatMap { Int($0) }
            open.declaredLength = declared
            if let declared, declared > options.limits.maxBodyLength {
                respond(open, .text("Content Too Large\n", status: .contentTooLarge))
                return
            }
            body = HTTPBodySource(loop: loop, declaredLength: declared, connection: open, bufferLimit: options.bodyBufferSize)
            open.body = body
        }
        let trace = options.tracing.map { HTTPServerTrace(head, protocolVersion: "2", peer: peer, tracer: $0.tracer) }
        open.trace = trace
        open.began = options.onResponse != nil ? Loop.monotonicNanoseconds : nil
        let request = HTTPServerRequest(
            head: head, majorVersion: 2, minorVersion: 0, body: body.map { HTTPRequestBody(source: $0) } ?? .none, peer: peer, loop: loop,
            trace: trace)
        let subscription = handler(request).asObservable().subscribe(open)
        if !open.isClosed, !open.isAnswered {
            open.work = subscription
        }
    }

    func sessionData(stream id: Int32, _ bytes: UnsafeRawBufferPointer) {
        guard let session else { return }
        // The connection's window is the streams' to share: given back at
        // once. Each stream's is given back as its body is read.
        session.consumeConnection(bytes.count)
        let open = openStream(id)
        guard let open, let body = open.body, !body.isFinished else {
            session.consumeStream(id, bytes.count)
            if let open { discarded(bytes.count, of: open) }
            return
        }
        open.received += bytes.count
        guard open.received <= options.limits.maxBodyLength else {
            tooLarge(open, body)
            session.consumeStream(id, bytes.count)
            return
        }
        body.receive(ByteBuffer(bytes))
        // Until the handler reads the body, and while its reader holds it,
        // the stream's window stays shut: the client sends no more than
        // the window ahead of the reading.
        session.consumeStream(id, open.window.received(bytes.count, wanted: body.isWanted))
    }

    /// The body passed `HTTPLimits.maxBodyLength`: its reader fails with
    /// `413`, which answers the request if nothing has yet.
    private func tooLarge(_ open: HTTP2ServerStream, _ body: HTTPBodySource) {
        let refusal = HTTPError(.contentTooLarge)
        body.fail(refusal)
        guard !open.isAnswered else { return }
        let work = open.work
        open.work = nil
        work?.dispose()
        respond(open, .text("Content Too Large\n", status: .contentTooLarge))
    }

    func sessionDataEnded(stream id: Int32) {
        guard let open = openStream(id) else { return }
        open.requestEnded = true
        open.body?.end(last: ByteBuffer())
    }

    /// The stream's body lets its window open again (read, or let go of):
    /// what was held is given back.
    func giveBack(_ open: HTTP2ServerStream) {
        let count = open.window.release()
        guard count > 0, let session else { return }
        session.consumeStream(open.id, count)
        flush()
    }

    /// Nobody reads the rest of the stream's body: what comes is dropped
    /// and its window given back as it comes.
    func bodyAbandoned(_ open: HTTP2ServerStream) {
        open.window.isHeld = false
        open.body = nil
        giveBack(open)
    }

    func sessionFreeFrame(_ kind: HTTP2FreeFrame) {
        let now = Loop.monotonicNanoseconds
        let flood: HTTP2FloodError
        switch kind {
        case .control:
            guard !state.value.controlBudget.take(now: now) else { return }
            flood = HTTP2FloodError(what: "PING and SETTINGS frames", burst: http2.controlFrameBurst, limit: http2.controlFramesPerSecond)
        case .reset:
            guard !state.value.resetBudget.take(now: now) else { return }
            flood = HTTP2FloodError(what: "RST_STREAM frames (rapid reset)", burst: http2.resetBurst, limit: http2.resetsPerSecond)
        }
        guard let session, !state.value.sessionFailed else { return }
        state.value.sessionFailed = true
        report(flood, reportContext, level: .warning)
        session.terminate(.enhanceYourCalm)
    }

    func sessionStreamClosed(stream id: Int32, code: UInt32) {
        headerBlockEnded(stream: id)
        guard let open = state.value.streams.removeValue(forKey: id) else { return }
        session?.detach(from: id)
        stopStream(open, cause: code == 0 ? nil : HTTP2StreamError(code: HTTP2ErrorCode(rawValue: code)))
        if state.value.streams.isEmpty, case .serving = state.value.phase { becameIdle() }
    }

    func sessionSentEnd(stream id: Int32) {
        guard let open = openStream(id) else { return }
        open.responseEnded = true
        discarded(0, of: open)
    }

    /// `count` bytes of `open`'s body were dropped (nobody reads them).
    /// Once its answer is whole and more than `maxDiscardedBody` was
    /// dropped, or would be (what its `content-length` still announces),
    /// the request is asked to stop (RST_STREAM `NO_ERROR`, RFC 9113
    /// §8.1); below that it may finish, as clients that take such a reset
    /// for an error (curl 7) expect.
    private func discarded(_ count: Int, of open: HTTP2ServerStream) {
        open.discarded += count
        let announced = max((open.declaredLength ?? 0) - open.received - open.discarded, 0)
        guard open.responseEnded, !open.requestEnded, !open.isResetSent, open.discarded + announced > http2.maxDiscardedBody else { return }
        open.isResetSent = true
        session?.reset(stream: open.id, code: .noError)
    }

    /// The stream is over: its handler's work is disposed, its body's
    /// reader told, its span ended.
    func stopStream(_ open: HTTP2ServerStream, cause: HTTP2StreamError?) {
        if !open.responseEnded { open.trace?.cutShort() }
        open.isClosed = true
        let work = open.work
        open.work = nil
        work?.dispose()
        if let body = open.body, !body.isFinished {
            body.fail(cause ?? HTTP2StreamError(code: .cancel))
        }
        open.body = nil
        if let pace = open.pace {
            open.pace = nil
            pace.onCompleted()
        }
        if let trace = open.trace {
            open.trace = nil
            trace.end()
        }
    }
}

/// A peer sent more of what costs it nothing than its budget allows: the
/// connection ended with GOAWAY `ENHANCE_YOUR_CALM`. Reported at `warning`.
struct HTTP2FloodError: Error, CustomStringConvertible {
    let what: String
    let burst: Int
    let limit: Int

    var description: String {
        "HTTP/2: the peer sent more \(what) than \(burst) at once and \(limit) a second after; the connection ends (ENHANCE_YOUR_CALM)"
    }
}
