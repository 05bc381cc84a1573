import HTTPTypes
import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// Writing a response: the head with the date and framing, a small body
/// in the head's buffer, a larger one beside it, a file, or a stream.
extension HTTPServerConnection {

    /// The largest body copied into its head's buffer (one write, no array
    /// of buffers); a larger one is written beside the head.
    static var inlineBodyLimit: Int { 4096 }

    /// Writes `response` for the request in hand.
    func respond(_ response: HTTPServerResponse) {
        guard let answer = state.value.exchange.answer else { return }
        if response.upgrade != nil || response.status.code == 101 {
            switchProtocols(response)
            return
        }
        state.value.exchange.start(status: response.status)
        if let body = state.value.exchange.body, !body.isFinished {
            if state.value.exchange.expectsContinue, !state.value.exchange.continueSent {
                // The client waits for `100 Continue` and will not get it:
                // its body would be taken for the next request.
                state.value.exchange.keepAlive = false
            } else if !body.isWanted {
                body.discardRest()
            }
        }
        let method = state.value.exchange.method
        if let onResponse = options.onResponse {
            let nanoseconds = state.value.exchange.began.map { Loop.monotonicNanoseconds - $0 } ?? 0
            onResponse(HTTPResponseRecord(method: method, status: response.status, nanoseconds: nanoseconds))
        }
        let framing = HTTPResponseFraming(response: response, method: method, minorVersion: state.value.exchange.minorVersion)
        if framing.closeDelimited || state.value.acceptsNoMore { state.value.exchange.keepAlive = false }
        let keepAlive = state.value.exchange.keepAlive
        if !keepAlive { state.value.acceptsNoMore = true }
        let date = state.value.dates.value(secondsSince1970: Int64(time(nil)))
        // A small body travels in the head's buffer.
        var inline: ByteBuffer?
        if framing.sendsBody, case .bytes(let bytes) = response.body.content, bytes.count <= Self.inlineBodyLimit {
            inline = bytes
        }
        let headBytes = HTTPResponseEncoder.head(
            response.headLines, body: framing.head, keepAlive: keepAlive, date: date, server: options.serverName, content: inline,
            reusing: &state.value.spareHead)
        guard framing.sendsBody, inline == nil else {
            write(headBytes)
            finished(answer)
            return
        }
        switch response.body.content {
        case .bytes(let bytes):
            var buffers = [headBytes]
            encode(.body(bytes), into: &buffers)
            write(buffers)
            finished(answer)
        case .file(let path, let range):
            write(headBytes)
            send(stream.write(fileAt: path, range: range), for: answer)
        case .openFile(let file, let range):
            write(headBytes)
            send(stream.write(file, range: range), for: answer)
        case .stream(let source, let length):
            write(headBytes)
            let work = source.subscribe(
                HTTPBodyWriter(
                    connection: self, loop: loop, answer: answer, chunked: framing.chunked, length: length, trailers: response.body.trailers))
            setWork(work, for: answer)
        case .paced(let body, let length):
            write(headBytes)
            let work = body.pieces(pacedBy: .stream(stream)).subscribe(
                HTTPBodyWriter(
                    connection: self, loop: loop, answer: answer, chunked: framing.chunked, length: length, trailers: response.body.trailers))
            setWork(work, for: answer)
        }
    }

    /// The work of `answer`'s request is `work`, if that request is still
    /// in hand (else it is over, and so is the work).
    func setWork(_ work: Disposable, for answer: HTTPExchange) {
        if state.value.exchange.answer === answer, !state.value.exchange.answered {
            state.value.exchange.work = work
        }
    }

    /// Sends a file's body; the exchange ends with it.
    func send(_ body: Completable, for answer: HTTPExchange) {
        let work = body.subscribe(
            onCompleted: { [self] in finished(answer) },
            onError: { [self] error in responseFailed(error) })
        setWork(work, for: answer)
    }

    /// Whether `answer`'s request is in hand and its response still going
    /// out: what a streamed body's writer checks before each part.
    func isAnswering(_ answer: HTTPExchange) -> Bool {
        !state.value.isClosed && state.value.exchange.answer === answer && !state.value.exchange.answered
    }

    /// A body failed after its head went out: the response can only be cut
    /// short, by closing.
    func responseFailed(_ error: any Error) {
        guard !state.value.isClosed else { return }
        report(error, ReportContext(loop: loop, server: server, peer: peer))
        finish()
    }

    /// The whole response to `answer`'s request is handed to the stream.
    func finished(_ answer: HTTPExchange) {
        guard isAnswering(answer) else { return }
        state.value.exchange.answered = true
        if isReceived {
            complete()
        } else if !state.value.exchange.keepAlive {
            finish()
        }
        // Otherwise the rest of the body is read (and dropped) first.
    }

    /// The exchange in hand is over: the next request, if any.
}
