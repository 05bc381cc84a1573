import RxCore
import RxUV

/// Keep-alive (`WebSocketOptions.pingInterval`): a ping that often, and a
/// peer that answers none within `pongTimeout` closed with 1011. Loop
/// thread.
extension WebSocket {
    func startKeepAlive(every interval: Duration) {
        guard state.value.phase != .ended else { return }
        state.value.keepAlive = Observable<Int>.interval(RxTimeInterval(interval), scheduler: loop).subscribe(onNext: { [self] _ in
            ping()
        })
    }

    /// Sends a keep-alive ping unless one still waits for its pong.
    func ping() {
        guard state.value.phase == .open, !state.value.sentClose, state.value.pongTimer == nil else { return }
        state.value.pingsSent &+= 1
        let count = state.value.pingsSent
        write(WebSocketFrame(opcode: .ping, payload: ByteBuffer([UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)])))
        let timeout = options.pongTimeout
        state.value.pongTimer = loop.scheduleRelative((), dueTime: timeout) { [self] _ in
            state.value.pongTimer = nil
            fail(WebSocketProtocolError(closeCode: .internalError, reason: "keepalive ping timeout: no pong within \(timeout)"))
            return Disposables.create()
        }
    }
}
