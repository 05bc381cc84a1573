import RxCore

/// How a `Server` serves an accepted descriptor: it opens it on the
/// connection's loop as the transport its address makes (`TCPConnection`,
/// `UnixConnection`: `AcceptedConnection.adopting`, with a `.owner`
/// lifetime, so the server decides when it closes), wraps that with the
/// user's per-connection factory (the hook where a TLS or protocol layer
/// sits; the identity by default), and runs the handler on the result.
struct ConnectionFactory: Sendable {
    /// One connection, opened and wrapped; the handler runs when the server
    /// calls `handle` (after it has registered the connection).
    struct Made {
        /// The libuv stream underneath: what the server watches for close
        /// and activity, and resets at a drain's deadline.
        let transport: StreamConnection
        /// What the handler got: the transport, or the factory's wrapper.
        let stream: any ByteStream
        /// Runs the handler; its `Completable` is the connection's life.
        let handle: (_ quiesce: Observable<Void>, _ server: String) -> Completable
    }

    private let make: @Sendable (_ descriptor: consuming OwnedDescriptor, _ loop: Loop, _ address: ServerAddress) throws(UVError) -> Made

    /// Opens descriptors as `Transport`, wraps each with `wrap`, serves the
    /// result with `handler`.
    init<Transport: AcceptedConnection, Connection: ByteStream>(
        _ transport: Transport.Type,
        wrap: @escaping @Sendable (Transport) -> Connection,
        handler: @escaping @Sendable (ServedConnection<Connection>) -> Completable
    ) {
        make = { (descriptor, loop, address) throws(UVError) in
            let transport = try Transport.adopting(descriptor, on: loop, listeningOn: address, lifetime: .owner)
            let stream = wrap(transport)
            return Made(transport: transport, stream: stream) { quiesce, server in
                handler(ServedConnection(connection: stream, loop: loop, quiesce: quiesce, server: server))
            }
        }
    }

    /// Opens `descriptor` on `loop` and wraps it; on failure the descriptor
    /// is closed. Loop thread.
    func callAsFunction(_ descriptor: consuming OwnedDescriptor, on loop: Loop, listeningOn address: ServerAddress) throws(UVError) -> Made {
        try make(descriptor, loop, address)
    }
}
