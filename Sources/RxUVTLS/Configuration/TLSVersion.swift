internal import COpenSSL

/// A version of the TLS protocol, for `TLSConfiguration.minimumVersion` and
/// `maximumVersion`, and as `TLSSession.protocolVersion` reports it.
public enum TLSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// TLS 1.2 (RFC 5246).
    case tls12
    /// TLS 1.3 (RFC 8446).
    case tls13

    /// `TLSv1.2`, `TLSv1.3`: what OpenSSL's `SSL_get_version` says.
    public var description: String {
        switch self {
        case .tls12: "TLSv1.2"
        case .tls13: "TLSv1.3"
        }
    }

    /// OpenSSL's number for the version (`TLS1_2_VERSION`).
    var openSSLVersion: Int32 {
        switch self {
        case .tls12: TLS1_2_VERSION
        case .tls13: TLS1_3_VERSION
        }
    }

    /// The version OpenSSL negotiated (`SSL_version`), if it is one of ours.
    init?(openSSLVersion: Int32) {
        switch openSSLVersion {
        case TLS1_2_VERSION: self = .tls12
        case TLS1_3_VERSION: self = .tls13
        default: return nil
        }
    }
}
