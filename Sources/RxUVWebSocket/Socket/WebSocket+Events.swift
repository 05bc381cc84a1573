import RxCore
import RxUV

/// The peer's events, the close handshake and the socket's end: every
/// method on the loop thread.
extension WebSocket {
    // MARK: Messages

    func subscribe(_ observer: @escaping (Event<WebSocketMessage>) -> Void) {
        guard state.value.observer == nil else {
            observer(.error(UVError(code: .busy, operation: "WebSocket.messages (one subscriber at a time)")))
            return
        }
        let unread = state.value.unread
        state.value.unread = []
        state.value.unreadBytes = 0
        for message in unread { observer(.next(message)) }
        if let ending = state.value.ending {
            observer(ending)
            return
        }
        state.value.observer = observer
    }

    func messagesDisposed() {
        guard state.value.observer != nil else { return }
        state.value.observer = nil
        beginClose(WebSocketClose(code: .goingAway))
    }

    func deliver(_ message: WebSocketMessage) {
        if let observer = state.value.observer {
            observer(.next(message))
            return
        }
        state.value.unread.append(message)
        state.value.unreadBytes += message.byteCount
        if state.value.unreadBytes > options.unreadLimit {
            state.value.unread = []
            state.value.unreadBytes = 0
            fail(WebSocketProtocolError(closeCode: .policyViolation, reason: "over \(options.unreadLimit) bytes of messages unread"))
        }
    }

    // MARK: The peer's events

    func received(_ event: WebSocketEvent) {
        guard state.value.phase != .ended else { return }
        switch event {
        case .message(let message):
            deliver(message)
        case .fragment(let fragment):
            receivedFragment(fragment)
        case .ping(let payload):
            // Answered while this side may still send (§5.5.2).
            if !state.value.sentClose { write(WebSocketFrame(opcode: .pong, payload: payload)) }
        case .pong:
            // Any pong answers the keep-alive ping (§5.5.3).
            let timer = state.value.pongTimer
            state.value.pongTimer = nil
            timer?.dispose()
        case .close(let close):
            if !state.value.sentClose {
                // The answer echoes the code (§5.5.1); none for a Close
                // that carried none.
                sendClose(close.code == .noStatusReceived ? nil : WebSocketClose(code: close.code))
            }
            end(close, messages: .completed)
        }
    }

    /// The decoder refused the peer's bytes, or the reading failed.
    func fail(_ error: any Error) {
        guard state.value.phase != .ended else { return }
        guard let protocolError = error as? WebSocketProtocolError else {
            end(WebSocketClose(code: .abnormalClosure, reason: "\(error)"), messages: .error(error))
            return
        }
        if protocolError.closeCode.isSendable, !state.value.sentClose {
            sendClose(WebSocketClose(code: protocolError.closeCode, reason: Self.shortened(protocolError.reason)))
        }
        end(WebSocketClose(code: protocolError.closeCode, reason: protocolError.reason), messages: .error(protocolError))
    }

    /// The peer's bytes ended after its Close (the decoder fails an end
    /// before one).
    func inputCompleted() {
        end(WebSocketClose(code: .abnormalClosure, reason: "the connection ended"), messages: .completed)
    }

    // MARK: Closing

    func beginClose(_ close: WebSocketClose) {
        guard state.value.phase == .open, !state.value.sentClose else { return }
        sendClose(close)
        state.value.phase = .closing
        let timeout = options.closeTimeout
        state.value.closeTimer = loop.scheduleRelative((), dueTime: timeout) { [self] _ in
            state.value.closeTimer = nil
            end(WebSocketClose(code: .abnormalClosure, reason: "no Close from the peer within \(timeout)"), messages: .completed)
            return Disposables.create()
        }
    }

    /// Writes a Close frame with `close`'s code and reason (an empty one for
    /// `nil`).
    func sendClose(_ close: WebSocketClose?) {
        state.value.sentClose = true
        var payload: [UInt8] = []
        if let close {
            payload = [UInt8(close.code.rawValue >> 8), UInt8(close.code.rawValue & 0xFF)] + Array(Self.shortened(close.reason).utf8)
        }
        write(WebSocketFrame(opcode: .close, payload: ByteBuffer(payload)))
    }

    /// The socket is over: `messages` hears `messages`, `closed` hears
    /// `close`, the reading stops and the connection closes after its
    /// writes.
    func end(_ close: WebSocketClose, messages event: Event<WebSocketMessage>) {
        guard state.value.phase != .ended else { return }
        state.value.phase = .ended
        state.value.outcome = close
        stopTimers()
        failInboundStream(event.error ?? WebSocketProtocolError(closeCode: .abnormalClosure, reason: "the socket ended inside a streamed message"))
        let observer = state.value.observer
        state.value.observer = nil
        if observer == nil { state.value.ending = event }
        reading.dispose()
        stream.close(.afterWrites)
        observer?(event)
        tellEnded(close)
    }

    /// Calls `watcher` with how the socket ended: at once (returning `nil`)
    /// when it has, else when it does (returning the key that
    /// `endWatchers` keeps it under, for one who stops waiting).
    func whenEnded(_ watcher: @escaping (WebSocketClose) -> Void) -> Int? {
        if let outcome = state.value.outcome {
            watcher(outcome)
            return nil
        }
        state.value.endWatchersMade += 1
        state.value.endWatchers.append((state.value.endWatchersMade, watcher))
        return state.value.endWatchersMade
    }

    /// Tells every watcher how the socket ended.
    func tellEnded(_ close: WebSocketClose) {
        let watchers = state.value.endWatchers
        state.value.endWatchers = []
        for (_, watcher) in watchers { watcher(close) }
    }

    func stopTimers() {
        let timers = [state.value.closeTimer, state.value.keepAlive, state.value.pongTimer]
        state.value.closeTimer = nil
        state.value.keepAlive = nil
        state.value.pongTimer = nil
        for timer in timers { timer?.dispose() }
    }

    /// Writes a control frame, its end heard by nobody.
    func write(_ frame: WebSocketFrame) {
        _ = writing(frame).subscribe()
    }

    /// `reason` cut to the 123 bytes a Close frame has room for, at a
    /// character's start.
    static func shortened(_ reason: String) -> String {
        guard reason.utf8.count > 123 else { return reason }
        var cut = ""
        for character in reason {
            guard cut.utf8.count + character.utf8.count <= 123 else { break }
            cut.append(character)
        }
        return cut
    }
}

extension WebSocket {
    /// The connection's owner stopped it (the server's reset): reading and
    /// timers stop, `closed` hears 1006; the owner closes the stream.
    func stop() {
        loop.enter { [self] in
            guard state.value.phase != .ended else { return }
            state.value.phase = .ended
            let close = WebSocketClose(code: .abnormalClosure, reason: "the connection was stopped")
            state.value.outcome = close
            stopTimers()
            failInboundStream(WebSocketProtocolError(closeCode: .abnormalClosure, reason: close.reason))
            state.value.observer = nil
            reading.dispose()
            tellEnded(close)
        }
    }
}
