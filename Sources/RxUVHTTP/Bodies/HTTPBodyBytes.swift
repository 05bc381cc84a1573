@_spi(Bridge) import RxCore
import RxUV

/// The producer of a body's `bytes`: each subscription attaches an
/// `HTTPBodyForwarder` to the body's source, which is its subscription.
/// Keeps `owner` (the public face whose release lets an unread body go)
/// for as long as it lives.
final class HTTPBodyBytes: Producer<ByteBuffer> {
    private let source: HTTPBodySource
    private let owner: (any AnyObject & Sendable)?

    init(source: HTTPBodySource, owner: (any AnyObject & Sendable)?) {
        self.source = source
        self.owner = owner
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == ByteBuffer {
        let sink = HTTPBodyForwarder(observer: observer, cancel: cancel)
        let subscription = source.attach(sink)
        return (sink: sink, subscription: subscription)
    }
}
