import RxUV

/// Everything a frame decoder made of a stream, and where: each frame it
/// cut (as `Part`, spelled out by the target), in order, with the read it
/// was cut in and the stream offset the decoder had read to, then how the
/// stream ended and where. Decoded as `decodeFrames` decodes a
/// connection's reads: the bytes of a frame not yet whole kept and read
/// again with the next read, at the end decoded until they make no frame,
/// then the end itself (`endOfInput`). After each frame, `restart` may hand over a new decoder (one that
/// has seen nothing before): what `fuzz-http-repeats` and
/// `fuzz-http-response-repeats` compare a connection's one decoder with.
public struct FrameTrace<Part: Equatable>: Equatable {
    /// A part, and where it was cut.
    public struct Entry: Equatable {
        public var read: Int
        public var offset: Int
        public var part: Part
    }

    /// How the stream ended.
    public enum End: Equatable {
        /// Every byte was decoded.
        case completed
        /// The decoder threw `error` in read `read` (`reads.count`: at the
        /// end of the stream), having read to `offset`.
        case failed(read: Int, offset: Int, error: String)
        /// The stream ended in the middle of a frame, `bytesLeft` unread.
        case truncated(bytesLeft: Int)
    }

    public var entries: [Entry] = []
    public var end = End.completed

    /// `reads` decoded by `decoder`, each frame spelled out by `spell`;
    /// after a frame, the decoder `restart` returns (if any) takes over.
    public init<Decoder: FrameDecoder>(
        _ reads: [ByteBuffer], decoder start: Decoder, spell: (Decoder.Frame) -> Part, restart: (Decoder.Frame) -> Decoder?
    ) {
        var decoder = start
        /// The stream offset of the first byte not yet read.
        var consumed = 0
        var pending: ByteBuffer?
        func take(_ frame: Decoder.Frame, read: Int, offset: Int) {
            entries.append(Entry(read: read, offset: offset, part: spell(frame)))
            if let fresh = restart(frame) { decoder = fresh }
        }
        for (index, read) in reads.enumerated() {
            let input = pending.map { ByteBuffer(concatenating: [$0, read]) } ?? read
            pending = nil
            var reader = ByteBuffer.Reader(input)
            do {
                while let frame = try decoder.decode(&reader) {
                    take(frame, read: index, offset: consumed + reader.readerIndex)
                }
            } catch {
                end = .failed(read: index, offset: consumed + reader.readerIndex, error: String(describing: error))
                return
            }
            consumed += reader.readerIndex
            if reader.readableBytes > 0 { pending = reader.remaining }
        }
        if let pending {
            var reader = ByteBuffer.Reader(pending)
            do {
                while reader.readableBytes > 0 {
                    guard let frame = try decoder.decodeLast(&reader) else {
                        if reader.readableBytes > 0 { end = .truncated(bytesLeft: reader.readableBytes) }
                        return
                    }
                    take(frame, read: reads.count, offset: consumed + reader.readerIndex)
                }
            } catch {
                end = .failed(read: reads.count, offset: consumed + reader.readerIndex, error: String(describing: error))
                return
            }
        }
        // The end of the stream itself (a body the close ends).
        do {
            if let frame = try decoder.endOfInput() { take(frame, read: reads.count, offset: consumed) }
        } catch {
            end = .failed(read: reads.count, offset: consumed, error: String(describing: error))
        }
    }

    /// Where `other` first differs from this trace, said for a failure.
    public func difference(from other: FrameTrace) -> String {
        for index in 0..<max(entries.count, other.entries.count) {
            let mine = index < entries.count ? "\(entries[index])" : "nothing"
            let theirs = index < other.entries.count ? "\(other.entries[index])" : "nothing"
            if mine != theirs { return "part \(index): \(mine) / \(theirs)" }
        }
        return "the end: \(end) / \(other.end)"
    }
}
