@_spi(Bridge) import RxCore

/// The observable of a one-off operation on a loop-bound object (a
/// stream's `shutdown()`, TCP's options, a UDP socket's sends and
/// multicast membership): runs its body on the loop thread when subscribed
/// and completes or fails with what the body reports. The work cannot be
/// taken back, so disposing only stops the notification.
final class LoopOperation<Target: AnyObject & Sendable>: Producer<Never> {
    /// Runs on the loop thread with the target and a `finish` to call once
    /// (`nil` completes, an error fails); a thrown error fails at once.
    typealias Body = @Sendable (_ target: Target, _ finish: @escaping (UVError?) -> Void) throws(UVError) -> Void

    private let loop: Loop
    private let target: Target
    private let operation: StaticString
    private let body: Body

    init(loop: Loop, target: Target, operation: StaticString, body: @escaping Body) {
        self.loop = loop
        self.target = target
        self.operation = operation
        self.body = body
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Never {
        let sink = LoopOperationSink(operation: self, observer: observer, cancel: cancel)
        sink.start(operation)
        return (sink: sink, subscription: Disposables.create())
    }

    /// One subscription to an operation.
    private final class LoopOperationSink<Observer: ObserverType>: HandleSink<Observer>, @unchecked Sendable where Observer.Element == Never {
        private let operation: LoopOperation

        init(operation: LoopOperation, observer: Observer, cancel: SinkDisposer) {
            self.operation = operation
            super.init(loop: operation.loop, observer: observer, cancel: cancel)
        }

        override class var opensWhenDisposed: Bool {
            true
        }

        override func open() throws(UVError) {
            try operation.body(operation.target) { [self] error in end(error) }
        }
    }
}
