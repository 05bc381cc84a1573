@_spi(Bridge) import RxCore
import RxUV

/// Gathers a body's pieces into one buffer for `collect(upTo:)`: the sink
/// of `HTTPBodyCollect`, and the reader attached to the body's source, so
/// that a collection is one object, where a chain of operators (scan,
/// takeLast, map, ifEmpty, asSingle) would subscribe five and a
/// `Single.create` three. Past `limit` bytes it fails with `tooLarge()`,
/// which disposes its subscription and lets the rest of the body go. A
/// body of one piece (most) is passed on as it came, with no array made.
// @unchecked Sendable: `first`, `rest`, `count` and `isStopped` change
// only as the body source calls it, on its loop's thread, one call at a
// time.
final class HTTPBodyCollector<Observer: ObserverType>: Sink<Observer>, HTTPBodyReader, @unchecked Sendable
where Observer.Element == ByteBuffer {
    private let limit: Int
    private let tooLarge: @Sendable () -> any Error
    /// The first piece, and the ones after it.
    private var first: ByteBuffer?
    private var rest: [ByteBuffer] = []
    private var count = 0
    private var isStopped = false

    init(observer: Observer, cancel: SinkDisposer, limit: Int, tooLarge: @escaping @Sendable () -> any Error) {
        self.limit = limit
        self.tooLarge = tooLarge
        super.init(observer: observer, cancel: cancel)
    }

    func bodyReceived(_ piece: ByteBuffer) {
        guard !isStopped else { return }
        guard count + piece.count <= limit else {
            bodyFailed(tooLarge())
            return
        }
        count += piece.count
        if first == nil {
            first = piece
        } else {
            rest.append(piece)
        }
    }

    func bodyFailed(_ error: any Error) {
        guard !isStopped else { return }
        isStopped = true
        first = nil
        rest = []
        forwardError(error)
    }

    func bodyEnded() {
        guard !isStopped else { return }
        isStopped = true
        let whole: ByteBuffer
        if let first {
            if rest.isEmpty {
                // The one piece is the body: kept here only until this
                // sink goes, as its subscription ends just below.
                whole = first
            } else {
                whole = ByteBuffer(concatenating: [first] + rest)
                // The pieces are not held beside their copy.
                self.first = nil
                rest = []
            }
        } else {
            whole = ByteBuffer()
        }
        forwardNext(whole)
        forwardCompleted()
    }
}
