import RxCore
import RxUV

/// What a request body asks of its connection: hold reading or let it go,
/// and say `100 Continue`. Loop thread.
protocol HTTPBodyConnection: AnyObject {
    /// The body's reason to hold the connection's reading is `held`.
    func body(_ body: HTTPBodySource, holds held: Bool)
    /// The handler started reading the body: a client that waits for
    /// `100 Continue` is told now.
    func bodyWanted(_ body: HTTPBodySource)
}

/// One request's body between the decoder and the handler: what the
/// decoder cut is held until the handler subscribes (up to the server's
/// body buffer, then the connection stops reading), then passed on as it
/// comes. Loop-thread state; `attach` and `consumerHolds` may be called
/// from any thread and hop to the loop.
final class HTTPBodySource: @unchecked Sendable {
    enum State {
        /// Bytes still arrive.
        case open
        /// The body ended.
        case ended
        /// The body cannot end well (a malformed chunk, a reset).
        case failed(any Error)
    }

    let loop: Loop
    let declaredLength: Int?
    private weak var connection: (any HTTPBodyConnection)?
    private let bufferLimit: Int

    // Loop-thread state.
    private var state = State.open
    private var held: [ByteBuffer] = []
    private var heldCount = 0
    private var observer: AnyObserver<ByteBuffer>?
    private var wasAttached = false
    /// Nobody will read what comes: it is dropped.
    private var discarding = false
    private var holdsForBuffer = false
    private var holdsForConsumer = false
    private var holdsConnection = false

    init(loop: Loop, declaredLength: Int?, connection: any HTTPBodyConnection, bufferLimit: Int) {
        self.loop = loop
        self.declaredLength = declaredLength
        self.connection = connection
        self.bufferLimit = bufferLimit
    }

    /// `true` once the body has ended or failed.
    var isFinished: Bool {
        if case .open = state { return false }
        return true
    }

    /// Whether a handler subscribed to the body.
    var isWanted: Bool {
        wasAttached
    }

    // MARK: From the decoder

    /// Body bytes arrived.
    func receive(_ bytes: ByteBuffer) {
        guard case .open = state, !bytes.isEmpty, !discarding else { return }
        if let observer {
            observer.onNext(bytes)
            return
        }
        held.append(bytes)
        heldCount += bytes.count
        if heldCount > bufferLimit, !holdsForBuffer {
            holdsForBuffer = true
            updateHold()
        }
    }

    /// The body ended (its last bytes first).
    func end(last: ByteBuffer) {
        receive(last)
        guard case .open = state else { return }
        state = .ended
        if let observer {
            self.observer = nil
            observer.onCompleted()
        }
        releaseHolds()
    }

    /// The body cannot end: `error` is what a reader gets.
    func fail(_ error: any Error) {
        guard case .open = state else { return }
        state = .failed(error)
        held = []
        heldCount = 0
        if let observer {
            self.observer = nil
            observer.onError(error)
        }
        releaseHolds()
    }

    /// The answer went out: nobody reads what is held or still comes.
    func discardRest() {
        discarding = true
        held = []
        heldCount = 0
        releaseHolds()
    }

    // MARK: From the handler

    /// Subscribes `observer`: the held bytes, then the rest.
    func attach(_ observer: AnyObserver<ByteBuffer>) -> Disposable {
        let subscription = SingleAssignmentDisposable()
        // The observer is used on the loop thread only, once handed over.
        let attached = UncheckedSendable(observer)
        loop.enter { [self] in
            guard !subscription.isDisposed else { return }
            attachOnLoop(attached.value)
            subscription.setDisposable(Disposables.create { [self] in loop.enter { self.detach() } })
        }
        return subscription
    }

    private func attachOnLoop(_ observer: AnyObserver<ByteBuffer>) {
        guard !wasAttached else {
            observer.onError(UVError(code: .busy, operation: "HTTPRequestBody.bytes"))
            return
        }
        wasAttached = true
        connection?.bodyWanted(self)
        let pending = held
        held = []
        heldCount = 0
        for bytes in pending { observer.onNext(bytes) }
        switch state {
        case .open:
            self.observer = observer
            if holdsForBuffer {
                holdsForBuffer = false
                updateHold()
            }
        case .ended:
            observer.onCompleted()
        case .failed(let error):
            observer.onError(error)
        }
    }

    private func detach() {
        guard observer != nil else { return }
        observer = nil
        discarding = true
        releaseHolds()
    }

    /// An async consumer holds too much (`true`) or wants more.
    func consumerHolds(_ holds: Bool) {
        loop.enter { [self] in
            guard holdsForConsumer != holds else { return }
            holdsForConsumer = holds && !isFinished && !discarding
            updateHold()
        }
    }

    // MARK: Holds

    private func releaseHolds() {
        holdsForBuffer = false
        holdsForConsumer = false
        updateHold()
    }

    private func updateHold() {
        let holds = holdsForBuffer || holdsForConsumer
        guard holds != holdsConnection else { return }
        holdsConnection = holds
        connection?.body(self, holds: holds)
    }
}
