import RxCore

/// Where one request stands, on its loop's thread (`HTTPClientExchange`).
struct HTTPClientExchangeState {
    /// Where the request is.
    enum Phase {
        /// Made; not handed to the pool yet.
        case new
        /// In its host's queue, for a connection.
        case queued(HTTPHostPool)
        /// On a connection (an HTTP/2 stream): being sent, or waiting for
        /// its response's head.
        case sending(any HTTPExchangeCarrier)
        /// Its response began: the caller has it, the body still arrives.
        case responding(any HTTPExchangeCarrier)
        /// Over: answered whole, failed, or disposed.
        case finished
    }

    var phase = Phase.new
    /// Told once: the response's head, or the failure before it.
    var observer: (any HTTPExchangeObserver)?
    /// The request was sent again once (on a stale connection).
    var retried = false
    /// The whole-exchange timer, while it runs; a no-op otherwise
    /// (`Disposables.take`).
    var timer: Disposable = Disposables.create()
}
