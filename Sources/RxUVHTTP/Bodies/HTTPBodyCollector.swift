import RxCore
import RxUV

/// Gathers a body's pieces into one buffer for `collect(upTo:)`: one
/// object for the whole collection, where a chain of operators (scan,
/// takeLast, map, ifEmpty, asSingle) would subscribe five. Past `limit`
/// bytes it fails with `tooLarge()` and disposes its subscription, which
/// lets the rest of the body go.
// @unchecked Sendable: `pieces` and `count` change only in `on`, which the
// body source calls on its loop's thread, one event at a time.
final class HTTPBodyCollector: @unchecked Sendable {
    private let limit: Int
    private let tooLarge: @Sendable () -> any Error
    private let observer: Single<ByteBuffer>.SingleObserver
    /// The body's subscription (set once `attach` returns).
    let subscription = SingleAssignmentDisposable()
    private var pieces: [ByteBuffer] = []
    private var count = 0
    private var isStopped = false

    init(limit: Int, tooLarge: @escaping @Sendable () -> any Error, observer: @escaping Single<ByteBuffer>.SingleObserver) {
        self.limit = limit
        self.tooLarge = tooLarge
        self.observer = observer
    }

    func on(_ event: Event<ByteBuffer>) {
        guard !isStopped else { return }
        switch event {
        case .next(let piece):
            guard count + piece.count <= limit else {
                isStopped = true
                pieces = []
                observer(.failure(tooLarge()))
                subscription.dispose()
                return
            }
            pieces.append(piece)
            count += piece.count
        case .error(let error):
            isStopped = true
            pieces = []
            observer(.failure(error))
        case .completed:
            isStopped = true
            let whole =
                switch pieces.count {
                case 0: ByteBuffer()
                case 1: pieces[0]
                default: ByteBuffer(concatenating: pieces)
                }
            pieces = []
            observer(.success(whole))
        }
    }
}
