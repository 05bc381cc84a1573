import RxCore
import RxUV

extension Reactive where Base == Loop {
    /// Connects to `host:port` (`connect(host:port:)`) and runs a TLS
    /// handshake over the connection as a client of `context`; succeeds
    /// with the `TLSStream` once the handshake is done, on the loop thread.
    ///
    /// The server's certificate is checked against `context`'s trust roots
    /// and against `serverName` (by default `host`: a name is checked with
    /// `X509_check_host` and sent as SNI, an IP address is checked against
    /// the certificate's IP addresses), unless the configuration's
    /// `peerVerification` is `.none`. Fails with the connect's `UVError`
    /// (`ECONNREFUSED`), or the handshake's `TLSError` (`.unknownCA`,
    /// `.hostnameMismatch`, `.certificateExpired`, `.handshakeTimeout`).
    /// Disposing before it succeeds closes the connection.
    public func connect(host: String, port: Int, tls context: TLSContext, serverName: String? = nil) -> Single<TLSStream> {
        let name = serverName ?? host
        return connect(host: host, port: port).flatMap { connection in
            TLSStream.connected(over: connection, context: context, serverName: name)
        }
    }

    /// Connects to the Unix-domain socket `path` and runs a TLS handshake
    /// over it as a client of `context`, as
    /// `connect(host:port:tls:serverName:)` does; `serverName`, if given,
    /// is sent and checked.
    public func connect(unixPath path: String, tls context: TLSContext, serverName: String? = nil) -> Single<TLSStream> {
        connect(unixPath: path).flatMap { connection in
            TLSStream.connected(over: connection, context: context, serverName: serverName)
        }
    }
}

extension TLSStream {
    /// A client over `transport`, delivered once its handshake is done.
    static func connected(over transport: any ByteStream, context: TLSContext, serverName: String?) -> Single<TLSStream> {
        let stream = TLSStream.client(over: transport, context: context, serverName: serverName)
        return stream.handshake.andThen(Single.just(stream))
    }
}
