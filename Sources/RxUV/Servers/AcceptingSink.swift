@_spi(Bridge) import RxCore

/// A connection type a listener makes from an accepted descriptor:
/// `TCPConnection` and `UnixConnection`.
protocol AcceptedConnection: StreamConnection {
    /// Opens the accepted `descriptor` on `loop` (`uv_tcp_open`,
    /// `uv_pipe_open`) as a connection whose life `lifetime` decides. On
    /// failure the descriptor is closed. Loop thread.
    static func adopting(_ descriptor: consuming OwnedDescriptor, on loop: Loop, listeningOn address: ServerAddress, lifetime: StreamLifetime) throws(UVError) -> Self
}

/// The subscription of `loop.rx.listen` (TCP, and Unix-domain sockets):
/// it owns an `Acceptor` (the one accept path, shared with `Server`), is its
/// target, and emits each accepted connection, opened on this loop.
///
/// The accept rules are the acceptor's: a transient failure (out of
/// descriptors or memory) is reported and accepting pauses briefly; any
/// other failure ends the sequence with the error and closes the listening
/// socket. A connection that cannot be opened after its accept is
/// reported and dropped when the failure is transient, and otherwise ends
/// the sequence the same way. Subclasses open the socket and call
/// `accept(on:)`.
class AcceptingSink<Observer: ObserverType>: HandleSink<Observer>, AcceptorTarget, @unchecked Sendable
where Observer.Element: AcceptedConnection {
    /// Starts accepting on `socket`, which this subscription owns from
    /// here (also when starting fails: it is closed then). Loop thread.
    final func accept(on socket: ListeningSocket) throws(UVError) {
        let acceptor = Acceptor(loop: loop, socket: socket, target: self)
        try acceptor.start()
        own(acceptor)
    }

    final func accepted(_ descriptor: consuming OwnedDescriptor, by acceptor: Acceptor) {
        do throws(UVError) {
            forwardNext(try Observer.Element.adopting(descriptor, on: loop, listeningOn: acceptor.socket.address, lifetime: .readSubscription))
        } catch {
            if UVError.Code.transientAcceptFailures.contains(error.code) {
                report(error, ReportContext(loop: loop, server: acceptor.socket.address.description))
            } else {
                releaseOwned()
                forwardError(error)
            }
        }
    }

    final func acceptorClosed(_ acceptor: Acceptor, error: UVError?) {
        disown()
        if let error {
            forwardError(error)
        }
    }
}
