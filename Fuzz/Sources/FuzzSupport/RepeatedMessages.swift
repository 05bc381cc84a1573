import RxUV
import RxUVHTTP

/// One fuzzer input read as a peer that sends one HTTP message again and
/// again with small changes (a client that polls, a server answering the
/// same resource): the stream a connection's decoder reads, the limits it
/// reads it with, and the reads it arrives in. What `fuzz-http-repeats`
/// (requests) and `fuzz-http-response-repeats` (responses) read.
///
/// The input's bytes are: a seed for where the reads are cut, a byte of
/// settings (the low four bits: how many changed copies follow, the next
/// two: which limits, the top two: the target's to use), four bytes per
/// changed copy (what to change, where (two bytes), and the byte to put
/// there), then the message itself (head and any body), which the fuzzer
/// mutates. The stream is the message three times (after the second, a
/// request decoder keeps the head whole; the third repeats it), then each
/// changed copy: the message as it is, with one byte replaced, inserted or
/// removed, or cut short, so that heads that repeat the last and heads
/// that differ from it by a byte follow each other.
public struct RepeatedMessages {
    /// The stream's bytes.
    public let bytes: [UInt8]
    /// The stream cut into reads at the seeded places (1 to 8, 32, 128 or
    /// 512 bytes each, as the seed's low bits say).
    public let reads: [ByteBuffer]
    /// The limits both decoders keep.
    public let limits: HTTPLimits
    /// The settings byte's top two bits, for the target to pick with.
    public let choice: Int

    /// The limits an input may pick: the small ones `fuzz-http` uses; one
    /// whose head limit is the longest head kept whole; larger ones, whose
    /// heads may be too long to keep; the defaults.
    public static let limitChoices = [
        HTTPLimits(maxRequestLineLength: 64, maxHeadLength: 256, maxHeaderFields: 8, maxBodyLength: 128),
        HTTPLimits(maxRequestLineLength: 256, maxHeadLength: 1024, maxHeaderFields: 16, maxBodyLength: 512),
        HTTPLimits(maxRequestLineLength: 1024, maxHeadLength: 4096, maxHeaderFields: 64, maxBodyLength: 4096),
        HTTPLimits(),
    ]

    /// The input of `size` bytes at `data`.
    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        let all = Array(UnsafeBufferPointer(start: data, count: size))
        let seed = all.first ?? 0
        let settings = all.count > 1 ? all[1] : 0
        let changeCount = Int(settings & 0x0F)
        let changesEnd = min(2 + 4 * changeCount, all.count)
        let changes = all.count > 2 ? Array(all[2..<changesEnd]) : []
        let request = Array(all[changesEnd...])
        limits = Self.limitChoices[Int(settings >> 4) & 3]
        choice = Int(settings >> 6)

        var bytes = request + request + request
        var at = 0
        while at + 4 <= changes.count {
            bytes += Self.changed(request, how: changes[at], position: Int(changes[at + 1]) << 8 | Int(changes[at + 2]), byte: changes[at + 3])
            at += 4
        }
        self.bytes = bytes
        reads = FuzzInput.reads(of: bytes, seed: seed, longest: [8, 32, 128, 512][Int(seed & 3)])
    }

    /// `request` (the message) as it is (`how` 0), with the byte at
    /// `position` replaced by `byte` (1), with `byte` inserted there (2),
    /// without the byte there (3), or cut short there (4); `position` is
    /// taken modulo the message's length.
    static func changed(_ request: [UInt8], how: UInt8, position: Int, byte: UInt8) -> [UInt8] {
        var copy = request
        guard !request.isEmpty else { return how % 5 == 2 ? [byte] : [] }
        let index = position % request.count
        switch how % 5 {
        case 1: copy[index] = byte
        case 2: copy.insert(byte, at: position % (request.count + 1))
        case 3: copy.remove(at: index)
        case 4: copy.removeSubrange(index...)
        default: break
        }
        return copy
    }
}
