import HTTPTypes
import RxUV

/// Inflates a response body sent with `Content-Encoding: gzip` or
/// `deflate`, as it arrives, through the system's zlib.
///
/// Feed it each piece of the body as it is read (`decode(_:)`), in order,
/// then call `finish()` once when the body ends. Each call returns the
/// decoded bytes it could make, in pieces of at most 64 KiB (possibly
/// none). Any error is an `HTTPClientError` with code `.decompression`;
/// after one, every later call throws it again.
///
/// - gzip (RFC 1952): one member or several back to back (RFC 1952 allows
///   a file of several, and `cat a.gz b.gz` makes one); each member's CRC
///   and length are checked. Bytes after a member that do not start
///   another (`1f 8b`) are an error.
/// - deflate: HTTP means the zlib format (RFC 1950), but many servers send
///   raw deflate (RFC 1951). The first two bytes decide: a zlib header
///   (`CMF & 0x0F == 8`, a window of at most 32 KiB, and
///   `(CMF * 256 + FLG) % 31 == 0`) means zlib, anything else raw deflate.
///   Bytes after the end of the stream are an error.
/// - A body with no byte at all is empty, not truncated: servers send the
///   header on empty responses too.
///
/// A decompression bomb is stopped at once: the decoded bytes never pass
/// `maxDecodedLength`, and the decoder never holds more than one 64 KiB
/// buffer of its own beside zlib's state (about 40 KiB). One call's work
/// is bounded by its input and the bound; it never loops without progress.
///
/// Not thread-safe: the connection that reads the body uses it, on its
/// loop's thread.
final class HTTPContentDecoder {
    /// A compressed `Content-Encoding` the client inflates.
    enum Coding: Sendable, Hashable {
        /// `gzip` (and its old name `x-gzip`): RFC 1952.
        case gzip
        /// `deflate`: the zlib format (RFC 1950), or raw deflate (RFC 1951).
        case deflate
    }

    /// Where the decoder is in the body.
    private enum Phase {
        /// deflate: before the first two bytes, which tell zlib from raw
        /// deflate.
        case detecting
        /// gzip: before a member's first two bytes (its magic, `1f 8b`),
        /// at the start of the body and after each member.
        case awaitingMember
        /// In the compressed stream.
        case inflating
        /// deflate: the stream ended; any further byte is an error.
        case ended
        /// `finish()` was called.
        case finished
        /// An error was thrown; every later call throws it again.
        case failed(HTTPClientError)
    }

    /// The most bytes one decoded piece holds: 64 KiB.
    static let pieceLength = 65_536

    /// The coding this decoder inflates.
    let coding: Coding
    /// The most decoded bytes the body may make.
    let maxDecodedLength: Int

    /// zlib's stream.
    private let stream: ZlibInflateStream
    /// Where zlib writes (at most `pieceLength` bytes, fewer for a small
    /// bound); each piece is copied out of it at its exact size.
    private let scratch: UnsafeMutableRawBufferPointer
    /// Where the decoder is.
    private var phase: Phase
    /// The first byte of a pair the phase needs to see whole (`detecting`,
    /// `awaitingMember`), when the input ended between the two.
    private var heldByte: UInt8?
    /// The gzip members that ended so far.
    private var membersEnded = 0
    /// The decoded bytes returned so far.
    private(set) var decodedLength = 0

    /// The coding a `Content-Encoding` value names: `gzip`, `x-gzip` and
    /// `deflate`, in any case, with spaces and tabs around; `nil` for any
    /// other value (`identity`, `br`, a list such as `gzip, gzip`), which
    /// the caller handles.
    static func coding(forContentEncoding value: String) -> Coding? {
        var token = Substring(value)
        while let first = token.first, first == " " || first == "\t" {
            token.removeFirst()
        }
        while let last = token.last, last == " " || last == "\t" {
            token.removeLast()
        }
        switch token.lowercased() {
        case "gzip", "x-gzip":
            return .gzip
        case "deflate":
            return .deflate
        default:
            return nil
        }
    }

    /// A decoder for a body in `coding` that may inflate to at most
    /// `maxDecodedLength` bytes (at least 0). Throws
    /// `HTTPClientError(.decompression, ...)` when zlib cannot start (out
    /// of memory). The corresponding zlib function is `inflateInit2`.
    init(_ coding: Coding, maxDecodedLength: Int) throws(HTTPClientError) {
        precondition(maxDecodedLength >= 0, "HTTPContentDecoder: a negative maxDecodedLength")
        self.coding = coding
        self.maxDecodedLength = maxDecodedLength
        // Raw deflate, if a deflate body's first bytes say so, is a reset away.
        guard let stream = ZlibInflateStream(windowBits: coding == .gzip ? ZlibInflateStream.gzipWindowBits : ZlibInflateStream.zlibWindowBits)
        else { throw HTTPClientError(.decompression, "zlib could not start inflating (out of memory)") }
        self.stream = stream
        phase = coding == .gzip ? .awaitingMember : .detecting
        // One byte past the bound, so that a body of exactly the bound's
        // length is told from one that goes past it.
        let capacity = maxDecodedLength < Self.pieceLength ? maxDecodedLength + 1 : Self.pieceLength
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
    }

    /// Frees the output buffer; zlib's state goes with `stream`
    /// (`inflateEnd`).
    deinit {
        scratch.deallocate()
    }

    /// Inflates `input`, the next bytes of the body; returns the decoded
    /// bytes it made, in pieces of at most 64 KiB (possibly none: zlib may
    /// need more input first). Throws `HTTPClientError(.decompression, ...)`
    /// for malformed data, once the decoded bytes would pass
    /// `maxDecodedLength` (the pieces of that call are not returned), or
    /// for bytes after the end of the compressed stream that do not start
    /// another gzip member. Not to be called after `finish()`.
    func decode(_ input: ByteBuffer) throws(HTTPClientError) -> [ByteBuffer] {
        if case .failed(let error) = phase {
            throw error
        }
        if case .finished = phase {
            preconditionFailure("HTTPContentDecoder: decode(_:) after finish()")
        }
        var pieces: [ByteBuffer] = []
        let outcome = input.withUnsafeBytes { bytes in
            Result { () throws(HTTPClientError) in try consume(bytes, into: &pieces) }
        }
        try outcome.get()
        return pieces
    }

    /// The body ended: throws `HTTPClientError(.decompression, ...)` when
    /// the compressed stream did not end (a truncated body), or the error
    /// an earlier call threw. Call it once, after the last `decode(_:)`.
    func finish() throws(HTTPClientError) {
        switch phase {
        case .failed(let error):
            throw error
        case .finished:
            preconditionFailure("HTTPContentDecoder: finish() twice")
        case .inflating:
            throw fail("the compressed body ends early")
        case .detecting, .awaitingMember:
            // Between gzip members, or before any byte: a whole body. Half a
            // member's magic or of a zlib header is not.
            if heldByte != nil {
                throw fail("the compressed body ends early")
            }
        case .ended:
            break
        }
        phase = .finished
    }

    /// Runs `input` through the phases: the header bytes that decide how
    /// to inflate, then zlib, then (gzip) the next member.
    private func consume(_ input: UnsafeRawBufferPointer, into pieces: inout [ByteBuffer]) throws(HTTPClientError) {
        var index = 0
        while index < input.count {
            switch phase {
            case .inflating:
                index += try inflate(UnsafeRawBufferPointer(rebasing: input[index...]), into: &pieces)
            case .detecting, .awaitingMember:
                if let held = heldByte {
                    // The pair is whole: `held` goes to zlib on its own, the
                    // rest of `input` on the next turn.
                    try start(first: held, second: input[index])
                    heldByte = nil
                    let outcome = withUnsafeBytes(of: held) { bytes in
                        Result { () throws(HTTPClientError) in try inflate(bytes, into: &pieces) }
                    }
                    _ = try outcome.get()
                } else if index + 1 < input.count {
                    try start(first: input[index], second: input[index + 1])
                } else {
                    try hold(input[index])
                    index += 1
                }
            case .ended:
                throw fail("bytes after the end of the deflate data")
            case .finished, .failed:
                preconditionFailure("HTTPContentDecoder: consume in a final phase")
            }
        }
    }

    /// Keeps `byte`, the first of the pair that decides how to inflate, for
    /// the next call; a byte that can start no gzip member fails at once.
    private func hold(_ byte: UInt8) throws(HTTPClientError) {
        if case .awaitingMember = phase, byte != 0x1F {
            throw notAMember(byte, nil)
        }
        heldByte = byte
    }

    /// Decides from a body's (or a member's) first two bytes how zlib
    /// inflates what follows, and moves to `.inflating`.
    private func start(first: UInt8, second: UInt8) throws(HTTPClientError) {
        switch phase {
        case .detecting:
            if !Self.isZlibHeader(first, second) {
                stream.reset(windowBits: ZlibInflateStream.rawDeflateWindowBits)
            }
        case .awaitingMember:
            guard first == 0x1F, second == 0x8B else {
                throw notAMember(first, second)
            }
            if membersEnded > 0 {
                stream.reset(windowBits: ZlibInflateStream.gzipWindowBits)
            }
        default:
            preconditionFailure("HTTPContentDecoder: start outside a header")
        }
        phase = .inflating
    }

    /// Whether `cmf` and `flg` are a zlib header (RFC 1950 §2.2): method 8
    /// (deflate), a window of at most 32 KiB, and a check that makes
    /// `cmf * 256 + flg` a multiple of 31.
    static func isZlibHeader(_ cmf: UInt8, _ flg: UInt8) -> Bool {
        cmf & 0x0F == 8 && cmf >> 4 <= 7 && (Int(cmf) * 256 + Int(flg)) % 31 == 0
    }

    /// Inflates from the start of `input` until it is consumed or the
    /// stream ends; appends the decoded pieces to `pieces` and returns the
    /// bytes consumed. The corresponding zlib function is `inflate`.
    private func inflate(_ input: UnsafeRawBufferPointer, into pieces: inout [ByteBuffer]) throws(HTTPClientError) -> Int {
        var consumed = 0
        while true {
            let remaining = maxDecodedLength - decodedLength
            // One byte past the bound at most: enough to see a bomb, never more.
            let room = remaining < scratch.count ? remaining + 1 : scratch.count
            let step = stream.inflate(UnsafeRawBufferPointer(rebasing: input[consumed...]), into: UnsafeMutableRawBufferPointer(rebasing: scratch[..<room]))
            consumed += step.consumed
            guard step.succeeded else {
                throw failure(of: step)
            }
            if step.produced > 0 {
                guard step.produced <= remaining else {
                    throw fail("the body inflates past \(maxDecodedLength) bytes")
                }
                decodedLength += step.produced
                pieces.append(copyPiece(count: step.produced))
            }
            if step.ended {
                if coding == .gzip {
                    membersEnded += 1
                    phase = .awaitingMember
                } else {
                    phase = .ended
                }
                return consumed
            }
            if step.consumed == 0 && step.produced == 0 {
                // No progress (Z_BUF_ERROR): the input is used up and no
                // output is pending. With input left, zlib would be stuck.
                guard consumed == input.count else {
                    throw fail("\(formatName) data stalled zlib with \(input.count - consumed) bytes unread")
                }
                return consumed
            }
            if consumed == input.count && step.produced < room {
                // All input taken and zlib had room to spare: nothing pending.
                return consumed
            }
        }
    }

    /// The first `count` bytes of `scratch`, in a buffer of their own.
    private func copyPiece(count: Int) -> ByteBuffer {
        ByteBuffer(unsafeUninitializedCapacity: count) { memory in
            memory.copyMemory(from: UnsafeRawBufferPointer(rebasing: scratch[..<count]))
            return count
        }
    }

    /// The error for a zlib call that failed.
    private func failure(of step: ZlibInflateStream.Step) -> HTTPClientError {
        if step.needsDictionary {
            return fail("\(formatName) data needs a preset dictionary, which HTTP cannot name")
        }
        if step.outOfMemory {
            return fail("zlib ran out of memory inflating \(formatName) data")
        }
        return fail("\(formatName) data is corrupt: \(stream.message(for: step))")
    }

    /// The error for bytes where a gzip member must start: the body is no
    /// gzip data at all, or has bytes after its last member.
    private func notAMember(_ first: UInt8, _ second: UInt8?) -> HTTPClientError {
        if membersEnded > 0 {
            return fail("bytes after the end of the gzip data")
        }
        let seen = [first] + (second.map { [$0] } ?? [])
        let hex = seen.map { "0x" + String($0, radix: 16, uppercase: false) }.joined(separator: " ")
        return fail("the body is not gzip data (it starts with \(hex))")
    }

    /// "gzip" or "deflate", for error texts.
    private var formatName: String {
        coding == .gzip ? "gzip" : "deflate"
    }

    /// Moves to `.failed` with `detail`, and returns the error to throw.
    private func fail(_ detail: String) -> HTTPClientError {
        let error = HTTPClientError(.decompression, detail)
        phase = .failed(error)
        return error
    }
}

extension HTTPContentDecoder {
    /// The inflater of `response`'s body when `decompression` is on and the
    /// body has one coding it knows (`gzip`, `deflate`); `nil` otherwise.
    convenience init?(for response: HTTPResponse, _ decompression: HTTPDecompression) throws(HTTPClientError) {
        guard case .enabled(let limit) = decompression else { return nil }
        let codings = response.headerFields[values: .contentEncoding].flatMap { $0.split(separator: ",") }
        guard codings.count == 1, let coding = HTTPContentDecoder.coding(forContentEncoding: String(codings[0])) else { return nil }
        try self.init(coding, maxDecodedLength: max(0, limit))
    }
}
