@_spi(Bridge) import RxCore

/// The observable of a request that answers once (a name lookup, work on
/// libuv's thread pool): one request per subscription, owned by it, so
/// disposing cancels it (`uv_cancel`) if libuv has not started it, and
/// otherwise drops the answer. Emits the answer then completes, or fails.
final class RequestSingle<Answer>: Producer<Answer> {
    /// Submits the request, which calls `finish` once with the answer.
    typealias Submit = (_ loop: Loop, _ finish: @escaping (Result<Answer, any Error>) -> Void) throws(UVError) -> UVRequest

    private let loop: Loop
    private let operation: StaticString
    private let submit: Submit

    init(loop: Loop, operation: StaticString, submit: @escaping Submit) {
        self.loop = loop
        self.operation = operation
        self.submit = submit
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Answer {
        let sink = RequestSink(single: self, observer: observer, cancel: cancel)
        sink.start(operation)
        return (sink: sink, subscription: Disposables.create())
    }

    /// Owns one request until it answers.
    private final class RequestSink<Observer: ObserverType>: HandleSink<Observer>, @unchecked Sendable where Observer.Element == Answer {
        private let single: RequestSingle

        init(single: RequestSingle, observer: Observer, cancel: SinkDisposer) {
            self.single = single
            super.init(loop: single.loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            let request = try single.submit(loop) { [self] result in
                disown()
                switch result {
                case .success(let answer):
                    forwardNext(answer)
                    forwardCompleted()
                case .failure(let error):
                    forwardError(error)
                }
            }
            own(request)
        }
    }
}
