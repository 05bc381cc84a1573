import RxUV

/// What a finished handshake agreed on: `TLSStream.session`, set once the
/// handshake is done.
public struct TLSSession: Sendable, Hashable {
    /// The protocol version (`.tls13`).
    public let protocolVersion: TLSVersion
    /// The cipher suite, in OpenSSL's name (`TLS_AES_256_GCM_SHA384`).
    public let cipherSuite: String
    /// The ALPN protocol agreed on, if any (`h2`, `http/1.1`).
    public let applicationProtocol: String?
    /// The server name the client asked for (SNI), if any.
    public let serverName: String?
    /// The peer's certificate: a server's always (unless verification is
    /// off and it sent none), a client's when it sent one (mutual TLS).
    public let peerCertificate: TLSCertificate?
    /// Whether the session was resumed from an earlier one.
    public let isResumed: Bool
}
