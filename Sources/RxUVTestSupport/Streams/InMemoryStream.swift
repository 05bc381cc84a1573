import RxCore
import RxUV

/// One end of an in-memory connection: a `ByteStream` with no socket, whose
/// peer is the pair's other end, on one `Loop` (the role of SwiftNIO's
/// `EmbeddedChannel` for code written against the stream face: an HTTP
/// connection, a TLS stream, a protocol's state machine).
///
/// ```swift
/// let pair = InMemoryStream.pair(on: loop)
/// _ = pair.server.rx.data.subscribe(onNext: { bytes in _ = pair.server.write(bytes).subscribe() })
/// let echo = StreamRecording(of: pair.client)
/// _ = pair.client.write("hello").subscribe()
/// loop.run()  // until nothing moves: echo.string == "hello"
/// ```
///
/// What one end writes the other reads, in order, on the loop thread:
/// - A write is handed on at once to the peer's receive buffer (on the
///   loop thread, it completes before `write` returns, as a libuv stream's
///   write the kernel takes at once does) and the peer's reader reads it
///   on a later loop turn, one read per write (`maxReadSize` cuts it
///   smaller). A delivery turn reads what had arrived when it began, the
///   client end's reader first; what is written during the turn arrives
///   in the next. So a test that runs the loop until nothing is active
///   (`loop.run()`) sees every exchange to its end, in the same order on
///   every run.
/// - With a `receiveBufferSize`, what finds the peer's buffer full waits
///   in the writer's queue (`writeQueueSize`) until the peer reads; above
///   `highWatermark` the writer turns unwritable, at or below
///   `lowWatermark` writable again (`rx.writable`), and a write completes
///   when its last byte is handed on. A peer that holds reading back
///   (`holdReading(true)`) or has no reader reads nothing: its buffer
///   fills.
///
/// The `ByteStream` contract, as a libuv stream keeps it:
/// - One reader at a time: a second subscriber of `rx.data` fails with
///   `EBUSY`, one on a closed or closing end with `ENOTCONN`. Disposing a
///   reader leaves what it did not read to the next one; the stream stays
///   open (its owner closes it, as a `Server` closes its connections).
/// - The peer's `shutdown()` (once its queued writes are handed on) or
///   close: the reader reads what was handed on, then completes (end of
///   input). The peer's `close(.reset)`: the reader fails with
///   `ECONNRESET` at once, unread bytes dropped.
/// - Writes fail with `ENOTCONN` on a closed end, `EPIPE` after the end's
///   own `shutdown()` or once the peer closed (`ECONNRESET` once it
///   reset); `close(.now)` fails the writes still queued with
///   `ECANCELED`. Disposing a write's notification does not take it back.
/// - `close(.afterWrites)` stops reading, hands on what is queued, then
///   closes; `.now` closes at once; `.reset` closes and resets the peer.
///   Closing completes the end's reader and `rx.writable`; `isClosed` is
///   `true` from the call on. Releasing an end closes it (`.now`).
///
/// Every method is safe from any thread (the work enters the loop). Its
/// loop-thread state is the pair's, in one `LoopBound`; the inspection
/// properties (`unreadByteCount`, `isReadingHeld`, `hasReader`) read it on
/// the loop thread only, which is the test's thread once it ran the loop.
public final class InMemoryStream: ByteStream {
    /// The loop the pair lives on.
    public let loop: Loop
    let connection: InMemoryConnection
    let end: InMemoryEnd

    /// Two connected ends on `loop`, carrying bytes as `options` says.
    public static func pair(on loop: Loop, options: InMemoryStreamOptions = InMemoryStreamOptions()) -> InMemoryStreamPair {
        let connection = InMemoryConnection(loop: loop, options: options)
        return InMemoryStreamPair(client: InMemoryStream(connection, .client), server: InMemoryStream(connection, .server))
    }

    private init(_ connection: InMemoryConnection, _ end: InMemoryEnd) {
        self.loop = connection.loop
        self.connection = connection
        self.end = end
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    deinit {
        // An end nobody holds closes, as a libuv stream's handle does.
        let (connection, end) = (connection, end)
        loop.enter { connection.closeNow(end, reset: false) }
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }

    private var flags: InMemoryEndFlags {
        connection.flags(end)
    }

    // MARK: Reading

    /// Makes `reader` this end's one reader (what `rx.data`'s subscription
    /// does): it hears each read, with `readComplete` after each, and the
    /// end of input (`nil`), or `ECONNRESET` when the peer resets. `EBUSY`
    /// while another reads; `ENOTCONN` once closed. Loop thread.
    public func beginReading(_ reader: any ByteStreamReader) {
        connection.beginReading(end, reader)
    }

    /// Stops telling `reader`, if it is this end's reader: what it did not
    /// read waits for the next reader; the end stays open. Loop thread.
    public func endReading(_ reader: any ByteStreamReader) {
        connection.endReading(end, reader)
    }

    /// Holds the current reader's reading back (`true`) or lets it go
    /// (`false`); the hold ends with the reader. Safe from any thread; at
    /// once on the loop thread.
    public func holdReading(_ held: Bool) {
        let (connection, end) = (connection, end)
        loop.enter { connection.holdReading(end, held) }
    }

    // MARK: Writing

    /// The write primitive, on the loop thread: hands `payload` on to the
    /// peer's receive buffer (as one read for the peer) and tells
    /// `observer` once its last byte is handed on, before this returns
    /// when the buffer takes it whole. Disposing the result stops the
    /// notification only.
    public func startWrite<Observer: ObserverType>(_ payload: StreamWritePayload, notifying observer: Observer) -> Disposable where Observer.Element == Never {
        let told = InMemoryWriteObserver(AnyObserver(observer))
        switch payload {
        case .one(let bytes): connection.write(end, bytes, told)
        case .many(let buffers): connection.write(end, ByteBuffer(concatenating: buffers), told)
        }
        return told.cancellation
    }

    /// Half-closes this end when subscribed: once its queued writes are
    /// handed on, the peer reads to the end and sees end of input; reading
    /// continues here. Fails with `ENOTCONN` on a closed end.
    public func shutdown() -> Completable {
        Completable.create { [connection, end] observer in
            let told = InMemoryWriteObserver(InMemoryWriteObserver.forwarding(to: observer))
            connection.loop.enter { connection.shutdown(end, told) }
            return told.cancellation
        }
    }

    /// Closes this end as `mode` says (see the type's rules). Safe from any
    /// thread, any number of times.
    public func close(_ mode: StreamCloseMode) {
        let (connection, end) = (connection, end)
        loop.enter { connection.close(end, mode) }
    }

    // MARK: Writability

    /// The writability (`rx.writable`): the current value on subscribe,
    /// then each change; completes when this end closes.
    public var writability: Observable<Bool> {
        flags.writability.subject(current: isWritable, closed: isClosed).distinctUntilChanged()
    }

    /// Above this many queued bytes this end turns unwritable. Default 64 KiB.
    public var highWatermark: Int {
        get { flags.high.load(ordering: .relaxed) }
        set { flags.high.store(max(newValue, 1), ordering: .relaxed) }
    }

    /// At or below this many queued bytes an unwritable end turns writable
    /// again. Default 32 KiB.
    public var lowWatermark: Int {
        get { flags.low.load(ordering: .relaxed) }
        set { flags.low.store(max(newValue, 0), ordering: .relaxed) }
    }

    /// Bytes written and not yet handed on to the peer (its receive buffer
    /// was full).
    public var writeQueueSize: Int {
        flags.queued.load(ordering: .relaxed)
    }

    /// `false` while more than `highWatermark` bytes wait to be handed on
    /// (until the queue drains to `lowWatermark`).
    public var isWritable: Bool {
        flags.writable.load(ordering: .acquiring)
    }

    /// `true` once this end is closed or closing.
    public var isClosed: Bool {
        flags.closed.load(ordering: .acquiring)
    }

    /// The peer's name (`InMemoryStreamOptions.peerNames`).
    public var peerDescription: String? {
        connection.peerName(end)
    }

    // MARK: Inspection (loop thread)

    /// Bytes the peer handed on that this end has not read yet. Loop thread.
    public var unreadByteCount: Int {
        connection.state.value[end].inboundBytes
    }

    /// Whether this end's reader holds its reading back (`holdReading`).
    /// Loop thread.
    public var isReadingHeld: Bool {
        connection.state.value[end].readingHeld
    }

    /// Whether a subscriber reads this end. Loop thread.
    public var hasReader: Bool {
        connection.state.value[end].reader != nil
    }
}
