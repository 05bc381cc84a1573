@_spi(Bridge) import RxCore

extension Reactive where Base == Loop {
    /// Listens for TCP connections on `host:port` and emits each accepted
    /// connection.
    ///
    /// Binding and listening happen on subscribe (`socket`, `bind`,
    /// `listen`, made by RxUV, then `uv_poll_start` on the socket);
    /// their errors, such as `EADDRINUSE`, `EACCES` or `EADDRNOTAVAIL`, arrive
    /// as `.error(UVError)` on that subscription (synchronously when
    /// subscribed on the loop thread with a numeric host). `host` may be a
    /// numeric IPv4/IPv6 address or a name, which is resolved first. Pass
    /// port 0 to let the system choose; `onListening` receives the bound
    /// address once listening. Events arrive on the loop thread. Disposing
    /// closes the listening socket; connections already accepted stay open
    /// (each closes with its own `data` subscription or `close()`).
    ///
    /// Connections are accepted with `accept` and opened on the loop with
    /// `uv_tcp_open`, with `TCP_NODELAY` set (a failure to set it is
    /// reported, and the connection served all the same). A connection that
    /// went wrong before it was accepted (`ECONNABORTED`, a network error
    /// Linux hands on) is skipped. Running out of descriptors or memory
    /// while accepting (`EMFILE`, `ENFILE`, `ENOMEM`, `ENOBUFS`) is reported
    /// (to the loop's logger, `Loop.logger`: standard error by default) and
    /// accepting pauses for 100 ms: the waiting connections stay in the
    /// kernel's queue and are accepted once descriptors free up. Any other
    /// failure to accept ends the sequence with that error and closes the
    /// listening socket; connections already accepted stay open, and
    /// `retry` listens again. `Server` accepts the same way.
    ///
    /// `backlog` bounds the connections the kernel completes before they are
    /// accepted; the kernel caps it (Linux: `net.core.somaxconn`). The
    /// default, 4096, absorbs bursts: when the queue overflows, Linux drops
    /// handshakes the client already counts as done, and those clients wait
    /// seconds for SYN-ACK retransmits.
    public func listen(
        host: String,
        port: Int,
        backlog: Int = 4096,
        onListening: (@Sendable (SocketAddress) -> Void)? = nil
    ) -> Observable<TCPConnection> {
        TCPListen(loop: base, host: host, port: port, backlog: backlog, onListening: onListening)
    }
}
