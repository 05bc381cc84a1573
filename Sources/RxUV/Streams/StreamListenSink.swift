@_spi(Bridge) import RxCore

/// The subscription of a listening stream (`loop.rx.listen` for TCP and
/// for Unix-domain sockets): a `HandleSink` that owns the listener, is its
/// target, and emits each accepted connection.
///
/// Subclasses open the listener (`open()`, then `listening(_:address:)`)
/// and wrap each accepted stream (`connection(for:)`). The accept rules live
/// here once: running out of descriptors or memory while a connection
/// arrives (`EMFILE`, `ENFILE`, `ENOMEM`, `ENOBUFS`, `ECONNABORTED`) drops
/// that connection, reports the error to `Hooks.defaultErrorHandler` and
/// keeps listening, as libuv does; any other failure to accept ends the
/// sequence with the error and closes the listener, since libuv does not
/// watch a listener again after a failed `uv_accept`.
class StreamListenSink<Observer: ObserverType>: HandleSink<Observer>, UVStreamTarget, @unchecked Sendable {
    // Loop-thread state: what is listened on, for error messages.
    private var address: String?

    /// Takes ownership of `listener`, which listens already, and makes this
    /// sink its target. Loop thread.
    final func listening(_ listener: UVStream, address: String) {
        listener.target = self
        self.address = address
        own(listener)
    }

    /// The connection for `stream`, just accepted. Loop thread.
    func connection(for stream: UVStream) -> Observer.Element {
        preconditionFailure("StreamListenSink subclasses wrap their connections")
    }

    final func streamConnectionArrived(_ status: Int32) {
        guard status >= 0 else {
            let error = UVError(status: status, operation: "uv_listen", address: address)
            // Running out of descriptors or memory is transient: libuv
            // keeps watching the listener (after its EMFILE trick has
            // turned the pending peer away), so a daemon goes on serving.
            if UVError.Code.transientAcceptFailures.contains(error.code) {
                report(error, ReportContext(loop: loop, server: address))
                return
            }
            releaseOwned()
            forwardError(error)
            return
        }
        do throws(UVError) {
            guard let listener = owned as? UVStream else {
                throw UVError(code: UVError.Code.notConnected, operation: "uv_accept", address: address)
            }
            let client = try listener.makePeer()
            try client.closingIfFails { () throws(UVError) in try listener.accept(into: client) }
            forwardNext(connection(for: client))
        } catch {
            // libuv stops watching the listener until a connection is
            // accepted, and a failed uv_accept never restarts it: the
            // server cannot go on. Closing it also closes the pending socket.
            releaseOwned()
            forwardError(error)
        }
    }

    final func streamDidRead(_ count: Int, _ bytes: UnsafeRawPointer?) {}
}
