@_spi(Bridge) import RxCore
import RxUV

/// The producer of a body's `collect(upTo:)`: each subscription attaches
/// an `HTTPBodyCollector` to the body's source, which is its
/// subscription. Keeps `owner` (the public face whose release lets an
/// unread body go) for as long as it lives.
final class HTTPBodyCollect: Producer<ByteBuffer> {
    private let source: HTTPBodySource
    private let owner: (any AnyObject & Sendable)?
    private let limit: Int
    private let tooLarge: @Sendable () -> any Error

    init(source: HTTPBodySource, owner: (any AnyObject & Sendable)?, limit: Int, tooLarge: @escaping @Sendable () -> any Error) {
        self.source = source
        self.owner = owner
        self.limit = limit
        self.tooLarge = tooLarge
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == ByteBuffer {
        let sink = HTTPBodyCollector(observer: observer, cancel: cancel, limit: limit, tooLarge: tooLarge)
        let subscription = source.attach(sink)
        return (sink: sink, subscription: subscription)
    }
}
