@_spi(Bridge) import RxCore

/// The observer an iteration of `ByteBuffer`s (`inbound`, an HTTP body's
/// `values`) reads with: a type of this module, so that each read reaches
/// the iteration (`AsyncValues<ByteBuffer>`) through code compiled for
/// `ByteBuffer`, with no generic metadata looked up per read. Holds the
/// iteration until the subscription is disposed, which the iteration's
/// lease does when the iteration ends.
package final class ByteBufferValuesObserver: ObserverType {
    package typealias Element = ByteBuffer

    private let values: AsyncValues<ByteBuffer>

    init(_ values: AsyncValues<ByteBuffer>) {
        self.values = values
    }

    /// Subscribes `values` to `source` with an observer of this type: an
    /// `AsyncValuesDemand`'s `subscribe`.
    package static let subscribe: @Sendable (Observable<ByteBuffer>, AsyncValues<ByteBuffer>) -> Disposable = { source, values in
        source.subscribe(ByteBufferValuesObserver(values))
    }

    package func on(_ event: Event<ByteBuffer>) {
        values.on(event)
    }

    package func onNext(_ element: ByteBuffer) {
        values.on(.next(element))
    }

    package func onCompleted() {
        values.on(.completed)
    }
}
