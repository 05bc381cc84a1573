import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// Resolves the address, opens the listening sockets and starts a `Server`.
enum ServerStart {
    static func serve(loops: [Loop], host: String, port: Int, options: ServerOptions, factory: ConnectionFactory) -> Single<Server> {
        let address: Single<SocketAddress>
        do throws(UVError) {
            if let numeric = try AddressResolution.numeric(host: host, port: port, operation: "Server") {
                address = .just(numeric)
            } else {
                address = loops[0].rx.resolve(host: host, port: port).map { addresses throws(UVError) in
                    guard let first = addresses.first else {
                        throw UVError(code: .unknownHost, operation: "Server", address: host)
                    }
                    return first
                }
            }
        } catch {
            address = .error(error)
        }
        return address.flatMap { address in
            start(loops: loops, options: options, factory: factory) { () throws(UVError) in
                try openSockets(address, count: options.distribution == .reusePort ? loops.count : 1, options: options)
            }
        }
    }

    static func serve(loops: [Loop], unixPath path: String, mode: mode_t?, options: ServerOptions, factory: ConnectionFactory) -> Single<Server> {
        if options.distribution == .reusePort {
            return .error(UVError(code: .invalidArgument, operation: "Server (reusePort needs a TCP port)", address: UnixSocketPath.display(path)))
        }
        return start(loops: loops, options: options, factory: factory) { () throws(UVError) in
            [try ListeningSocket(unixPath: path, backlog: options.backlog, mode: mode)]
        }
    }

    /// Opens the sockets when subscribed and starts a server on them.
    private static func start(
        loops: [Loop], options: ServerOptions, factory: ConnectionFactory,
        open: @escaping @Sendable () throws(UVError) -> [ListeningSocket]
    ) -> Single<Server> {
        Single<Server>.create { observer in
            let sockets: [ListeningSocket]
            do throws(UVError) {
                sockets = try open()
            } catch {
                observer(.failure(error))
                return Disposables.create()
            }
            let server = Server(loops: loops, address: sockets[0].address, options: options, factory: factory)
            let delivered = SingleAssignmentDisposable()
            server.start(sockets: sockets) { error in
                if let error {
                    server.stopAccepting()
                    observer(.failure(error))
                } else if !delivered.isDisposed {
                    observer(.success(server))
                } else {
                    server.stopAccepting()
                }
            }
            return delivered
        }
    }

    /// The sockets: the first bound to `address`, the others (reuse-port)
    /// to the port the first got.
    private static func openSockets(_ address: SocketAddress, count: Int, options: ServerOptions) throws(UVError) -> [ListeningSocket] {
        var sockets: [ListeningSocket] = []
        do throws(UVError) {
            let first = try ListeningSocket(address: address, backlog: options.backlog, reusePort: options.distribution == .reusePort)
            sockets.append(first)
            let bound = first.address.socketAddress ?? address
            for _ in 1..<max(count, 1) {
                sockets.append(try ListeningSocket(address: bound, backlog: options.backlog, reusePort: true))
            }
            return sockets
        } catch {
            for socket in sockets { socket.close() }
            throw error
        }
    }
}
