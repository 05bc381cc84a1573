/// Whether the peer's certificate is asked for and checked.
///
/// A client's default is `.required`: the server's certificate must chain
/// to the trust roots and name the host (`X509_check_host`, or the IP
/// address for a numeric host). A server's default is `.none`: it asks for
/// no client certificate; `.ifPresented` and `.required` turn on mutual
/// TLS.
public enum TLSPeerVerification: Sendable, Hashable {
    /// Ask for nothing, check nothing (a client: accept any server; only
    /// for tests).
    case none
    /// A server asks for a client certificate and checks it when one is
    /// sent; a client without one is let in (the handler sees
    /// `TLSSession.peerCertificate` as `nil`).
    case ifPresented
    /// The peer must present a certificate that verifies; without one the
    /// handshake fails (`TLSError.Code.certificateRequired` on a server).
    case required
}
