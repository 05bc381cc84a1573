import RxCore
import RxUV

/// Who reads a body from its `HTTPBodySource`: the bytes as they come, then
/// the end or the failure, each on the loop thread. A body's `bytes`
/// Observable reads through its `AnyObserver`; a collector
/// (`HTTPBodyCollector`) reads it itself, with no observer made around it.
package protocol HTTPBodyReader {
    /// Bytes of the body.
    func bodyReceived(_ bytes: ByteBuffer)
    /// The body ended; nothing follows.
    func bodyEnded()
    /// The body cannot end: `error` says why; nothing follows.
    func bodyFailed(_ error: any Error)
}

extension AnyObserver: HTTPBodyReader where Element == ByteBuffer {
    package func bodyReceived(_ bytes: ByteBuffer) {
        onNext(bytes)
    }

    package func bodyEnded() {
        onCompleted()
    }

    package func bodyFailed(_ error: any Error) {
        onError(error)
    }
}
