@_spi(Bridge) import RxCore

extension Reactive where Base == Loop {
    /// Connects to `host:port` and succeeds with the connection.
    ///
    /// A numeric IPv4/IPv6 host is used as is; a name is resolved with
    /// `uv_getaddrinfo` and its addresses are tried in order until one
    /// connects (`uv_tcp_connect`). Fails with the `UVError` of the last
    /// attempt (`ECONNREFUSED`, `ETIMEDOUT`, ...) or of the lookup
    /// (`EAI_NONAME`). Disposing while resolving or connecting cancels: the
    /// lookup is cancelled, the socket closed, and the `ECANCELED` that
    /// follows is swallowed. The result arrives on the loop thread.
    public func connect(host: String, port: Int) -> Single<TCPConnection> {
        Single(raw: TCPConnect(loop: base, host: host, port: port))
    }
}
