@_spi(Bridge) import RxCore

/// Cuts a byte stream into frames: the step a framing operator repeats on
/// the bytes it has.
///
/// `decode(_:)` looks at the reader's bytes: if a whole frame is there, it
/// reads it (moving the reader past it) and returns it; if more bytes are
/// needed, it returns `nil` and may leave the reader anywhere (the operator
/// keeps every byte not yet read and calls again when more arrive); if the
/// bytes can never make a valid frame, or a frame would be longer than the
/// decoder allows, it throws, and the stream ends with that error. A decoder
/// that returns `nil` must also throw once the bytes it waits on pass its
/// limit, so nothing is buffered past it. A frame it returns must have been
/// read: returning one without moving the reader is a programmer error
/// (a precondition), since the operator would never get further.
///
/// A decoder is a value: each subscription of `decodeFrames(_:)` decodes with
/// its own copy, and may keep state in it between calls.
public protocol FrameDecoder {
    /// What the decoder produces from the bytes.
    associatedtype Frame

    /// Reads one frame from the front of `reader`, or returns `nil` when
    /// more bytes are needed. Throws on input that can never be valid.
    mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> Frame?

    /// At the end of the stream, with bytes still unread: reads one more
    /// frame from them, or returns `nil` if they make none (the operator then
    /// fails with `FramingError.truncatedFrame`, unless the decoder read and
    /// dropped them all). By default the same as `decode(_:)`.
    mutating func decodeLast(_ reader: inout ByteBuffer.Reader) throws -> Frame?

    /// At the end of the stream, once every byte was read: the frame the
    /// end itself makes, or `nil` for none; throws when the stream ended
    /// where the decoder still waited for bytes it had no way to ask for
    /// before (a message that its end delimits ends here; one whose
    /// declared length was not reached is truncated). Called once, after
    /// `decodeLast` took what was left. By default `nil`: for most
    /// decoders, an end between frames is a clean end.
    mutating func endOfInput() throws -> Frame?

    /// Reads every whole frame at the front of `reader`, handing each to
    /// `deliver` in order, until more bytes are needed or `deliver` returns
    /// `false`; throws as `decode(_:)` does. What the framing operator calls
    /// for each buffer. By default `decode(_:)` in a loop, which a decoder
    /// has no reason to replace: the default is inlinable, so the module
    /// that defines the decoder compiles the loop for its frame type, and
    /// the operator's generic code never handles a frame (or its optional)
    /// by run-time type.
    mutating func decodeAll(_ reader: inout ByteBuffer.Reader, into deliver: (Frame) throws -> Bool) throws
}

extension FrameDecoder {
    /// `decode(_:)` until it returns `nil` or `deliver` returns `false`; a
    /// frame returned without reading a byte is a programmer error (a
    /// precondition), since the loop would never get further.
    @inlinable
    public mutating func decodeAll(_ reader: inout ByteBuffer.Reader, into deliver: (Frame) throws -> Bool) throws {
        while true {
            let before = reader.readerIndex
            guard let frame = try decode(&reader) else { return }
            precondition(reader.readerIndex > before, "FrameDecoder: \(Self.self) returned a frame without reading a byte")
            guard try deliver(frame) else { return }
        }
    }

    /// `decode(_:)`: at the end of the stream, unread bytes that make no
    /// frame are an error.
    public mutating func decodeLast(_ reader: inout ByteBuffer.Reader) throws -> Frame? {
        try decode(&reader)
    }

    /// `nil`: an end between frames is a clean end.
    public mutating func endOfInput() throws -> Frame? {
        nil
    }
}

extension ObservableType where Element == ByteBuffer {
    /// The frames `decoder` cuts from these bytes, in order, however the
    /// bytes were split into buffers.
    ///
    /// A frame that lies inside one buffer is a slice of it (no copy); only
    /// the bytes of a frame that is not whole yet are kept, and copied once
    /// the next buffer arrives (into room that grows by doubling, so a long
    /// frame in many small reads is copied a bounded number of times per
    /// byte). Completes when the source completes and the bytes left make
    /// whole frames (and the decoder's `endOfInput` accepts the end); fails
    /// with `FramingError.truncatedFrame` when they do not, with the
    /// decoder's error on bad input or a bad end, and with the source's
    /// error. Disposing disposes the source. Events arrive on the source's
    /// thread.
    ///
    ///     bytes:   -[a\nb]-[c\n]-|
    ///     lines:   -a------bc----|
    public func decodeFrames<Decoder: FrameDecoder>(_ decoder: Decoder) -> Observable<Decoder.Frame> {
        DecodeFrames(source: asObservable(), decoder: decoder)
    }
}

private final class DecodeFrames<Decoder: FrameDecoder>: Producer<Decoder.Frame> {
    private let source: Observable<ByteBuffer>
    private let decoder: Decoder

    init(source: Observable<ByteBuffer>, decoder: Decoder) {
        self.source = source
        self.decoder = decoder
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable)
    where Observer.Element == Decoder.Frame {
        let sink = DecodeFramesSink(decoder: decoder, observer: observer, cancel: cancel)
        return (sink: sink, subscription: source.subscribe(sink))
    }
}

/// One subscription of `decodeFrames`: an operator's sink, as RxCore's are.
///
/// Its state is not loop-thread state, so it is not a `LoopBound`:
/// `decodeFrames` works on any `Observable<ByteBuffer>`, whose events may
/// come on any thread (a subject fed by a test or a worker thread, a
/// transform's output), and the sink has no loop to check against. What
/// makes its unchecked fields safe is the Rx grammar, as for RxCore's sinks
/// (`Scan`'s accumulator): a source delivers one event at a time, never two
/// at once, so the fields are touched by one event's delivery at a time;
/// and no two accesses overlap, since a source that emits again from inside
/// a frame's observer (re-entrantly, on the same thread) finds `isDecoding`
/// and only leaves its bytes in `pending`, outside the access to
/// `decoder` that is running. `@unchecked Sendable` for the same reason.
private final class DecodeFramesSink<Decoder: FrameDecoder, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element == Decoder.Frame {
    typealias Element = ByteBuffer

    // Unchecked exclusivity: safe by the grammar (see the type's
    // documentation); the runtime's dynamic checks would cost two
    // `swift_beginAccess` calls per frame, since `decoder` stays accessed
    // while a frame's observer runs.

    /// Changed in place, so that what it keeps (a buffer, an array) is
    /// held once and grows without a copy.
    @exclusivity(unchecked) private var decoder: Decoder
    /// A read is being decoded: a frame's observer runs inside the loop,
    /// and a source that emits again from there must find it in use.
    @exclusivity(unchecked) private var isDecoding = false
    /// The source completed from inside a frame's observer: the loop ends
    /// the stream when it is done.
    @exclusivity(unchecked) private var completedWhileDecoding = false
    /// The bytes of a frame that is not whole yet; and bytes that arrived
    /// while a frame's observer ran, which the loop decodes next.
    @exclusivity(unchecked) private var pending: ByteBuffer?

    init(decoder: Decoder, observer: Observer, cancel: SinkDisposer) {
        self.decoder = decoder
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<ByteBuffer>) {
        switch event {
        case .next(let bytes):
            onNext(bytes)
        case .error(let error):
            forwardError(error)
        case .completed:
            onCompleted()
        }
    }

    func onNext(_ bytes: ByteBuffer) {
        let input: ByteBuffer
        if var partial = pending {
            // Dropped first, so `partial` holds the only reference and can
            // grow in place.
            pending = nil
            partial.append(bytes)
            input = partial
        } else {
            input = bytes
        }
        guard !isDisposed else { return }
        guard !isDecoding else {
            // Emitted from inside a frame's observer: decoded by the loop
            // below, in the call that is decoding, once that observer
            // returns.
            pending = input
            return
        }
        isDecoding = true
        var reader = ByteBuffer.Reader(input)
        do {
            while true {
                try decoder.decodeAll(&reader) { frame in
                    forwardNext(frame)
                    return !isDisposed
                }
                guard !isDisposed, var more = pending else { break }
                pending = nil
                if reader.readableBytes > 0 {
                    var rest = reader.remaining
                    rest.append(more)
                    more = rest
                }
                reader = ByteBuffer.Reader(more)
            }
        } catch {
            isDecoding = false
            forwardError(error)
            return
        }
        isDecoding = false
        if !isDisposed, reader.readableBytes > 0 {
            pending = reader.remaining
        }
        if completedWhileDecoding {
            onCompleted()
        }
    }

    /// One `decodeLast` step at the end of the stream, checked to read at
    /// least one byte when it returns a frame: otherwise the operator would
    /// loop forever, a bug in the decoder. (While the stream runs,
    /// `decodeAll` makes the same check.)
    private func decodeLastOne(_ reader: inout ByteBuffer.Reader) throws -> Decoder.Frame? {
        let before = reader.readerIndex
        let frame = try decoder.decodeLast(&reader)
        precondition(frame == nil || reader.readerIndex > before, "FrameDecoder: \(Decoder.self) returned a frame without reading a byte")
        return frame
    }

    func onCompleted() {
        guard !isDecoding else {
            completedWhileDecoding = true
            return
        }
        if let partial = pending {
            pending = nil
            var reader = ByteBuffer.Reader(partial)
            do {
                while !isDisposed, reader.readableBytes > 0 {
                    guard let frame = try decodeLastOne(&reader) else {
                        // A decoder may read bytes it then drops (the rest of
                        // a skipped line): only bytes left unread are an error.
                        if reader.readableBytes == 0 { break }
                        throw FramingError.truncatedFrame(bytesLeft: reader.readableBytes)
                    }
                    forwardNext(frame)
                }
            } catch {
                forwardError(error)
                return
            }
        }
        guard !isDisposed else { return }
        do {
            if let frame = try decoder.endOfInput() { forwardNext(frame) }
        } catch {
            forwardError(error)
            return
        }
        forwardCompleted()
    }
}
