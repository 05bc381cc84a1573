/// A certificate chain and its private key: what a server presents, and
/// what a client presents when the server asks for one (mutual TLS).
public struct TLSIdentity: Sendable, Hashable {
    /// The leaf certificate first, then the intermediates, in PEM: the
    /// chain sent as it is (nothing is added from the trust roots).
    public var certificateChain: PEMSource
    /// The leaf certificate's private key, in PEM (unencrypted).
    public var privateKey: PEMSource

    /// An identity from a PEM chain (leaf first) and its key.
    public init(certificateChain: PEMSource, privateKey: PEMSource) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }
}
