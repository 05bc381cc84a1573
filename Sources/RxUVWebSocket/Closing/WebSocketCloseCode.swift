/// The status code of a Close frame (RFC 6455 §7.4): why a connection is
/// being closed.
///
/// A struct over the code's `UInt16`, so that any code can be carried (the
/// ranges 3000–3999 and 4000–4999 belong to libraries and applications); the
/// codes RFC 6455 §7.4.1 and the IANA "WebSocket Close Code Number" registry
/// name are static members.
///
/// Which codes a peer may send is `isValidReceived`: RxUV takes 1000–1003 and
/// 1007–1014 (the codes of RFC 6455 and those IANA registered since:
/// 1012 Service Restart, 1013 Try Again Later, 1014 Bad Gateway) and
/// 3000–4999. Everything else is refused with `protocolError`: below 1000
/// (unused, §7.4.2), 1004 (reserved), 1005, 1006 and 1015 (which §7.4.1 says
/// MUST NOT be set in a Close frame), 1016–2999 (reserved for this protocol,
/// and not assigned), and 5000 on (outside every range).
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as on the wire.
    public let rawValue: UInt16

    /// The code `rawValue`, whatever it is (see `isValidReceived`).
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The code `code` (`WebSocketCloseCode(4000)`).
    public init(_ code: UInt16) {
        self.rawValue = code
    }

    /// 1000: the purpose of the connection was fulfilled.
    public static let normalClosure = WebSocketCloseCode(1000)
    /// 1001: the endpoint is going away (a server shutting down, a page left).
    public static let goingAway = WebSocketCloseCode(1001)
    /// 1002: the peer broke the protocol; what RxUV sends for every framing error.
    public static let protocolError = WebSocketCloseCode(1002)
    /// 1003: a kind of data the endpoint cannot accept (binary for a text-only one).
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// 1005: the Close frame carried no code. Never sent: what a receiver
    /// reports for an empty Close frame (§7.1.5).
    public static let noStatusReceived = WebSocketCloseCode(1005)
    /// 1006: the connection ended without a Close frame. Never sent: what a
    /// receiver reports when the stream ends first (§7.1.5).
    public static let abnormalClosure = WebSocketCloseCode(1006)
    /// 1007: a message's data does not match its type (a text message that
    /// is not UTF-8).
    public static let invalidFramePayloadData = WebSocketCloseCode(1007)
    /// 1008: a message against the endpoint's policy (no better code fits).
    public static let policyViolation = WebSocketCloseCode(1008)
    /// 1009: a frame or message too big to process.
    public static let messageTooBig = WebSocketCloseCode(1009)
    /// 1010: the client needed an extension the server did not accept.
    public static let mandatoryExtension = WebSocketCloseCode(1010)
    /// 1011: the server met an unexpected condition.
    public static let internalError = WebSocketCloseCode(1011)
    /// 1012: the service is restarting (IANA registry).
    public static let serviceRestart = WebSocketCloseCode(1012)
    /// 1013: try again later (IANA registry).
    public static let tryAgainLater = WebSocketCloseCode(1013)
    /// 1014: the gateway or proxy got an invalid response (IANA registry).
    public static let badGateway = WebSocketCloseCode(1014)
    /// 1015: the TLS handshake failed. Never sent, as 1005 and 1006.
    public static let tlsHandshakeFailure = WebSocketCloseCode(1015)

    /// `true` for a code a peer may send in a Close frame: 1000–1003,
    /// 1007–1014 and 3000–4999 (see the type's documentation). A received
    /// Close frame with any other code is a protocol error.
    public var isValidReceived: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// `true` for a code this side may put in a Close frame it sends: the
    /// same set as `isValidReceived` (1005, 1006 and 1015 only report).
    public var isSendable: Bool {
        isValidReceived
    }

    /// `1000 normalClosure`, or the number alone for a code with no name.
    public var description: String {
        let name: String? =
            switch rawValue {
            case 1000: "normalClosure"
            case 1001: "goingAway"
            case 1002: "protocolError"
            case 1003: "unsupportedData"
            case 1005: "noStatusReceived"
            case 1006: "abnormalClosure"
            case 1007: "invalidFramePayloadData"
            case 1008: "policyViolation"
            case 1009: "messageTooBig"
            case 1010: "mandatoryExtension"
            case 1011: "internalError"
            case 1012: "serviceRestart"
            case 1013: "tryAgainLater"
            case 1014: "badGateway"
            case 1015: "tlsHandshakeFailure"
            default: nil
            }
        return name.map { "\(rawValue) \($0)" } ?? "\(rawValue)"
    }
}
