import RxCore

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
        let loop = base
        return Single.create { observer in
            let attempt = ConnectAttempt(loop: loop, host: host, port: port, observer: observer)
            loop.onLoopThread { attempt.start() }
            return attempt
        }
    }
}

/// One `connect`: the lookup, then connection attempts in address order.
/// All state is touched on the loop thread only; `dispose()` hops there.
private final class ConnectAttempt: Cancelable {
    private struct State {
        var observer: ((SingleEvent<TCPConnection>) -> Void)?
        var lookup: AddressLookup?
        var socket: UVTCP?
        var remaining: [SocketAddress] = []
        var lastError: UVError?
    }

    private let loop: Loop
    private let host: String
    private let port: Int
    private let state: LoopBound<State>
    private let disposedFlag = BooleanDisposable()

    private var observer: ((SingleEvent<TCPConnection>) -> Void)? {
        get { state.value.observer }
        set { state.value.observer = newValue }
    }
    private var lookup: AddressLookup? {
        get { state.value.lookup }
        set { state.value.lookup = newValue }
    }
    private var socket: UVTCP? {
        get { state.value.socket }
        set { state.value.socket = newValue }
    }
    private var remaining: [SocketAddress] {
        get { state.value.remaining }
        set { state.value.remaining = newValue }
    }
    private var lastError: UVError? {
        get { state.value.lastError }
        set { state.value.lastError = newValue }
    }

    init(loop: Loop, host: String, port: Int, observer: @escaping (SingleEvent<TCPConnection>) -> Void) {
        self.loop = loop
        self.host = host
        self.port = port
        self.state = LoopBound(State(observer: observer), loop: loop)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    var isDisposed: Bool {
        disposedFlag.isDisposed
    }

    func start() {
        guard !isDisposed else { return }
        guard (0...65_535).contains(port) else {
            finish(.failure(UVError(code: UVError.Code.invalidArgument, operation: "uv_tcp_connect", address: "\(host):\(port)")))
            return
        }
        if let address = try? SocketAddress(ip: host, port: port) {
            remaining = [address]
            tryNext()
            return
        }
        do throws(UVError) {
            lookup = try AddressLookup(loop: loop, host: host, port: port) { [self] status, addresses in
                lookup = nil
                guard !isDisposed else { return }
                guard status >= 0, !addresses.isEmpty else {
                    finish(.failure(UVError(code: status < 0 ? UVError.Code(rawValue: status) : .unknownHost, operation: "uv_getaddrinfo", address: "\(host):\(port)")))
                    return
                }
                remaining = addresses
                tryNext()
            }
        } catch {
            finish(.failure(error))
        }
    }

    private func tryNext() {
        guard !isDisposed else { return }
        guard !remaining.isEmpty else {
            finish(.failure(lastError ?? UVError(code: UVError.Code.unknownHost, operation: "uv_tcp_connect", address: "\(host):\(port)")))
            return
        }
        let address = remaining.removeFirst()
        do throws(UVError) {
            let socket = try UVTCP(loop: loop)
            try socket.closingIfFails { () throws(UVError) in
                _ = try ConnectRequest(tcp: socket, to: address) { [self] status in
                    connected(socket, status: status, address: address)
                }
            }
            self.socket = socket
        } catch {
            lastError = error
            tryNext()
        }
    }

    private func connected(_ socket: UVTCP, status: Int32, address: SocketAddress) {
        self.socket = nil
        if isDisposed {
            socket.close()
            return
        }
        guard status >= 0 else {
            socket.close()
            lastError = UVError(status: status, operation: "uv_tcp_connect", address: address.description)
            tryNext()
            return
        }
        try? socket.setNoDelay(true)
        finish(.success(TCPConnection(handle: socket)))
    }

    private func finish(_ result: SingleEvent<TCPConnection>) {
        let observer = self.observer
        self.observer = nil
        observer?(result)
    }

    func dispose() {
        guard !disposedFlag.isDisposed else { return }
        disposedFlag.dispose()
        loop.onLoopThread { [self] in
            observer = nil
            lookup?.cancel()
            socket?.close()
        }
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
