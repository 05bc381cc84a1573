import RxCore
import RxUV

/// What a connection's write watcher tells: the connection (HTTP/1.1's,
/// HTTP/2's), behind a protocol so that the watcher is not generic.
package protocol HTTPWriteFailureListener: AnyObject, Sendable {
    /// A write failed, from any thread.
    func writeFailed()
}

/// Watches a connection's writes: a failure stops its answering. One for
/// all of a connection's writes, told of the connection when it starts and
/// let go of it when it finishes (which ends the cycle between them).
package final class HTTPWriteWatcher: ObserverType, Sendable {
    /// The connection, while it serves. Writes end and the connection
    /// finishes on the loop thread.
    private let connection: LoopBound<(any HTTPWriteFailureListener)?>

    package init(loop: Loop) {
        connection = LoopBound(nil, loop: loop)
    }

    /// Watches for `connection` (`nil`: for nobody any more). Loop thread.
    package func watch(for connection: (any HTTPWriteFailureListener)?) {
        self.connection.value = connection
    }

    package func on(_ event: Event<Never>) {
        if case .error = event {
            let connection = self.connection.value
            connection?.writeFailed()
        }
    }
}
