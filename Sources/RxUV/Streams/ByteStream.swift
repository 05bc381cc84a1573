@_spi(Bridge) import RxCore

/// The face of a connected byte stream, apart from what carries it: what a
/// TCP connection, a Unix-domain connection, a terminal and a child's pipes
/// offer (`StreamConnection`, over a libuv stream), and what a stream that
/// is not a libuv handle offers too (a transform over another stream, such
/// as TLS over a TCP connection).
///
/// `Server` (through its per-connection factory), `ServedConnection`, the
/// framing operators on `rx.data` and `write(fileAt:)` speak to this face
/// only, so any implementation is served, framed and written to the same
/// way. Users read with `rx.data` and watch writability with `rx.writable`;
/// the requirements behind them (`receivedData`, `writability`) are what an
/// implementation provides.
///
/// The contract every implementation keeps (the libuv streams' own):
/// - `receivedData` emits the peer's bytes on the loop thread, completes at
///   end of input or when the stream closes, fails with the read's error;
///   one subscriber at a time (a second fails with `EBUSY`).
/// - `write` completes once the bytes are handed on, in order; fails with
///   `ENOTCONN` on a closed stream and `ECANCELED` when the stream closes
///   first. Disposing only stops the notification.
/// - `writability` emits the current value on subscribe, then each change
///   against `highWatermark` / `lowWatermark`, and completes when the
///   stream closes.
/// - `close(.afterWrites)` flushes what is queued, then closes; `.now`
///   fails what is queued; `.reset` aborts (a TCP reset where there is one).
public protocol ByteStream: AnyObject, Sendable, ReactiveCompatible {
    /// The loop the stream's events arrive on.
    var loop: Loop { get }

    /// The bytes the peer sends, one `ByteBuffer` per read: what `rx.data`
    /// returns. Completes at end of input; errors with the read's error.
    /// The default implementation subscribes a reader with
    /// `beginReading(_:)` (on the loop thread, at once there) and ends it
    /// with `endReading(_:)` when disposed.
    var receivedData: Observable<ByteBuffer> { get }

    /// Makes `reader` the stream's one reader: from now on it hears each
    /// read (`received`), the end of each read's handling
    /// (`readComplete`), and the end of reading (`ended`), on the loop
    /// thread. A reader that comes while another reads ends at once with
    /// `EBUSY`; one on a closed stream with `ENOTCONN` (or the error the
    /// stream failed with). Loop thread.
    func beginReading(_ reader: any ByteStreamReader)

    /// Stops telling `reader`, if it is the stream's reader: reading stops,
    /// and a stream whose life is its reading closes after its writes.
    /// Loop thread.
    func endReading(_ reader: any ByteStreamReader)

    /// The stream's writability: what `rx.writable` returns.
    var writability: Observable<Bool> { get }

    /// Holds the current reader's reading back (`true`) or lets it go
    /// (`false`), for a consumer that has no room: what `inbound` asks when
    /// its buffer passes a watermark. A libuv stream stops and starts
    /// reading (`uv_read_stop`, `uv_read_start`) through the demand reason
    /// of its read gate, beside its own write backpressure. Safe from any
    /// thread: takes effect on the loop thread, at once there, else in
    /// order with the stream's other work. The hold belongs to the reader
    /// that reads now and ends with it.
    func holdReading(_ held: Bool)

    /// The one write primitive: writes `payload` now, in order behind the
    /// writes made before, and tells `observer` how the write ended
    /// (`completed` once the bytes are handed on, or the error). A write
    /// the stream hands on at once is told before this returns. While the
    /// stream's reader handles a read (between `received` and the end of
    /// `readComplete`), writes after the first are held and go out
    /// together, as one write, when the handling ends. Returns what stops
    /// the notification: the write itself cannot be taken back. Loop
    /// thread: every other write of the face (`write(_:)`, its `notifying:`
    /// form from any thread, `write(_ buffers:)`, a file's chunks) comes
    /// here through `LoopStart`.
    func startWrite<Observer: ObserverType>(_ payload: StreamWritePayload, notifying observer: Observer) -> Disposable where Observer.Element == Never

    /// Half-closes the stream when subscribed: after the queued writes, the
    /// peer sees end of input; reading continues.
    func shutdown() -> Completable

    /// Sends the bytes `range` (offsets) of `file` when subscribed, in
    /// order behind the writes made before; completes once the last is
    /// handed on. A libuv stream sends what the kernel takes straight
    /// from the page cache (`sendfile(2)`); every stream copies the rest
    /// a chunk at a time through `write`. The default implementation
    /// (for a stream with no direct path, such as TLS) copies it all.
    func write(_ file: OpenFile, range: Range<Int64>) -> Completable

    /// Closes the stream as `mode` says. Safe from any thread, any number of
    /// times.
    func close(_ mode: StreamCloseMode)

    /// Above this many queued write bytes the stream turns unwritable.
    var highWatermark: Int { get set }

    /// At or below this many queued write bytes an unwritable stream turns
    /// writable again.
    var lowWatermark: Int { get set }

    /// Bytes written and not yet handed on.
    var writeQueueSize: Int { get }

    /// `false` while more than `highWatermark` bytes wait to be written.
    var isWritable: Bool { get }

    /// `true` once the stream is closed or closing.
    var isClosed: Bool { get }

    /// The peer, for messages (`127.0.0.1:53122`, a socket path), when there
    /// is one.
    var peerDescription: String? { get }
}

/// How a stream closes (`ByteStream.close(_:)`).
public enum StreamCloseMode: Sendable, Hashable {
    /// Stop reading, flush the writes already queued, then close: what a
    /// read subscription's end and a `Server` handler's end do. When the
    /// peer's bytes wait unread at that point, a libuv stream closes in
    /// stages (RFC 9112 §9.6): it half-closes (`shutdown(2)`, the peer sees
    /// the end of the answer), reads and drops what still arrives, and
    /// closes at the peer's end, after 1 MiB or after 2 seconds, so that the
    /// peer reads the last answer instead of a reset.
    case afterWrites
    /// Close now: queued writes fail with `ECANCELED`, a reader gets
    /// `.completed`, `rx.writable` completes.
    case now
    /// Abort: a TCP reset (`uv_tcp_close_reset`) where the stream has one,
    /// otherwise as `.now`.
    case reset
}

extension ByteStream {
    /// Writes `bytes` when subscribed; completes when they are handed on
    /// (a libuv stream: `uv_try_write`, else when `uv_write` reports them
    /// done), in order behind the writes made before. Fails with `ENOTCONN`
    /// on a closed stream, `ECANCELED` when it closes first, or the
    /// stream's write error (`EPIPE`, `ECONNRESET`), on the loop thread.
    /// Subscribed on the loop thread, the write starts during `subscribe`
    /// (and a write handed on at once completes there); from another
    /// thread it starts through the loop's door. Disposing only stops the
    /// notification: the write cannot be taken back.
    public func write(_ bytes: ByteBuffer) -> Completable {
        Completable(raw: ByteStreamWrite(stream: self, payload: .one(bytes)))
    }

    /// Writes `buffers` in order, as one write (a libuv stream: one
    /// vectored write, with no copy; TLS: their records in one transport
    /// write); completes when every byte is handed on. Otherwise as
    /// `write(_:)` for one `ByteBuffer`.
    public func write(_ buffers: [ByteBuffer]) -> Completable {
        Completable(raw: ByteStreamWrite(stream: self, payload: .many(buffers)))
    }

    /// Writes `bytes` now, as a subscription to `write(_:)` would, and tells
    /// `observer` how the write ended, with no `Completable` made or
    /// subscribed: for code that writes on every message and keeps one
    /// observer for all its writes (a server's responses, an `async`
    /// writer). On the loop thread this is `startWrite(.one(bytes),
    /// notifying:)`; from another thread the write starts through the
    /// loop's door. Returns what stops the notification: the write itself
    /// cannot be taken back.
    public func write<Observer: ObserverType>(_ bytes: ByteBuffer, notifying observer: Observer) -> Disposable where Observer.Element == Never {
        LoopStart.start(
            on: loop, notifying: observer,
            here: { startWrite(.one(bytes), notifying: $0) },
            elsewhere: { ByteStreamWrite(stream: self, payload: .one(bytes)) })
    }

    /// The bytes the peer sends (`rx.data`), for a stream with no reading
    /// of its own: a reader subscribed with
    /// `beginReading(_:)` on the loop thread, forwarding each read as an
    /// element; disposing it ends the reading (`endReading(_:)`).
    public var receivedData: Observable<ByteBuffer> {
        ByteStreamRead(stream: self)
    }

    /// Closes the stream now (`close(.now)`). Safe from any thread, any
    /// number of times.
    public func close() {
        close(.now)
    }

    /// Writes the bytes of `bytes`; see `write(_:)` for `ByteBuffer`.
    public func write(_ bytes: [UInt8]) -> Completable {
        write(ByteBuffer(bytes))
    }

    /// Writes the UTF-8 bytes of `string`; see `write(_:)` for `ByteBuffer`.
    public func write(_ string: String) -> Completable {
        write(ByteBuffer(string: string))
    }

    /// Sends the bytes `range` (offsets) of `file`, an open file
    /// (`loop.rx.openFile(path:)`, `OpenFileCache`), on the loop thread:
    /// read a chunk at a time (`pread`, up to 64 KiB, on the loop thread,
    /// as nginx reads without `aio`) and written with `write(_:)`, the next
    /// chunk once the last is written, so a slow peer holds one chunk in
    /// memory. Completes after the last byte; fails with
    /// `UVError.Code.endOfFile` when the file ends before the range does,
    /// or with a read's or a write's error. Disposing stops after the
    /// chunk in flight, untold; the file stays open while the object
    /// lives.
    ///
    /// `StreamConnection` (TCP, Unix sockets, pipes) sends what the kernel
    /// takes straight from the page cache instead (`sendfile(2)`), and
    /// copies only what the socket cannot take at once. For a file that
    /// may not be in the page cache, `write(fileAt:range:)` reads on
    /// libuv's thread pool instead.
    public func write(_ file: OpenFile, range: Range<Int64>) -> Completable {
        FileSend.completable(stream: self, file: file, range: range, direct: nil)
    }

    /// Sends the whole of `file`, as its size was when it was opened; see
    /// `write(_:range:)`.
    public func write(_ file: OpenFile) -> Completable {
        write(file, range: 0..<Int64(file.status.size))
    }
}
