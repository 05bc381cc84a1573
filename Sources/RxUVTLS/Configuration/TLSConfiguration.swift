/// How TLS is spoken on a connection: identity, trust, versions, ALPN,
/// SNI, peer verification and the handshake's deadline. A value: make a
/// `TLSContext` from it (or hand it to `serve(…, tls:)` / `connect(…, tls:)`,
/// which make one).
///
/// ```swift
/// let server = TLSConfiguration.server(identity: TLSIdentity(
///     certificateChain: .file("/etc/rxuv/cert.pem"),
///     privateKey: .file("/etc/rxuv/key.pem")))
/// var client = TLSConfiguration.client()
/// client.trustRoots = .certificates(.file("/etc/rxuv/ca.pem"))
/// ```
///
/// Renegotiation is always refused (`SSL_OP_NO_RENEGOTIATION`), and a peer
/// that ends the connection without `close_notify` is always reported
/// (`TLSError.Code.uncleanShutdown`): neither is a setting.
public struct TLSConfiguration: Sendable, Hashable {
    /// What this side presents: required on a server, optional on a client
    /// (sent when the server asks for one: mutual TLS).
    public var identity: TLSIdentity?
    /// A server's identity per server name the client asks for (SNI): the
    /// name in lower case, or `*.example.com` for any one label under
    /// `example.com`. A name not listed gets `identity`.
    public var identitiesByServerName: [String: TLSIdentity]
    /// The authorities a peer's certificate must chain to; loaded only
    /// when `peerVerification` is not `.none` (a server that asks for no
    /// client certificate loads none).
    public var trustRoots: TLSTrustRoots
    /// Whether the peer's certificate is asked for and checked.
    public var peerVerification: TLSPeerVerification
    /// The oldest version spoken; TLS 1.2 by default.
    public var minimumVersion: TLSVersion
    /// The newest version spoken; `nil` (the default) for the newest OpenSSL has.
    public var maximumVersion: TLSVersion?
    /// ALPN protocols, most preferred first (`h2`, `http/1.1`): a client
    /// offers them, a server picks the first of its own that the client
    /// offers. Empty: no ALPN.
    public var applicationProtocols: [String]
    /// TLS 1.2 cipher list in OpenSSL's syntax (`SSL_CTX_set_cipher_list`);
    /// `nil` for OpenSSL's default.
    public var cipherList: String?
    /// TLS 1.3 cipher suites (`TLS_AES_256_GCM_SHA384:…`,
    /// `SSL_CTX_set_ciphersuites`); `nil` for OpenSSL's default.
    public var cipherSuites: String?
    /// Key exchange groups, most preferred first (`X25519:P-256`,
    /// `SSL_CTX_set1_groups_list`); `nil` for OpenSSL's default.
    public var groups: String?
    /// A handshake not finished by then fails with
    /// `TLSError.Code.handshakeTimeout` and the connection is closed. Ten
    /// seconds by default.
    public var handshakeTimeout: Duration

    /// A configuration with every field given; see `server(identity:)` and
    /// `client()` for the usual starting points.
    public init(
        identity: TLSIdentity? = nil,
        identitiesByServerName: [String: TLSIdentity] = [:],
        trustRoots: TLSTrustRoots = .system,
        peerVerification: TLSPeerVerification = .required,
        minimumVersion: TLSVersion = .tls12,
        maximumVersion: TLSVersion? = nil,
        applicationProtocols: [String] = [],
        cipherList: String? = nil,
        cipherSuites: String? = nil,
        groups: String? = nil,
        handshakeTimeout: Duration = .seconds(10)
    ) {
        self.identity = identity
        self.identitiesByServerName = identitiesByServerName
        self.trustRoots = trustRoots
        self.peerVerification = peerVerification
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
        self.applicationProtocols = applicationProtocols
        self.cipherList = cipherList
        self.cipherSuites = cipherSuites
        self.groups = groups
        self.handshakeTimeout = handshakeTimeout
    }

    /// A server's configuration: `identity` presented, no client
    /// certificate asked for (set `peerVerification` and `trustRoots` for
    /// mutual TLS), TLS 1.2 and 1.3.
    public static func server(identity: TLSIdentity) -> TLSConfiguration {
        TLSConfiguration(identity: identity, peerVerification: .none)
    }

    /// A client's configuration: the server's certificate checked against
    /// the system's trust store and the host name, TLS 1.2 and 1.3.
    public static func client(trustRoots: TLSTrustRoots = .system) -> TLSConfiguration {
        TLSConfiguration(trustRoots: trustRoots, peerVerification: .required)
    }
}
