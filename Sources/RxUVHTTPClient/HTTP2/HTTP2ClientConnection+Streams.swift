import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2

/// What the session hears, stream by stream: a response's head as its
/// fields come (interim ones skipped), its body into its `HTTPBodySource`
/// (inflated when asked, the window given back as it is read), the
/// stream's end, and the server's GOAWAY.
extension HTTP2ClientConnection {

    /// The open stream `id`, through nghttp2's stream map.
    func openStream(_ id: Int32) -> HTTP2ClientStream? {
        state.value.session?.attached(to: id, as: HTTP2ClientStream.self)
    }

    func sessionBeginsFields(stream id: Int32, isRequest: Bool) {
        guard let open = openStream(id) else { return }
        open.status = nil
        if !open.headArrived {
            open.fields = HTTPFields()
            open.fieldListSize = 0
        }
    }

    func sessionField(stream id: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let open = openStream(id) else { return true }
        let limits = pool.configuration.limits
        open.fieldListSize += name.count + value.count + 32
        guard open.refusal == nil else { return true }
        if open.fieldListSize > limits.maxHeadLength || open.fields.count >= limits.maxHeaderFields {
            open.refusal = HTTPParseError(
                status: .badGateway, reason: "the response's head passed the limits (\(limits.maxHeadLength) bytes, \(limits.maxHeaderFields) fields)")
            return true
        }
        // Trailers are counted against the limit, and kept for the body's
        // reader (`HTTPClientResponseBody.trailerFields`).
        if open.headArrived {
            if name.first != UInt8(ascii: ":"), let fieldName = HTTPField.Name(parsed: String(decoding: name, as: UTF8.self)) {
                if open.trailers == nil { open.trailers = HTTPFields() }
                open.trailers?.append(HTTPField(name: fieldName, lenientValue: value))
            }
            return true
        }
        if name.first == UInt8(ascii: ":") {
            // nghttp2 allows only `:status` in a response (RFC 9113 §8.3.2),
            // and checks that it is three digits.
            open.status = value.reduce(0) { $0 &* 10 &+ Int($1 &- UInt8(ascii: "0")) }
            return true
        }
        // nghttp2 checked the name (a lower-case token).
        guard let fieldName = HTTPField.Name(parsed: String(decoding: name, as: UTF8.self)) else { return true }
        // nghttp2 checked the value (RFC 9113 §8.2.1): taken as it is.
        open.fields.append(HTTPField(name: fieldName, lenientValue: value))
        return true
    }

    func sessionFieldsEnded(stream id: Int32, endsStream: Bool) {
        guard let open = openStream(id) else { return }
        if let refusal = open.refusal {
            fail(open, refusal)
            return
        }
        if !open.headArrived {
            guard let status = open.status, (100...599).contains(status) else {
                fail(open, HTTPParseError(status: .badGateway, reason: "a response head without a valid :status"))
                return
            }
            // An interim response (`100 Continue`, `103 Early Hints`) is
            // skipped: the final one follows.
            guard status >= 200 else { return }
            headArrived(open, status: status, endsStream: endsStream)
        } else if endsStream {
            // Trailers end the body.
            responseEnded(open)
        }
    }

    /// The response's final head: the caller has it, with its body to
    /// come (none for `HEAD`, a 204, a 304, or a head that ends the
    /// stream).
    private func headArrived(_ open: HTTP2ClientStream, status: Int, endsStream: Bool) {
        let exchange = open.exchange
        open.headArrived = true
        Disposables.take(&open.timer).dispose()
        let head = HTTPResponse(status: HTTPResponse.Status(code: status), headerFields: open.fields)
        open.fields = HTTPFields()
        let hasBody = !endsStream && exchange.head.request.method != .head && status != 204 && status != 304
        var source: HTTPBodySource?
        if hasBody {
            do {
                open.contentDecoder = try HTTPContentDecoder(for: head, pool.configuration.decompression)
            } catch {
                fail(open, error)
                return
            }
            let declared = open.contentDecoder == nil ? head.headerFields[.contentLength].flatMap { Int($0) } : nil
            source = HTTPBodySource(loop: loop, declaredLength: declared, connection: open, bufferLimit: pool.configuration.responseBufferSize)
            open.body = source
        }
        exchange.responded(HTTPClientResponse(head: head, statusCode: status, majorVersion: 2, minorVersion: 0, body: HTTPClientResponseBody(source: source)), on: open)
        if !hasBody { responseEnded(open) }
    }

    func sessionData(stream id: Int32, _ bytes: UnsafeRawBufferPointer) {
        guard let session = state.value.session else { return }
        // The connection's window is the streams' to share: given back at
        // once. Each stream's is given back as its body is read.
        session.consumeConnection(bytes.count)
        guard let open = openStream(id), let body = open.body, !body.isFinished else {
            session.consumeStream(id, bytes.count)
            return
        }
        open.bytesArrived = true
        if let decoder = open.contentDecoder {
            do {
                for piece in try decoder.decode(ByteBuffer(bytes)) { body.receive(piece) }
            } catch {
                fail(open, error)
                return
            }
        } else {
            body.receive(ByteBuffer(bytes))
        }
        // While nobody reads the body, or its reader holds it, the
        // stream's window stays shut: the server sends no more than the
        // window ahead of the reading.
        session.consumeStream(id, open.window.received(bytes.count, wanted: body.isWanted))
    }

    func sessionDataEnded(stream id: Int32) {
        guard let open = openStream(id), open.headArrived else { return }
        responseEnded(open)
    }

    /// The response is whole: its body ends (the inflater's end checked),
    /// the exchange is over. A request body still going is cut short: the
    /// stream is reset.
    private func responseEnded(_ open: HTTP2ClientStream) {
        guard !open.responseEnded else { return }
        open.responseEnded = true
        let body = open.body
        open.body = nil
        if let decoder = open.contentDecoder {
            open.contentDecoder = nil
            do {
                try decoder.finish()
            } catch {
                open.exchange.finish()
                body?.fail(error)
                if let session = state.value.session { session.reset(stream: open.id, code: .cancel) }
                return
            }
        }
        open.exchange.finish()
        body?.end(last: ByteBuffer(), trailers: open.trailers)
        if !open.requestSent, let session = state.value.session {
            session.reset(stream: open.id, code: .cancel)
        }
    }

    /// The stream's body lets its window open again (read, or let go of).
    func giveBack(_ open: HTTP2ClientStream) {
        let count = open.window.release()
        guard count > 0, let session = state.value.session else { return }
        session.consumeStream(open.id, count)
        flush()
    }

    func sessionFreeFrame(_ kind: HTTP2FreeFrame) {
        // nghttp2 bounds the acknowledgements a server's PINGs and
        // SETTINGS ask for (`maxOutboundAcks`); the client answers them.
    }

    /// The server's SETTINGS arrived: its concurrent-stream limit is
    /// known, and the waiting requests may go (up to it). A first SETTINGS
    /// that allows no stream makes a connection no request can use: it
    /// fails as a connect does (the oldest waiting request with it).
    func sessionPeerSettings() {
        guard !state.value.hasPeerSettings, let session = state.value.session else { return }
        guard session.peerMaxConcurrentStreams > 0 else {
            close(HTTPClientError(.connectionClosed, "\(pool.key) allows no HTTP/2 stream (SETTINGS_MAX_CONCURRENT_STREAMS 0)"))
            return
        }
        state.value.hasPeerSettings = true
        // The SETTINGS timer gives way to the idle one.
        let timer = state.value.idleTimer
        state.value.idleTimer = nil
        timer?.dispose()
        becameIdle()
        pool.fill(self)
    }

    func sessionGoAway(lastStream: Int32, code: UInt32) {
        // nghttp2 closes the streams above `lastStream` (REFUSED_STREAM):
        // their exchanges go to another connection.
        state.value.isGoingAway = true
        pool.goingAway(self)
    }

    func sessionStreamClosed(stream id: Int32, code: UInt32) {
        guard let open = state.value.streams.removeValue(forKey: id) else { return }
        state.value.session?.detach(from: id)
        let error: any Error = code == 0 ? HTTPClientError(.connectionClosed, "the stream closed before its response's end") : HTTP2StreamError(code: HTTP2ErrorCode(rawValue: code))
        ended(open, error: error, retrying: code == HTTP2ErrorCode.refusedStream.rawValue)
        if state.value.isClosed { return }
        if state.value.streams.isEmpty {
            becameIdle()
            closeIfDone()
        }
        pool.fill(self)
    }

    func sessionSentEnd(stream id: Int32) {
        openStream(id)?.requestSent = true
    }

    func sessionBody(stream id: Int32, into buffer: UnsafeMutableRawBufferPointer) -> HTTP2BodyChunk {
        guard let open = openStream(id) else { return .failed }
        let chunk = open.outbound.read(into: buffer)
        if let pace = open.pace, open.outbound.queuedBytes <= HTTP2BodyWriter<HTTP2ClientStream>.paceLimit {
            pace.onNext(true)
        }
        // A file that fails is `.failed`: nghttp2 resets the stream, and
        // its exchange fails with the file's error (`ended`).
        return chunk
    }

    /// `open` is over: its work stops; an exchange whose response never
    /// began fails with `error`, or goes back to the pool when `retrying`
    /// and it may (before any byte of its response, once, with a body that
    /// can be sent again, and, unless the server refused the stream
    /// unprocessed, an idempotent method); a body cut short fails with it.
    func ended(_ open: HTTP2ClientStream, error: any Error, retrying: Bool) {
        open.isClosed = true
        Disposables.take(&open.timer).dispose()
        Disposables.take(&open.bodyWork).dispose()
        if let pace = open.pace {
            open.pace = nil
            pace.onCompleted()
        }
        let exchange = open.exchange
        // A request body's file that failed is the reason, not the reset.
        let error = open.outbound.failure ?? error
        if open.responseEnded {
            state.value.served += 1
            return
        }
        if open.headArrived {
            let body = open.body
            open.body = nil
            exchange.finish()
            body?.fail(error)
            return
        }
        guard !exchange.isFinished else { return }
        let refused = (error as? HTTP2StreamError)?.code == .refusedStream
        let mayRetry =
            retrying && !open.bytesArrived
            && exchange.mayRetry(unprocessed: refused, staleReuse: state.value.served > 0, configuration: pool.configuration)
        if mayRetry {
            exchange.state.value.retried = true
            pool.retry(exchange)
        } else {
            exchange.fail(error)
        }
    }
}
