import RxCore
import RxUV
import RxUVHTTP

/// Streamed messages both ways: a received message past the streaming
/// threshold as a `WebSocketMessageStream` whose reader's room holds the
/// connection's reading, and a `.stream` sent frame by frame. Every method
/// on the loop thread.
extension WebSocket: HTTPBodyConnection {
    // MARK: Received

    /// A piece of a streamed message arrived: its first opens the stream
    /// (delivered as a message), its last ends it.
    func receivedFragment(_ fragment: WebSocketFragment) {
        if fragment.isFirst {
            let source = HTTPBodySource(loop: loop, declaredLength: nil, connection: self, bufferLimit: options.unreadLimit)
            state.value.inboundStream = source
            deliver(.stream(WebSocketMessageStream(opcode: fragment.opcode, source: source)))
        }
        guard let source = state.value.inboundStream else { return }
        if fragment.isLast {
            state.value.inboundStream = nil
            source.end(last: fragment.bytes)
        } else {
            source.receive(fragment.bytes)
        }
    }

    /// The connection failed or ended inside a streamed message: its reader
    /// hears why.
    func failInboundStream(_ error: any Error) {
        guard let source = state.value.inboundStream else { return }
        state.value.inboundStream = nil
        source.fail(error)
    }

    package func body(_ body: HTTPBodySource, holds held: Bool) {
        if let inboundBody {
            inboundBody.consumerHolds(held)
        } else {
            stream.holdReading(held)
        }
    }

    package func bodyWanted(_ body: HTTPBodySource) {}

    package func bodyAbandoned(_ body: HTTPBodySource) {}

    // MARK: Sent

    /// `outgoing`'s buffers as the frames of one message: the first with
    /// its kind, the rest continuations, and an empty final frame at its
    /// end; the data messages sent meanwhile wait, then go in order.
    func sendingStream(_ outgoing: WebSocketMessageStream) -> Completable {
        Completable.create { [self] observer in
            state.value.streamsSent += 1
            let number = state.value.streamsSent
            state.value.streamBeingSent = number
            var first = true
            let frames = outgoing.bytes.observe(on: loop).concatMap { [self] bytes -> Observable<Never> in
                let opcode = first ? outgoing.opcode : .continuation
                first = false
                return writing(WebSocketFrame(fin: false, opcode: opcode, payload: bytes)).asObservable()
            }
            let subscription = frames.asCompletable().andThen(
                Completable.deferred { [self] in
                    writing(WebSocketFrame(opcode: first ? outgoing.opcode : .continuation))
                }
            ).subscribe { [self] event in
                streamSent(number, failed: { if case .error = event { true } else { false } }())
                switch event {
                case .completed: observer(.completed)
                case .error(let error): observer(.error(error))
                }
            }
            return Disposables.create { [self] in
                subscription.dispose()
                loop.enter { [self] in streamSent(number, failed: true) }
            }
        }
    }

    /// The stream `number` being sent ended (nothing when it already had):
    /// unfinished, the socket closes (1011); the sends that waited go, in
    /// order.
    private func streamSent(_ number: Int, failed: Bool) {
        guard state.value.streamBeingSent == number else { return }
        state.value.streamBeingSent = nil
        if failed {
            beginClose(WebSocketClose(code: .internalError, reason: "a streamed message could not be finished"))
        }
        let waiting = state.value.waitingSends
        state.value.waitingSends = []
        for start in waiting { start() }
    }
}
