import HTTPTypes
import RxCore
import RxUV
import Synchronization

/// What a body that arrives asks of its connection (a server's for a
/// request body, a client's for a response body): hold reading or let it
/// go, say `100 Continue`, give up on the rest. Loop thread.
package protocol HTTPBodyConnection: AnyObject {
    /// The body's reason to hold the connection's reading is `held`.
    func body(_ body: HTTPBodySource, holds held: Bool)
    /// The reader started reading the body: a client that waits for
    /// `100 Continue` is told now.
    func bodyWanted(_ body: HTTPBodySource)
    /// The reader left before the body's end (disposed, or let the body go
    /// unread): nobody reads the rest, which is dropped as it arrives.
    func bodyAbandoned(_ body: HTTPBodySource)
}

/// One body between the decoder and its reader (a request's for a server's
/// handler, a response's for a client's caller): what the decoder cut is
/// held until the reader subscribes (up to `bufferLimit` bytes, then the
/// connection stops reading), then passed on as it comes. Loop-thread
/// state; `attach`, `consumerHolds` and `abandon` may be called from any
/// thread and hop to the loop. The source is its own `LoopBound`: that
/// state is in `value`, checked to be on the loop thread in debug builds.
// @unchecked Sendable: `connection` is set once, at init, and read on the
// loop thread; every other mutable field is in `value`.
package final class HTTPBodySource: LoopBound<HTTPBodySourceState>, Disposable, LoopConfined, @unchecked Sendable {
    package let declaredLength: Int?
    private weak var connection: (any HTTPBodyConnection)?
    private let bufferLimit: Int
    /// The trailer fields that ended the body, set before its end is
    /// told; read from any thread (`trailerFields`).
    private let trailers = Mutex<HTTPFields?>(nil)

    package init(loop: Loop, declaredLength: Int?, connection: any HTTPBodyConnection, bufferLimit: Int) {
        self.declaredLength = declaredLength
        self.connection = connection
        self.bufferLimit = bufferLimit
        super.init(HTTPBodySourceState(), loop: loop)
    }

    /// `true` once the body has ended or failed. Loop thread.
    package var isFinished: Bool {
        if case .open = value.phase { return false }
        return true
    }

    /// The trailer fields that followed the body, once it has ended;
    /// `nil` before, and when none came. Any thread.
    package var trailerFields: HTTPFields? {
        trailers.withLock { $0 }
    }

    /// Whether a handler subscribed to the body. Loop thread.
    package var isWanted: Bool {
        value.wasAttached
    }

    // MARK: From the decoder

    /// Body bytes arrived.
    package func receive(_ bytes: ByteBuffer) {
        guard case .open = value.phase, !bytes.isEmpty, !value.discarding else { return }
        if let reader = value.reader {
            reader.bodyReceived(bytes)
            return
        }
        value.held.append(bytes)
        value.heldCount += bytes.count
        if value.heldCount > bufferLimit, !value.holdsForBuffer {
            value.holdsForBuffer = true
            updateHold()
        }
    }

    /// The body ended (its last bytes first), with `trailers` when the
    /// message had some.
    package func end(last: ByteBuffer, trailers: HTTPFields? = nil) {
        receive(last)
        guard case .open = value.phase else { return }
        if let trailers, !trailers.isEmpty { self.trailers.withLock { $0 = trailers } }
        value.phase = .ended
        if let reader = value.reader.take() {
            reader.bodyEnded()
        }
        releaseHolds()
    }

    /// The body cannot end: `error` is what a reader gets.
    package func fail(_ error: any Error) {
        guard case .open = value.phase else { return }
        value.phase = .failed(error)
        value.held = []
        value.heldCount = 0
        if let reader = value.reader.take() {
            reader.bodyFailed(error)
        }
        releaseHolds()
    }

    /// The answer went out: nobody reads what is held or still comes.
    package func discardRest() {
        value.discarding = true
        value.held = []
        value.heldCount = 0
        releaseHolds()
    }

    // MARK: From the handler

    /// Attaches `reader`: the held bytes, then the rest.
    package func attach(_ reader: any HTTPBodyReader) -> Disposable {
        if loop.isOnLoopThread {
            // On the loop thread (a reader subscribed where the body
            // arrives, as most do): attached now, and the source itself is
            // the subscription; nothing is made for either.
            return attachOnLoop(reader) ? self : Disposables.create()
        }
        let subscription = SingleAssignmentDisposable()
        // The reader is used on the loop thread only, once handed over.
        let attached = UncheckedSendable(reader)
        loop.enter { [self] in
            guard !subscription.isDisposed, attachOnLoop(attached.value) else { return }
            subscription.setDisposable(self)
        }
        return subscription
    }

    /// The reader is let go (the subscription `attach` returned is
    /// disposed): `detach`, on the loop thread (through its door, with no
    /// closure made).
    package func dispose() {
        loop.enter(self, .detach)
    }

    /// What the source is asked to do on its loop's thread.
    package enum Step: UInt8, LoopStep {
        case detach
    }

    package func runOnLoopThread(_ step: Step) {
        switch step {
        case .detach: detach()
        }
    }

    /// Attaches `reader`, or fails it with `EBUSY` when a reader came
    /// before (then `false`).
    private func attachOnLoop(_ reader: any HTTPBodyReader) -> Bool {
        guard !value.wasAttached else {
            reader.bodyFailed(UVError(code: .busy, operation: "HTTPRequestBody.bytes"))
            return false
        }
        value.wasAttached = true
        connection?.bodyWanted(self)
        let pending = value.held
        value.held = []
        value.heldCount = 0
        for bytes in pending { reader.bodyReceived(bytes) }
        switch value.phase {
        case .open:
            value.reader = reader
            if value.holdsForBuffer {
                value.holdsForBuffer = false
                updateHold()
            }
        case .ended:
            reader.bodyEnded()
        case .failed(let error):
            reader.bodyFailed(error)
        }
        return true
    }

    private func detach() {
        guard value.reader.take() != nil else { return }
        value.discarding = true
        releaseHolds()
        connection?.bodyAbandoned(self)
    }

    /// The body's reader let it go without subscribing (its last reference
    /// went): what still arrives is dropped. From any thread.
    package func abandon() {
        loop.enter { [self] in
            guard !value.wasAttached, !value.discarding, !isFinished else { return }
            value.discarding = true
            value.held = []
            value.heldCount = 0
            releaseHolds()
            connection?.bodyAbandoned(self)
        }
    }

    /// An async consumer holds too much (`true`) or wants more.
    package func consumerHolds(_ holds: Bool) {
        loop.enter { [self] in
            guard value.holdsForConsumer != holds else { return }
            value.holdsForConsumer = holds && !isFinished && !value.discarding
            updateHold()
        }
    }

    // MARK: Holds

    private func releaseHolds() {
        value.holdsForBuffer = false
        value.holdsForConsumer = false
        updateHold()
    }

    private func updateHold() {
        let holds = value.holdsForBuffer || value.holdsForConsumer
        guard holds != value.holdsConnection else { return }
        value.holdsConnection = holds
        connection?.body(self, holds: holds)
    }
}
