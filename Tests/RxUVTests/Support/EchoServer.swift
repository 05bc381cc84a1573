import RxCore
import RxUV
import RxUVTestSupport

/// Starts an echo server on 127.0.0.1 with an OS-chosen port, built from
/// public API only: every connection's reads are written back. Returns the
/// bound address and the listen subscription (dispose it to stop accepting).
/// `accepted` sees each connection (to inspect or tune it).
func startEchoServer(on loop: Loop, accepted: ((TCPConnection) -> Void)? = nil) -> (address: SocketAddress, subscription: Disposable) {
    let bound = Shared<SocketAddress?>(nil)
    let subscription = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { bound.value = $0 })
        .subscribe(onNext: { connection in
            accepted?(connection)
            _ = connection.rx.data.subscribe(
                onNext: { bytes in
                    // A peer that resets while bytes are echoed back fails the write: expected here.
                    _ = connection.write(bytes).subscribe(onError: { _ in })
                },
                // A peer that closes with the echo unread resets: its read ends, expected here too.
                onError: { _ in })
        })
    guard let address = bound.value else {
        preconditionFailure("the echo server did not start listening")
    }
    return (address, subscription)
}

/// Ends a client's part of an echo: half-closes `client` after its writes,
/// hands `received` every byte the echo server sends back, and stops the
/// server's listening when the echo ends. A failed half-close goes to
/// `failed`.
func finishEcho(
    _ client: TCPConnection, server: (address: SocketAddress, subscription: Disposable), received: @escaping (ByteBuffer) -> Void,
    failed: @escaping (Error) -> Void
) {
    _ = client.shutdown().subscribe(onError: failed)
    _ = client.rx.data.subscribe(onNext: received, onCompleted: { server.subscription.dispose() })
}

/// Deterministic pseudo-random bytes (xorshift), so failures are reproducible.
func randomBytes(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var state = seed
    var bytes = [UInt8](repeating: 0, count: count)
    for index in 0..<count {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        bytes[index] = UInt8(truncatingIfNeeded: state)
    }
    return bytes
}
