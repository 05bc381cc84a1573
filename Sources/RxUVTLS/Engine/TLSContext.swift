import Synchronization

/// A TLS configuration loaded into OpenSSL, ready to make connections: what
/// `serve(…, tls:)`, `listen(…, tls:)` and `connect(…, tls:)` take. Make one
/// per configuration and share it: every loop's connections use it.
///
/// `reload` swaps what it holds while it is in use: connections made
/// afterwards use the new certificates, connections already open keep the
/// ones they started with. That is how a server renews its certificate
/// without a restart (the examples reload on `SIGHUP`).
///
/// Safe from any thread.
public final class TLSContext: Sendable {
    private let current: Mutex<OpenSSLContext>

    /// Loads `configuration`: reads its PEM files, checks that the key
    /// matches the certificate, loads the trust roots. Throws a
    /// `TLSError` (`.invalidConfiguration`) that names the file and what
    /// OpenSSL said.
    public init(configuration: TLSConfiguration) throws(TLSError) {
        current = Mutex(try OpenSSLContext(configuration))
    }

    /// The configuration in use.
    public var configuration: TLSConfiguration {
        current.withLock { $0.configuration }
    }

    /// Loads `configuration` (by default the one in use, so its files are
    /// read again) and uses it for every connection made from now on. On
    /// failure the context keeps what it had and throws.
    public func reload(_ configuration: TLSConfiguration? = nil) throws(TLSError) {
        let loaded = try OpenSSLContext(configuration ?? self.configuration)
        current.withLock { $0 = loaded }
    }

    /// The OpenSSL context new connections use now.
    var openSSL: OpenSSLContext {
        current.withLock { $0 }
    }
}
