@_spi(Bridge) import RxCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The observable of `loop.rx.listen(unixPath:)` and
/// `loop.rx.listen(unixSocket:)`: one listening pipe per subscription.
final class UnixListen: Producer<UnixConnection> {
    enum Source {
        case path(String, mode: mode_t?)
        case descriptor(Int32)
    }

    private let loop: Loop
    private let source: Source
    private let backlog: Int
    private let onListening: (@Sendable (String) -> Void)?
    /// For `.descriptor`: set by the subscription that adopts it.
    let descriptorTaken = Atomic<Bool>(false)

    init(loop: Loop, source: Source, backlog: Int, onListening: (@Sendable (String) -> Void)?) {
        self.loop = loop
        self.source = source
        self.backlog = backlog
        self.onListening = onListening
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == UnixConnection {
        let sink = UnixListenSink(listen: self, observer: observer, cancel: cancel)
        sink.start("listen")
        return (sink: sink, subscription: Disposables.create())
    }

    /// Owns the listening pipe of one subscription.
    private final class UnixListenSink<Observer: ObserverType>: AcceptingSink<Observer>, @unchecked Sendable where Observer.Element == UnixConnection {
        private let listen: UnixListen

        init(listen: UnixListen, observer: Observer, cancel: SinkDisposer) {
            self.listen = listen
            super.init(loop: listen.loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            switch listen.source {
            case .descriptor(let descriptor):
                // The first subscription takes the descriptor; a later one
                // (a retry) must not adopt a number that may name another
                // file by now.
                guard listen.descriptorTaken.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
                    throw UVError(code: UVError.Code.badFileDescriptor, operation: "listen", address: "fd \(descriptor) (taken by an earlier subscription)")
                }
                try accept(on: try ListeningSocket(adopting: descriptor, backlog: listen.backlog))
            case .path(let path, let mode):
                try accept(on: try ListeningSocket(unixPath: path, backlog: listen.backlog, mode: mode))
                if !isDisposed {
                    listen.onListening?(path)
                }
            }
        }
    }
}
