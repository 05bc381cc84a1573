import RxUV

/// A message body (a server's response's, a client's request's) on its
/// way into DATA frames: the buffers handed to it
/// and not yet framed, or the part of a file not yet read, and whether
/// more comes. nghttp2 pulls from it as the peer's windows allow
/// (`read(into:)`), so bytes wait here, not in the connection's write
/// queue. Loop thread.
package struct HTTP2BodyQueue {
    private var buffers: [ByteBuffer] = []
    /// How much of `buffers[0]` is already framed.
    private var headOffset = 0
    /// Bytes handed to it and not framed yet.
    package private(set) var queuedBytes = 0
    /// The file the body is, and where its next read starts.
    private var file: (file: OpenFile, next: Int64, end: Int64)?
    /// No more bytes will be handed to it.
    package private(set) var isComplete = false
    /// Trailers end the stream after the body (its sender makes them).
    private var endsWithTrailers = false
    /// The reader told nghttp2 "nothing yet": more must resume it.
    package var isDeferred = false
    /// The file's read failed or it ended early.
    package private(set) var failure: UVError?

    /// A body of `bytes`, whole.
    package init(bytes: ByteBuffer) {
        if !bytes.isEmpty {
            buffers = [bytes]
            queuedBytes = bytes.count
        }
        isComplete = true
    }

    /// A body still to come.
    package init() {}

    /// Adds `bytes` behind what waits.
    package mutating func append(_ bytes: ByteBuffer) {
        guard !bytes.isEmpty else { return }
        buffers.append(bytes)
        queuedBytes += bytes.count
    }

    /// The body's bytes are `range` of `file`, all of them.
    package mutating func send(_ file: OpenFile, range: Range<Int64>) {
        self.file = (file, range.lowerBound, range.upperBound)
        isComplete = true
    }

    /// Nothing more will be appended; with `trailers`, the body's last
    /// bytes do not end the stream (`lastBeforeTrailers`): its sender's
    /// trailers do.
    package mutating func complete(trailers: Bool = false) {
        isComplete = true
        endsWithTrailers = trailers
    }

    /// Frames up to `buffer.count` bytes: how many, and whether the body
    /// ends with them; `.deferred` when nothing waits yet; `.failed` when
    /// the file cannot be read (`failure` says why).
    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTP2BodyChunk {
        if let (open, next, end) = file {
            let count = Int(min(Int64(buffer.count), end - next))
            guard count > 0 else { return .bytes(0, last: true) }
            do throws(UVError) {
                let read = try open.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: next)
                guard read > 0 else {
                    failure = UVError(code: .endOfFile, operation: "read", address: open.path)
                    return .failed
                }
                file = (open, next + Int64(read), end)
                return .bytes(read, last: next + Int64(read) >= end)
            } catch {
                failure = error
                return .failed
            }
        }
        var written = 0
        while written < buffer.count, !buffers.isEmpty {
            let head = buffers[0]
            let count = min(head.count - headOffset, buffer.count - written)
            head.withUnsafeBytes { bytes in
                let source = UnsafeRawBufferPointer(rebasing: bytes[headOffset..<(headOffset + count)])
                UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + count)]).copyMemory(from: source)
            }
            written += count
            headOffset += count
            if headOffset == head.count {
                buffers.removeFirst()
                headOffset = 0
            }
        }
        queuedBytes -= written
        if buffers.isEmpty, isComplete {
            return endsWithTrailers ? .lastBeforeTrailers(written) : .bytes(written, last: true)
        }
        if written == 0 {
            isDeferred = true
            return .deferred
        }
        return .bytes(written, last: false)
    }
}
