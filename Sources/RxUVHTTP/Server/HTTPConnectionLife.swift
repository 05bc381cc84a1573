import RxCore
import RxUV

/// A protocol connection's life as a `Server` handler returns it (HTTP/1.1's
/// and HTTP/2's): subscribing starts the connection on its loop thread
/// (`start`, given the observer to tell when the connection should close),
/// disposing stops it there (`stop`), and a start that comes after the
/// disposal does nothing.
package enum HTTPConnectionLife {
    package static func completable(
        on loop: Loop, start: @escaping @Sendable (@escaping (CompletableEvent) -> Void) -> Void, stop: @escaping @Sendable () -> Void
    ) -> Completable {
        Completable.create { observer in
            let stopped = Disposables.create { loop.enter { stop() } }
            // The observer is called on the loop thread only, once handed over.
            let started = UncheckedSendable(observer)
            loop.enter {
                guard !stopped.isDisposed else { return }
                start(started.value)
            }
            return stopped
        }
    }
}
