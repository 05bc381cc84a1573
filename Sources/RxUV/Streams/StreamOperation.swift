@_spi(Bridge) import RxCore

/// The observable of a stream's one-off operations (`shutdown()`, TCP's
/// options): runs its body on the loop thread when subscribed and completes
/// or fails with what the body reports. The work cannot be taken back, so
/// disposing only stops the notification.
final class StreamOperation: Producer<Never> {
    /// Runs on the loop thread with the stream and a `finish` to call once
    /// (`nil` completes, an error fails); a thrown error fails at once.
    typealias Body = @Sendable (_ stream: StreamConnection, _ finish: @escaping (UVError?) -> Void) throws(UVError) -> Void

    private let stream: StreamConnection
    private let body: Body

    init(stream: StreamConnection, body: @escaping Body) {
        self.stream = stream
        self.body = body
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Never {
        let sink = StreamOperationSink(operation: self, observer: observer, cancel: cancel)
        sink.start("StreamConnection")
        return (sink: sink, subscription: Disposables.create())
    }

    /// One subscription to a stream operation.
    private final class StreamOperationSink<Observer: ObserverType>: HandleSink<Observer>, @unchecked Sendable where Observer.Element == Never {
        private let operation: StreamOperation

        init(operation: StreamOperation, observer: Observer, cancel: SinkDisposer) {
            self.operation = operation
            super.init(loop: operation.stream.loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            try operation.body(operation.stream) { [self] error in
                if let error {
                    forwardError(error)
                } else {
                    forwardCompleted()
                }
            }
        }
    }
}
