/// Why the bytes a peer sent cannot go on as a WebSocket connection: the
/// error every decoding step of RxUVWebSocket throws.
///
/// `closeCode` is what to send in the Close frame that fails the connection
/// (RFC 6455 §7.1.7): `protocolError` (1002) for a frame or sequence the
/// protocol forbids, `invalidFramePayloadData` (1007) for text that is not
/// UTF-8, `messageTooBig` (1009) past a limit. One code is never sent:
/// `abnormalClosure` (1006) says the stream ended inside a frame or a
/// message, or without a Close frame, and there is no one left to tell.
/// `reason` says what was wrong, in a sentence fit for a log (and, cut to
/// 123 bytes, for the Close frame's reason).
public struct WebSocketProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The code of the Close frame to send (or, for `abnormalClosure`, the
    /// code to report).
    public let closeCode: WebSocketCloseCode
    /// What was wrong.
    public let reason: String

    /// An error that fails the connection with `closeCode` for `reason`.
    public init(closeCode: WebSocketCloseCode, reason: String) {
        self.closeCode = closeCode
        self.reason = reason
    }

    /// A protocol error (1002).
    static func protocolError(_ reason: String) -> WebSocketProtocolError {
        WebSocketProtocolError(closeCode: .protocolError, reason: reason)
    }

    /// `1002 protocolError: a control frame of 126 bytes`.
    public var description: String {
        "\(closeCode): \(reason)"
    }
}
