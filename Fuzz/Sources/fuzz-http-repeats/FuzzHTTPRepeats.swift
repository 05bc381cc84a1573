import FuzzSupport
import RxUV
import RxUVHTTP

/// `HTTPRequestDecoder`'s recent head (`HTTPRecentHead`: the last request
/// line and Host, parsed once for their repeats, and the last head kept
/// whole, a repeat of which is decoded by comparing its bytes) changes
/// nothing a connection's requests decode to: a client's request sent
/// again and again with small changes decodes, in one decoder, to exactly
/// what it decodes to with a new decoder for each request (which has no
/// recent head), part for part, read for read and byte offset for byte
/// offset, to the same error at the same place; in one read (every
/// repeat's head all there) and in reads cut at random.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRepeats(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = RepeatedMessages(data, size)
    let whole = input.bytes.isEmpty ? [] : [ByteBuffer(input.bytes)]
    for (name, reads) in [("one read", whole), ("cut reads", input.reads)] {
        let together = DecodeTrace(reads, limits: input.limits, freshEachRequest: false)
        let alone = DecodeTrace(reads, limits: input.limits, freshEachRequest: true)
        require(together == alone, "\(name): the recent head changed what was decoded, at \(together.difference(from: alone))")
    }
    return 0
}
