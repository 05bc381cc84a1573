import RxCore
import RxUV

/// A stream over `base` whose reader first gets `prefix`, the bytes a
/// sniffer read off `base` to choose a protocol, as one read, then `base`'s
/// own reads. Everything else of the face (writes, writability,
/// watermarks, files, shutdown, close) is `base`'s.
// @unchecked Sendable: `state` is a `LoopBound`; the rest is constant.
final class ReplayedStream: ByteStream, @unchecked Sendable {
    let base: any ByteStream
    private let state: LoopBound<State>

    private struct State {
        /// The bytes not handed back yet.
        var prefix: ByteBuffer?
        /// The reader being handed `prefix`, and whether it held its
        /// reading or ended while it was.
        var replaying: (any ByteStreamReader)?
        var heldDuringReplay = false
        var endedDuringReplay = false
    }

    init(_ base: any ByteStream, prefix: ByteBuffer) {
        self.base = base
        state = LoopBound(State(prefix: prefix.isEmpty ? nil : prefix), loop: base.loop)
    }

    var loop: Loop {
        base.loop
    }

    func beginReading(_ reader: any ByteStreamReader) {
        if let prefix = state.value.prefix {
            state.value.prefix = nil
            state.value.replaying = reader
            reader.received(prefix)
            reader.readComplete()
            state.value.replaying = nil
            guard !state.value.endedDuringReplay else { return }
        }
        base.beginReading(reader)
        if state.value.heldDuringReplay {
            state.value.heldDuringReplay = false
            base.holdReading(true)
        }
    }

    func endReading(_ reader: any ByteStreamReader) {
        if let replaying = state.value.replaying, replaying === reader {
            state.value.endedDuringReplay = true
            return
        }
        base.endReading(reader)
    }

    var writability: Observable<Bool> {
        base.writability
    }

    func holdReading(_ held: Bool) {
        if loop.isOnLoopThread, state.value.replaying != nil {
            state.value.heldDuringReplay = held
            return
        }
        base.holdReading(held)
    }

    func startWrite<Observer: ObserverType>(_ payload: StreamWritePayload, notifying observer: Observer) -> Disposable where Observer.Element == Never {
        base.startWrite(payload, notifying: observer)
    }

    func shutdown() -> Completable {
        base.shutdown()
    }

    func write(_ file: OpenFile, range: Range<Int64>) -> Completable {
        base.write(file, range: range)
    }

    func close(_ mode: StreamCloseMode) {
        base.close(mode)
    }

    var highWatermark: Int {
        get { base.highWatermark }
        set { base.highWatermark = newValue }
    }

    var lowWatermark: Int {
        get { base.lowWatermark }
        set { base.lowWatermark = newValue }
    }

    var writeQueueSize: Int {
        base.writeQueueSize
    }

    var isWritable: Bool {
        base.isWritable
    }

    var isClosed: Bool {
        base.isClosed
    }

    var peerDescription: String? {
        base.peerDescription
    }
}
