@_spi(Bridge) import RxCore
import RxUV

/// Passes a body's pieces on as they come, then its end or its failure:
/// the sink of `HTTPBodyBytes`, and the reader attached to the body's
/// source, so that a subscription to `bytes` is this one object and its
/// disposer. Its end and its failure dispose the subscription.
final class HTTPBodyForwarder<Observer: ObserverType>: Sink<Observer>, HTTPBodyReader, @unchecked Sendable
where Observer.Element == ByteBuffer {
    func bodyReceived(_ bytes: ByteBuffer) {
        forwardNext(bytes)
    }

    func bodyEnded() {
        forwardCompleted()
    }

    func bodyFailed(_ error: any Error) {
        forwardError(error)
    }
}
