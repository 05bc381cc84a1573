/// An HTTP/2 error code (RFC 9113 §7), as a RST_STREAM or GOAWAY frame
/// carries it: why a stream or a connection ended.
public enum HTTP2ErrorCode: UInt32, Sendable, Hashable, CustomStringConvertible {
    /// A graceful end, not an error.
    case noError = 0x0
    /// The peer broke the protocol.
    case protocolError = 0x1
    /// The sender failed on its own.
    case internalError = 0x2
    /// The peer broke flow control.
    case flowControlError = 0x3
    /// SETTINGS were not acknowledged in time.
    case settingsTimeout = 0x4
    /// A frame came for a half-closed stream.
    case streamClosed = 0x5
    /// A frame had a wrong size.
    case frameSizeError = 0x6
    /// The stream was refused before any processing (safe to retry).
    case refusedStream = 0x7
    /// The stream is no longer needed.
    case cancel = 0x8
    /// The header compression context cannot be kept.
    case compressionError = 0x9
    /// A CONNECT's connection failed.
    case connectError = 0xa
    /// The peer behaves in a way that could cost too much (a flood).
    case enhanceYourCalm = 0xb
    /// The transport's security is not enough.
    case inadequateSecurity = 0xc
    /// The request must be made over HTTP/1.1.
    case http11Required = 0xd

    /// The RFC's name (`ENHANCE_YOUR_CALM`).
    public var description: String {
        switch self {
        case .noError: "NO_ERROR"
        case .protocolError: "PROTOCOL_ERROR"
        case .internalError: "INTERNAL_ERROR"
        case .flowControlError: "FLOW_CONTROL_ERROR"
        case .settingsTimeout: "SETTINGS_TIMEOUT"
        case .streamClosed: "STREAM_CLOSED"
        case .frameSizeError: "FRAME_SIZE_ERROR"
        case .refusedStream: "REFUSED_STREAM"
        case .cancel: "CANCEL"
        case .compressionError: "COMPRESSION_ERROR"
        case .connectError: "CONNECT_ERROR"
        case .enhanceYourCalm: "ENHANCE_YOUR_CALM"
        case .inadequateSecurity: "INADEQUATE_SECURITY"
        case .http11Required: "HTTP_1_1_REQUIRED"
        }
    }
}

/// A request body's stream ended before the body did: the peer reset it
/// (RST_STREAM with `code`), or the connection ended. What
/// `HTTPRequestBody.bytes` fails with over HTTP/2.
public struct HTTP2StreamError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the stream ended (`CANCEL` for a client that gave up).
    public let code: HTTP2ErrorCode

    /// An error for a stream ended with `code`.
    public init(code: HTTP2ErrorCode) {
        self.code = code
    }

    public var description: String {
        "HTTP/2 stream reset (\(code))"
    }
}
