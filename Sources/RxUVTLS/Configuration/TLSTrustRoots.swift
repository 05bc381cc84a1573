/// The certificate authorities a peer's certificate must chain to.
public enum TLSTrustRoots: Sendable, Hashable {
    /// The system's store (`SSL_CTX_set_default_verify_paths`: on Debian,
    /// `/etc/ssl/certs`).
    case system
    /// These certificates only, in PEM (a CA file or bytes): a private CA.
    case certificates(PEMSource)
}
