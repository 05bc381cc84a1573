import RxCore

extension Reactive where Base == Loop {
    /// Listens for TCP connections on `host:port` and emits each accepted
    /// connection.
    ///
    /// Binding and listening happen on subscribe (`uv_tcp_bind`, `uv_listen`);
    /// their errors, such as `EADDRINUSE`, `EACCES` or `EADDRNOTAVAIL`, arrive
    /// as `.error(UVError)` on that subscription (synchronously when
    /// subscribed on the loop thread with a numeric host). `host` may be a
    /// numeric IPv4/IPv6 address or a name, which is resolved first. Pass
    /// port 0 to let the system choose; `onListening` receives the bound
    /// address once listening. Events arrive on the loop thread. Disposing
    /// closes the listening socket; connections already accepted stay open
    /// (each closes with its own `data` subscription or `close()`).
    ///
    /// Running out of descriptors or memory while a connection arrives
    /// (`EMFILE`, `ENFILE`, `ENOMEM`, `ENOBUFS`, `ECONNABORTED` reported to
    /// the connection callback) drops that connection, reports the error to
    /// `Hooks.defaultErrorHandler` and keeps listening, as libuv does. Any
    /// other failure to accept (`uv_accept` or `uv_tcp_init` for the
    /// connection, or another status) ends the sequence with that error and
    /// closes the listening socket: libuv does not watch a listener again
    /// after a failed `uv_accept`, so going on would leave a server that
    /// silently accepts nothing. Connections already accepted stay open;
    /// `retry` listens again.
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
        let loop = base
        return Observable.create { observer in
            let subscription = HandleSubscription<UVTCP>(loop: loop)
            let fail: @Sendable (UVError) -> Void = { observer.onError($0) }
            subscription.start { () throws(UVError) -> UVTCP? in
                if let address = try? SocketAddress(ip: host, port: port) {
                    return try startListening(on: address, backlog: backlog, observer: observer, onListening: onListening)
                }
                // A host name: resolve, then listen on the first address.
                let lookup = try AddressLookup(loop: loop, host: host, port: port) { status, addresses in
                    guard !subscription.isDisposed else { return }
                    guard status >= 0, let address = addresses.first else {
                        fail(UVError(code: status < 0 ? UVError.Code(rawValue: status) : .unknownHost, operation: "uv_getaddrinfo", address: "\(host):\(port)"))
                        return
                    }
                    do throws(UVError) {
                        let server = try startListening(on: address, backlog: backlog, observer: observer, onListening: onListening)
                        subscription.adopt(server)
                    } catch {
                        fail(error)
                    }
                }
                subscription.onDispose = { lookup.cancel() }
                return nil
            } onError: { error in
                fail(error)
            }
            return subscription
        }
    }

    private func startListening(
        on address: SocketAddress,
        backlog: Int,
        observer: AnyObserver<TCPConnection>,
        onListening: (@Sendable (SocketAddress) -> Void)?
    ) throws(UVError) -> UVTCP {
        let loop = base
        let server = try UVTCP(loop: loop)
        try server.closingIfFails { () throws(UVError) in
            try server.bind(address)
            try server.listen(backlog: Int32(clamping: backlog), address: address.description)
        }
        server.onConnection = { [unowned server] status in
            guard status >= 0 else {
                let error = UVError(status: status, operation: "uv_listen", address: address.description)
                // Running out of descriptors or memory is transient: libuv
                // keeps watching the listener (after its EMFILE trick has
                // turned the pending peer away), so a daemon goes on serving.
                if UVError.Code.transientAcceptFailures.contains(error.code) {
                    Hooks.defaultErrorHandler(error)
                    return
                }
                server.close()
                observer.onError(error)
                return
            }
            do throws(UVError) {
                let client = try UVTCP(loop: loop)
                try client.closingIfFails { () throws(UVError) in try server.accept(into: client) }
                try? client.setNoDelay(true)
                observer.onNext(TCPConnection(handle: client))
            } catch {
                // libuv stops watching the listener until a connection is
                // accepted, and a failed uv_accept never restarts it: the
                // server cannot go on. Closing it also closes the pending socket.
                server.close()
                observer.onError(error)
            }
        }
        onListening?(server.localAddress ?? address)
        return server
    }
}
