@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

extension Reactive where Base == Loop {
    /// Opens a UDP socket bound to `host:port` and succeeds with it
    /// (`uv_udp_init_ex`, `uv_udp_bind`), with `options` set before
    /// binding (`SO_REUSEPORT`, buffer sizes) or right after (broadcast).
    ///
    /// `host` may be a numeric IPv4/IPv6 address or a name, which is
    /// resolved first (the first address is bound); port 0 lets the system
    /// choose (see `UDPSocket.localAddress`). Fails with the `UVError` of the
    /// step that failed (`EADDRINUSE`, `EADDRNOTAVAIL`, `EAI_NONAME`). The
    /// result arrives on the loop thread. Disposing before it arrives closes
    /// the socket.
    public func bindUDP(host: String, port: Int, options: UDPOptions = UDPOptions()) -> Single<UDPSocket> {
        Single(raw: UDPOpen(loop: base, host: host, port: port, options: options, connects: false))
    }

    /// Opens a UDP socket connected to `host:port` (`uv_udp_connect`): its
    /// sends go there (`UDPSocket.send(_:)`) and it receives only that
    /// peer's datagrams. An ICMP port unreachable for an earlier send shows
    /// up as `ECONNREFUSED` on a later send, never as the end of
    /// `datagrams`. Otherwise as `bindUDP`.
    public func connectUDP(host: String, port: Int, options: UDPOptions = UDPOptions()) -> Single<UDPSocket> {
        Single(raw: UDPOpen(loop: base, host: host, port: port, options: options, connects: true))
    }
}
