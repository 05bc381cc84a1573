/// What went wrong in TLS: a handshake that failed (and why, in OpenSSL's
/// words), a certificate that did not verify, a peer that ended without
/// `close_notify`, a handshake that took too long, a configuration that
/// cannot be loaded.
///
/// Match on `code` (`error.code == .certificateExpired`); `reason` is
/// OpenSSL's text (`certificate verify failed: certificate has expired`),
/// `operation` what was being done and `peer` the address, where known. A
/// failure of the connection underneath (a reset, a refused connect)
/// arrives as the bridge's `UVError`, not as a `TLSError`.
public struct TLSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, matchable by name.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name (`certificateExpired`).
        public let rawValue: String

        /// A code named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The name.
        public var description: String { rawValue }

        /// The handshake did not finish within
        /// `TLSConfiguration.handshakeTimeout`.
        public static let handshakeTimeout = Code(rawValue: "handshakeTimeout")
        /// The peer closed the connection without `close_notify` (OpenSSL 3's
        /// unexpected EOF), or during the handshake: what was received may
        /// be truncated.
        public static let uncleanShutdown = Code(rawValue: "uncleanShutdown")
        /// A certificate in the peer's chain has expired (or the peer says
        /// ours has).
        public static let certificateExpired = Code(rawValue: "certificateExpired")
        /// A certificate in the peer's chain is not valid yet.
        public static let certificateNotYetValid = Code(rawValue: "certificateNotYetValid")
        /// The peer's certificate names neither the host name nor the IP
        /// address asked for.
        public static let hostnameMismatch = Code(rawValue: "hostnameMismatch")
        /// The peer's chain ends at an authority the trust roots do not
        /// hold (or the peer says so of ours).
        public static let unknownCA = Code(rawValue: "unknownCA")
        /// The peer's certificate is self-signed and not trusted.
        public static let selfSignedCertificate = Code(rawValue: "selfSignedCertificate")
        /// The peer's certificate did not verify for another reason
        /// (`reason` says which).
        public static let certificateVerificationFailed = Code(rawValue: "certificateVerificationFailed")
        /// A certificate was required and the peer sent none.
        public static let certificateRequired = Code(rawValue: "certificateRequired")
        /// The peer rejected our certificate (a `bad_certificate`,
        /// `unsupported_certificate`, `certificate_revoked` or
        /// `certificate_unknown` alert).
        public static let certificateRejected = Code(rawValue: "certificateRejected")
        /// The two sides share no cipher suite.
        public static let noSharedCipher = Code(rawValue: "noSharedCipher")
        /// The two sides share no protocol version.
        public static let protocolVersion = Code(rawValue: "protocolVersion")
        /// What arrived is not TLS (plain text, an HTTP request on a TLS port).
        public static let notTLS = Code(rawValue: "notTLS")
        /// A record failed to decrypt or to parse.
        public static let badRecord = Code(rawValue: "badRecord")
        /// The peer asked to renegotiate; RxUV refuses renegotiation.
        public static let renegotiationRefused = Code(rawValue: "renegotiationRefused")
        /// The peer offered none of our ALPN protocols.
        public static let noApplicationProtocol = Code(rawValue: "noApplicationProtocol")
        /// The handshake failed for another reason (`reason` says which).
        public static let handshakeFailure = Code(rawValue: "handshakeFailure")
        /// Another TLS protocol failure after the handshake.
        public static let protocolError = Code(rawValue: "protocolError")
        /// The configuration cannot be used: a missing or unreadable file, a
        /// key that does not match its certificate, an unknown cipher or group.
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")
    }

    /// The kind of failure.
    public let code: Code
    /// OpenSSL's words for it, or ours where OpenSSL has none.
    public let reason: String
    /// What was being done (`TLS handshake`, `TLS read`, `TLSContext`).
    public let operation: String
    /// The peer's address, or the file involved, where known.
    public let address: String?

    /// An error of `code` with OpenSSL's (or our) `reason`.
    public init(code: Code, reason: String, operation: String, address: String? = nil) {
        self.code = code
        self.reason = reason
        self.operation = operation
        self.address = address
    }

    /// `TLS handshake (127.0.0.1:44312): certificateExpired: certificate verify failed: certificate has expired`.
    public var description: String {
        let place = address.map { " (\($0))" } ?? ""
        return "\(operation)\(place): \(code): \(reason)"
    }

    /// The same error, with `address` filled in.
    func at(_ address: String?) -> TLSError {
        TLSError(code: code, reason: reason, operation: operation, address: self.address ?? address)
    }
}
