import RxUV

/// What an `HTTPBodySource` holds on its loop's thread.
package struct HTTPBodySourceState {
    /// Where the body is.
    enum Phase {
        /// Bytes still arrive.
        case open
        /// The body ended.
        case ended
        /// The body cannot end well (a malformed chunk, a reset).
        case failed(any Error)
    }

    var phase = Phase.open
    /// What arrived before a reader did.
    var held: [ByteBuffer] = []
    var heldCount = 0
    /// The reader, once attached and until the body's end or its detach.
    var reader: (any HTTPBodyReader)?
    var wasAttached = false
    /// Nobody will read what comes: it is dropped.
    var discarding = false
    var holdsForBuffer = false
    var holdsForConsumer = false
    var holdsConnection = false

    init() {}
}
