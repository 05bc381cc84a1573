import RxCore

/// What was going on when an error could not reach a subscriber: the loop,
/// the server's address and the peer, where known.
struct ReportContext {
    /// The loop the failure happened on.
    var loop: Loop?
    /// The address a server listens on (`127.0.0.1:7000`, `unix:/run/app.sock`).
    var server: String?
    /// The peer of the connection involved.
    var peer: String?

    init(loop: Loop? = nil, server: String? = nil, peer: String? = nil) {
        self.loop = loop
        self.server = server
        self.peer = peer
    }

    /// `peer` or `server`, whichever is known, for an error that names no
    /// address of its own.
    var address: String? {
        peer ?? server
    }
}

/// The one way the bridge reports an error that cannot reach a subscriber:
/// a failed accept, a handler's error, a timer that cannot start, a
/// teardown signal that failed. A `UVError` that names no address gets the
/// context's peer or server; the error then goes to
/// `Hooks.defaultErrorHandler` (standard error by default, in every build),
/// on the calling thread.
func report(_ error: any Error, _ context: ReportContext = ReportContext()) {
    var reported = error
    if let failure = error as? UVError, failure.address == nil, let address = context.address {
        reported = UVError(code: failure.code, operation: failure.operation, address: address)
    }
    Hooks.defaultErrorHandler([], reported)
}
