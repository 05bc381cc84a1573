import RxCore
import RxUV

/// The one subscriber of a `TLSStream`'s plaintext: what `rx.data`'s
/// subscription registers with the stream on the loop thread. Ends once.
// @unchecked Sendable: made on any thread, then used on the loop thread only.
final class TLSStreamReader: @unchecked Sendable {
    private let observer: AnyObserver<ByteBuffer>
    private var ended = false

    init(_ observer: AnyObserver<ByteBuffer>) {
        self.observer = observer
    }

    /// Plaintext for the subscriber. Loop thread.
    func received(_ bytes: ByteBuffer) {
        guard !ended else { return }
        observer.onNext(bytes)
    }

    /// The end: `.completed` for `nil`, else the error. Once. Loop thread.
    func end(_ error: (any Error)?) {
        guard !ended else { return }
        ended = true
        if let error {
            observer.onError(error)
        } else {
            observer.onCompleted()
        }
    }
}
